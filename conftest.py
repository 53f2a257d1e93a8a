"""Shared fixtures: a seeded test database on real PostgreSQL, the shared corpus, production-like settings."""

from pathlib import Path

import pytest
from django.core.management import call_command

CORPUS_DIR = Path(__file__).resolve().parent.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Seed the skill vocabulary once: curated aliases always, GitHub/Linguist vocabularies when the corpus exists."""
    with django_db_blocker.unblock():
        call_command("seed_skills", vocab=CORPUS_DIR / "vocab", stderr=open("/dev/null", "w"))  # noqa: SIM115


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS_DIR.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS_DIR}")
    return CORPUS_DIR


@pytest.fixture(autouse=True)
def _plain_http(settings):
    """Production settings redirect to HTTPS; the test client and live server speak plain HTTP."""
    settings.SECURE_SSL_REDIRECT = False
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
