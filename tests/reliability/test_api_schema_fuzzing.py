"""schemathesis against the API's own OpenAPI schema (GET /api/schema/): zero 5xx, every answer as documented."""

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from devtools.synthetic import generate_documents
from ingestion.services import documents_load
from tests.factories import UserFactory

EXAMPLES = 15  # per operation and mode: enough to find crashes, small enough for the normal suite
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture
def fuzzing_token(db) -> str:
    from django.contrib.auth.models import Permission

    user = UserFactory(username="fuzzer")
    user.user_permissions.add(Permission.objects.get(codename="add_importbatch", content_type__app_label="ingestion"))
    user.user_permissions.add(Permission.objects.get(codename="view_candidate", content_type__app_label="profiles"))
    # Stored jobs (issue 16): read, create and change their own, so the job endpoints are fuzzed past the 403.
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="jobs", codename__in=["view_job", "add_job", "change_job"])
    )
    return Token.objects.get_or_create(user=user)[0].key


@pytest.fixture
def api_schema(db, fuzzing_token, client):
    """The schema the running API serves, with some candidates behind it."""
    documents_load(documents=list(generate_documents(25, seed=99)))
    response = client.get("/api/schema/", {"format": "json"}, HTTP_AUTHORIZATION=f"Token {fuzzing_token}")
    assert response.status_code == 200
    schema = schemathesis.openapi.from_dict(response.json())
    schema.app = WSGIHandler()
    # As Django's test client does: a request must not close the connection that holds the test's transaction.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield schema
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def _has_inputs(operation) -> bool:
    """Whether the operation takes a parameter or a body that a negative case could break (the Authorization header
    every operation declares is the fuzzer's own, set on every request)."""
    headers = [header for header in operation.headers if header.name.lower() != "authorization"]
    return bool(headers) or any(len(part) for part in (operation.path_parameters, operation.query, operation.body))


def fuzz(schema, token: str, mode: GenerationMode, checks: list) -> tuple[int, dict[str, str]]:
    """Run every operation of the schema with generated requests; returns (operations, failures by operation)."""
    failures, operations = {}, 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        if mode == GenerationMode.NEGATIVE and not _has_inputs(operation):
            continue  # nothing of the request to make invalid (GET /api/v1/): no case can be generated

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        def answers_as_documented(case):
            case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=checks)

        try:
            answers_as_documented()
        except (Exception, BaseExceptionGroup) as exc:  # every operation is fuzzed; failures reported together
            failures[operation.label] = str(exc)[:1500]
    return operations, failures


def test_the_api_answers_every_generated_request_as_its_schema_says(api_schema, fuzzing_token):
    operations, failures = fuzz(api_schema, fuzzing_token, GenerationMode.POSITIVE, CHECKS)

    assert operations >= 8
    assert failures == {}, "\n\n".join(f"{label}\n{message}" for label, message in failures.items())


def test_the_api_answers_invalid_requests_without_a_server_error(api_schema, fuzzing_token):
    operations, failures = fuzz(api_schema, fuzzing_token, GenerationMode.NEGATIVE, [not_a_server_error])

    assert operations >= 8
    assert failures == {}, "\n\n".join(f"{label}\n{message}" for label, message in failures.items())
