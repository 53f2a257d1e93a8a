"""API clients: a read-only consumer with a token, an importer, and anonymous."""

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory


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


@pytest.fixture
def seed_profile(db, corpus_dir: Path):
    """Jinliang Wei, parsed from the shared corpus and loaded as an import would; returns (candidate id, expected)."""
    from ingestion.loaders import load_documents
    from ingestion.parsers import parse
    from profiles.selectors import skill_vocabulary

    document = parse((corpus_dir / "progai" / "jinliang-wei.txt").read_bytes(), vocabulary=skill_vocabulary())
    [result] = load_documents([document])
    expected = json.loads((corpus_dir / "progai" / "jinliang-wei.expected.json").read_text())
    return result.candidate_id, expected
