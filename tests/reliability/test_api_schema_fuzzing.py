"""schemathesis against the API's own OpenAPI schema (GET /api/schema/): zero 5xx, every answer as documented.

In the normal suite (``make test``) the requests are generated from a fixed seed (Hypothesis's ``derandomize``): a
fresh clone's run sends what every other run sends, so a failure there is the code's, found again by anyone who runs
it. ``make reliability`` adds a wider run from a new random seed each time, which it prints, with the command that
replays it (``TALENTDB_FUZZ_SEED``).
"""

import os
import secrets

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from hypothesis import HealthCheck, given, seed, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from devtools.synthetic import generate_documents
from ingestion.services import documents_load
from tests.factories import UserFactory

EXAMPLES = 15  # per operation and mode: enough to find crashes, small enough for the normal suite
WIDE_EXAMPLES = 40  # per operation and mode in make reliability, from a random seed
SEED_VARIABLE = "TALENTDB_FUZZ_SEED"  # set to a seed the wide run printed, to replay it
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


def fuzz(
    schema, token: str, mode: GenerationMode, checks: list, *, examples: int = EXAMPLES, random_seed: int | None = None
) -> tuple[int, dict[str, str]]:
    """Run every operation of the schema with generated requests; returns (operations, failures by operation).

    Without ``random_seed`` the generation is derandomized (the same requests every run); with one, it is drawn from
    that seed."""
    failures, operations = {}, 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        if mode == GenerationMode.NEGATIVE and not _has_inputs(operation):
            continue  # nothing of the request to make invalid (GET /api/v1/): no case can be generated

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=examples,
            deadline=None,
            database=None,
            derandomize=random_seed is None,
            suppress_health_check=list(HealthCheck),
        )
        def answers_as_documented(case):
            case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=checks)

        if random_seed is not None:
            answers_as_documented = seed(random_seed)(answers_as_documented)
        try:
            answers_as_documented()
        except (Exception, BaseExceptionGroup) as exc:  # every operation is fuzzed; failures reported together
            failures[operation.label] = str(exc)[:1500]
    return operations, failures


def _report(failures: dict[str, str]) -> str:
    return "\n\n".join(f"{label}\n{message}" for label, message in failures.items())


def test_the_api_answers_every_generated_request_as_its_schema_says(api_schema, fuzzing_token):
    operations, failures = fuzz(api_schema, fuzzing_token, GenerationMode.POSITIVE, CHECKS)

    assert operations >= 8
    assert failures == {}, _report(failures)


def test_the_api_answers_invalid_requests_without_a_server_error(api_schema, fuzzing_token):
    operations, failures = fuzz(api_schema, fuzzing_token, GenerationMode.NEGATIVE, [not_a_server_error])

    assert operations >= 8
    assert failures == {}, _report(failures)


def _random_seed() -> int:
    """The wide run's seed: TALENTDB_FUZZ_SEED when set (a replay), else a new one; printed either way."""
    chosen = int(os.environ.get(SEED_VARIABLE) or secrets.randbits(32))
    print(f"\nAPI schema fuzzing, seed {chosen}: replay with {SEED_VARIABLE}={chosen} make reliability")
    return chosen


@pytest.mark.reliability
@pytest.mark.parametrize(
    ("mode", "checks"),
    [(GenerationMode.POSITIVE, CHECKS), (GenerationMode.NEGATIVE, [not_a_server_error])],
    ids=["valid", "invalid"],
)
def test_a_wider_random_run_finds_no_server_error_and_prints_its_seed(api_schema, fuzzing_token, mode, checks):
    random_seed = _random_seed()

    operations, failures = fuzz(
        api_schema, fuzzing_token, mode, checks, examples=WIDE_EXAMPLES, random_seed=random_seed
    )

    assert operations >= 8
    assert failures == {}, (
        f"seed {random_seed} (replay: {SEED_VARIABLE}={random_seed} make reliability)\n\n{_report(failures)}"
    )
