"""Request bodies: every JSON endpoint reads its body through one parser, whose errors are 400s in the error shape."""

import pytest
from django.urls import NoReverseMatch, reverse
from rest_framework.authtoken.models import Token
from rest_framework.parsers import JSONParser as DRFJSONParser
from rest_framework.test import APIClient

from jobs import services as job_services
from tests.api.conftest import api_views
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DEEP = "[" * 1200 + "]" * 1200  # past Python's recursion limit: the decoder's RecursionError


def _json_writes() -> list[tuple[str, str]]:
    """(URL name, method) of every API endpoint that reads a JSON body, from the URL configuration."""
    return [
        (name, method)
        for name, view in api_views()
        for method in ("post", "put", "patch")
        if hasattr(view, method) and any(issubclass(parser, DRFJSONParser) for parser in view.parser_classes)
    ]


JSON_WRITES = _json_writes()


def test_the_json_endpoints_are_all_found():
    assert set(JSON_WRITES) >= {
        ("job-match", "post"),
        ("job-list", "post"),
        ("job-detail", "patch"),
        ("job-pipeline", "post"),
        ("export-list", "post"),
    }


def test_every_endpoint_reads_json_with_the_projects_parser(settings):
    assert settings.REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"][0] == "api.parsers.JSONParser"
    for name, view in api_views():
        json_parsers = [parser for parser in view.parser_classes if issubclass(parser, DRFJSONParser)]
        assert all(parser.__module__ == "api.parsers" for parser in json_parsers), name


@pytest.fixture
def superuser_api(db) -> tuple[APIClient, int]:
    """A client allowed everything, and a job of its own (for the job's URLs)."""
    user = UserFactory(username="writer", is_staff=True, is_superuser=True)
    job = job_services.job_create(user=user, title="Backend", description="Python and Go.").job
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client, job.pk


@pytest.mark.parametrize(("name", "method"), JSON_WRITES, ids=[f"{m.upper()} {n}" for n, m in JSON_WRITES])
@pytest.mark.parametrize("body", [DEEP, '{"title": ' + DEEP + "}"], ids=["array", "in an object"])
def test_a_body_nested_past_the_parsers_depth_is_a_400_in_the_error_shape(superuser_api, name, method, body):
    client, job_id = superuser_api
    try:
        url = reverse(f"api:{name}")
    except NoReverseMatch:  # the JSON writes with an id are a job's
        url = reverse(f"api:{name}", kwargs={"pk": job_id})

    response = getattr(client, method)(url, body, content_type="application/json")

    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "error": {"code": "parse_error", "message": "JSON parse error - nested too deeply", "details": {}}
    }


def test_a_body_nested_as_deep_as_a_real_one_still_reads(superuser_api):
    client, _ = superuser_api

    response = client.post(reverse("api:job-match"), {"description": "Python and Go."}, format="json")

    assert response.status_code == 200, response.content[:300]
