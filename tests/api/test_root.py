"""GET /api/v1/: the API root names every endpoint a consumer starts from, behind the same login as the rest."""

import pytest
import yaml
from django.core.management import call_command
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ROOT = "/api/v1/"


def test_the_root_lists_the_endpoints_as_absolute_links(api):
    response = api.get(ROOT)

    assert response.status_code == 200
    assert response.json() == {
        "candidates": "http://testserver/api/v1/candidates/",
        "candidates_export_csv": "http://testserver/api/v1/candidates/export.csv",
        "candidates_export_jsonl": "http://testserver/api/v1/candidates/export.jsonl",
        "skills": "http://testserver/api/v1/skills/",
        "repositories": "http://testserver/api/v1/repositories/",
        "jobs": "http://testserver/api/v1/jobs/",
        "jobs_match": "http://testserver/api/v1/jobs/match/",
        "imports": "http://testserver/api/v1/imports/",
        "exports": "http://testserver/api/v1/exports/",
        "privacy_notices": "http://testserver/api/v1/privacy/notices/",
        "schema": "http://testserver/api/schema/",
        "docs": "http://testserver/api/docs/",
    }


def test_every_link_of_the_root_answers_a_user_with_every_permission():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=UserFactory(is_superuser=True)).key}")
    links = client.get(ROOT).json()

    for name, url in links.items():
        if name == "jobs_match":
            assert client.post(url, {}, format="json").status_code == 400, name  # a POST: no description is a 400
        else:
            assert client.get(url).status_code == 200, name


def test_the_root_is_named_and_reversible():
    assert reverse("api:root") == ROOT


def test_an_anonymous_visitor_gets_the_apis_401(anonymous):
    response = anonymous.get(ROOT)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["error"]["code"] == "not_authenticated"


def test_the_root_reads_only(api):
    assert api.post(ROOT, {}).status_code == 405


def test_the_schema_documents_the_root_and_its_links(tmp_path):
    path = tmp_path / "openapi.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    schema = yaml.safe_load(path.read_text())

    get = schema["paths"][ROOT]["get"]
    component = get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    properties = schema["components"]["schemas"][component]["properties"]
    assert set(properties) >= {"candidates", "skills", "jobs", "imports", "exports", "schema", "docs"}
    assert all(field == {"type": "string", "format": "uri", "readOnly": True} for field in properties.values())


def test_an_admin_session_browses_the_root(admin_client):
    response = admin_client.get(ROOT, HTTP_ACCEPT="text/html")

    assert response.status_code == 200
    assert "http://testserver/api/v1/candidates/" in response.content.decode()
