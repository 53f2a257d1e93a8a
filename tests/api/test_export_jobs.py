"""Export jobs through the API (issue 15, holes 4 and 5): POST /api/v1/exports/ writes the whole file in a Celery job,
a user reads only their own, the streamed exports refuse what they could not finish, and a user runs at most
EXPORT_MAX_CONCURRENT exports at a time."""

import base64
import hashlib
import json

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from exports import services
from exports.models import Export
from profiles.models import Skill
from tests.factories import CandidateFactory, CandidateSkillFactory, ContributionFactory, EducationFactory, UserFactory

pytestmark = pytest.mark.django_db
LIST_URL = "/api/v1/exports/"
CSV_URL = "/api/v1/candidates/export.csv"
JSONL_URL = "/api/v1/candidates/export.jsonl"


@pytest.fixture(autouse=True)
def _export_storage(export_storage):
    return export_storage


def exporter_named(username: str):
    user = UserFactory(username=username)
    user.user_permissions.add(Permission.objects.get(codename="add_export", content_type__app_label="exports"))
    return user


def client_of(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def exporter(db):
    return exporter_named("exporter")


@pytest.fixture
def export_api(exporter) -> APIClient:
    return client_of(exporter)


@pytest.fixture
def pythonistas(db) -> list:
    python = Skill.objects.get(slug="python")
    people = [CandidateFactory(name=f"Py {i}") for i in range(3)]
    for person in people:
        CandidateSkillFactory(candidate=person, skill=python, score=9)
        EducationFactory(candidate=person)
        ContributionFactory(candidate=person)
    CandidateFactory(name="Not a pythonista")
    return people


def run_job(export_id: int) -> Export:
    """What the worker does with the task's message (tests/exports/test_tasks.py runs a real worker)."""
    services.export_run(export_id=export_id)
    return Export.objects.get(pk=export_id)


def test_issue_15_hole_4_a_search_too_large_to_stream_is_refused_with_a_400_that_points_at_export_jobs(
    api, export_api, pythonistas, settings
):
    settings.EXPORT_STREAM_MAX_ROWS = 3

    for url in (CSV_URL, JSONL_URL):
        response = export_api.get(url)  # 4 candidates
        assert response.status_code == 400, url
        error = response.json()["error"]
        assert error["code"] == "too_many_rows"
        assert "more than 3 candidates" in error["message"]
        assert "POST /api/v1/exports/" in error["message"]
        # A reader without the export permission gets a 403 there: they are told to narrow the search instead.
        reader = api.get(url).json()["error"]
        assert reader["code"] == "too_many_rows"
        assert "narrow the search" in reader["message"]
        assert "/api/v1/exports/" not in reader["message"]

        streamed = api.get(url, {"skill": "python:8"})  # 3: still streamed, whole
        assert streamed.status_code == 200
        lines = b"".join(streamed.streaming_content).decode().splitlines()
        assert len(lines) == (4 if url == CSV_URL else 3)


def test_issue_15_hole_4_an_export_job_writes_every_matching_row_and_the_owner_downloads_it_whole(
    api, export_api, pythonistas
):
    response = export_api.post(LIST_URL, {"format": "jsonl", "query": "skill=python:8"}, format="json")

    assert response.status_code == 202, response.json()
    body = response.json()
    assert body["status"] == "queued"
    assert response["Location"].endswith(reverse("api:export-detail", args=[body["id"]]))
    assert body["download_url"] is None

    export = run_job(body["id"])

    detail = export_api.get(response["Location"]).json()
    assert detail["status"] == "done"
    assert detail["rows_total"] == detail["rows_written"] == 3
    assert detail["progress"] == 100
    assert detail["file_size"] == export.file_size
    download = export_api.get(detail["download_url"])
    assert download.status_code == 200
    content = b"".join(download.streaming_content)
    assert int(download["Content-Length"]) == len(content) == detail["file_size"]
    assert hashlib.sha256(content).hexdigest() == detail["file_sha256"]
    assert download["Repr-Digest"] == f"sha-256=:{base64.b64encode(hashlib.sha256(content).digest()).decode()}:"
    assert 'filename="candidates-' in download["Content-Disposition"]
    rows = [json.loads(line) for line in content.decode().splitlines()]
    assert sorted(row["id"] for row in rows) == sorted(p.pk for p in pythonistas)
    # Byte for byte what the streamed export of the same search gives (the same row writer).
    assert content == b"".join(api.get(JSONL_URL, {"skill": "python:8"}).streaming_content)


def test_issue_15_hole_4_a_csv_job_links_each_row_to_the_api_and_counts_rows_without_the_header(
    api, export_api, pythonistas
):
    body = export_api.post(LIST_URL, {"format": "csv", "query": ""}, format="json").json()

    export = run_job(body["id"])

    assert export.rows_written == 4
    content = b"".join(export_api.get(reverse("api:export-download", args=[export.pk])).streaming_content)
    lines = content.decode().splitlines()
    assert lines[0].startswith("id,name,")
    assert len(lines) == 5
    assert f"/api/v1/candidates/{pythonistas[0].pk}/" in content.decode()
    assert content == b"".join(api.get(CSV_URL).streaming_content)  # the stream's bytes, header included


def test_issue_15_hole_4_a_failed_job_says_why_and_an_expired_one_is_gone(export_api, pythonistas):
    failed, expired = (export_api.post(LIST_URL, {"format": "csv"}, format="json").json() for _ in range(2))
    Export.objects.filter(pk=failed["id"]).update(status=Export.Status.FAILED, error="The export failed (Boom).")
    run_job(expired["id"])
    Export.objects.filter(pk=expired["id"]).update(expires_at=timezone.now())
    services.exports_sweep()

    refused = export_api.get(reverse("api:export-download", args=[failed["id"]]))
    assert refused.status_code == 409
    assert refused.json()["error"]["message"] == "The export job failed, so it has no file: The export failed (Boom)."
    gone = export_api.get(reverse("api:export-download", args=[expired["id"]]))
    assert gone.status_code == 410
    assert gone.json()["error"]["code"] == "expired"
    assert export_api.get(reverse("api:export-detail", args=[expired["id"]])).json()["status"] == "expired"


def test_issue_15_hole_4_the_download_is_a_409_until_the_job_is_done(export_api, pythonistas):
    body = export_api.post(LIST_URL, {"format": "csv"}, format="json").json()

    response = export_api.get(reverse("api:export-download", args=[body["id"]]))

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_ready"
    assert "queued" in response.json()["error"]["message"]


def test_issue_15_hole_4_a_user_reads_only_their_own_exports(export_api, pythonistas):
    theirs = export_api.post(LIST_URL, {"format": "csv"}, format="json").json()
    run_job(theirs["id"])
    other = client_of(exporter_named("other"))

    assert other.get(reverse("api:export-detail", args=[theirs["id"]])).status_code == 404
    assert other.get(reverse("api:export-download", args=[theirs["id"]])).status_code == 404
    assert other.get(LIST_URL).json()["results"] == []
    [listed] = export_api.get(LIST_URL).json()["results"]
    assert listed["id"] == theirs["id"]
    assert listed["status"] == "done"


def test_issue_15_hole_4_the_query_is_validated_with_the_list_filters(export_api):
    response = export_api.post(LIST_URL, {"format": "csv", "query": "skill=python:eleven"}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("query: skill:")
    assert not Export.objects.exists()

    response = export_api.post(LIST_URL, {"format": "xlsx"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("format:")


def test_issue_15_hole_4_starting_an_export_job_needs_the_export_permission(api):
    response = api.post(LIST_URL, {"format": "csv"}, format="json")

    assert response.status_code == 403
    assert "exports.add_export" in response.json()["error"]["message"]
    assert not Export.objects.exists()


def test_issue_15_hole_5_a_third_concurrent_export_is_a_429_saying_how_many_are_running(
    export_api, exporter, pythonistas, settings
):
    settings.EXPORT_MAX_CONCURRENT = 2
    export_api.post(LIST_URL, {"format": "csv"}, format="json")
    export_api.post(LIST_URL, {"format": "jsonl"}, format="json")

    refused = [
        export_api.post(LIST_URL, {"format": "csv"}, format="json"),
        export_api.get(CSV_URL),
        export_api.get(JSONL_URL),
    ]

    for response in refused:
        assert response.status_code == 429
        error = response.json()["error"]
        assert error["code"] == "too_many_exports"
        assert "2 exports running" in error["message"]
        assert "at most 2 at a time" in error["message"]
    assert Export.objects.filter(owner=exporter).count() == 2
    # Another user's budget is their own.
    assert client_of(exporter_named("other")).get(CSV_URL).status_code == 200


def test_issue_15_hole_5_a_streamed_export_holds_a_slot_until_its_response_is_closed(
    export_api, exporter, pythonistas, settings
):
    settings.EXPORT_MAX_CONCURRENT = 1

    streaming = export_api.get(JSONL_URL)
    assert streaming.status_code == 200
    assert services.export_streams_running(user=exporter) == 1
    assert export_api.get(CSV_URL).status_code == 429
    assert export_api.post(LIST_URL, {"format": "csv"}, format="json").status_code == 429

    # The test client closes the response once its body is read, as a WSGI server does once it is sent.
    b"".join(streaming.streaming_content)

    assert services.export_streams_running(user=exporter) == 0
    assert export_api.get(CSV_URL).status_code == 200
