"""API clients: a read-only consumer with a token, an importer, and anonymous."""

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.fixtures import PROGAI_DIR


def api_views(resolver: URLResolver | None = None, namespace: str = "") -> list[tuple[str, type]]:
    """(URL name, view class) of every endpoint under /api/v1/, read from the URL configuration."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            found += api_views(pattern, pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern) and namespace == "api":
            found.append((pattern.name, pattern.callback.view_class))
    return found


def _client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def consumer(db):
    return UserFactory(username="consumer")


@pytest.fixture
def api(consumer) -> APIClient:
    """A read-only API consumer authenticated with its token."""
    return _client_for(consumer)


@pytest.fixture
def importer(db):
    user = UserFactory(username="importer")
    user.user_permissions.add(Permission.objects.get(codename="add_importbatch", content_type__app_label="ingestion"))
    return user


@pytest.fixture
def import_api(importer) -> APIClient:
    return _client_for(importer)


def _load_profile(path: Path, expected_path: Path) -> tuple[int, dict]:
    from ingestion.parsers import parse
    from ingestion.services import documents_load
    from profiles.vocabulary_copy import skill_vocabulary

    document = parse(path.read_bytes(), vocabulary=skill_vocabulary().words)
    [result] = documents_load(documents=[document])
    return result.candidate_id, json.loads(expected_path.read_text(encoding="utf-8"))


@pytest.fixture
def seed_profile(db):
    """Ingrid Valtonen, the fictional Prog.AI reference (tests/fixtures/progai), loaded as an import would;
    returns (candidate id, expected document)."""
    return _load_profile(PROGAI_DIR / "ingrid-valtonen.txt", PROGAI_DIR / "ingrid-valtonen.expected.json")


@pytest.fixture
def corpus_seed_profile(db, corpus_dir: Path):
    """Jinliang Wei, the shared corpus's real export, loaded as an import would; returns (candidate id, expected)."""
    return _load_profile(
        corpus_dir / "progai" / "jinliang-wei.txt", corpus_dir / "progai" / "jinliang-wei.expected.json"
    )
