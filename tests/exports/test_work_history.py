"""Issue 14: every way out of TalentDB carries the whole candidate. A file imported end to end is exported by the
API's streams, by an export job and by the admin's CSV action: the CSV with its current and previous companies, the
JSON Lines with the work history newest first, the spoken languages and the study months."""

import csv
import io
import json

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.files.storage import storages
from django.urls import reverse
from rest_framework.test import APIClient

from exports.models import Export
from exports.services import export_create, export_run
from ingestion.models import SourceFile
from profiles.models import Candidate
from tests.factories import UserFactory
from tests.fixtures import JSONRESUME_DIR
from tests.ingestion.imports import import_all, receive

pytestmark = pytest.mark.django_db

ILSE = JSONRESUME_DIR / "ilse-marchetti.work-history.json"  # five jobs, two open-ended; Lanternfish twice
CURRENT = "Northwind Labs; Salina Bikes"
PREVIOUS = "Lanternfish GmbH; Trattoria Digitale"


@pytest.fixture
def ilse() -> Candidate:
    batch = receive((ILSE.name, ILSE.read_bytes()))
    import_all(batch)
    source = SourceFile.objects.get(batch=batch)
    assert source.status == SourceFile.Status.IMPORTED, source.error
    return source.candidate


@pytest.fixture
def api(db) -> APIClient:
    client = APIClient()
    client.force_authenticate(UserFactory(username="reader"))
    return client


def csv_rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def jsonl_rows(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def job_file(format: str) -> str:
    export = export_create(owner=UserFactory(username="owner"), format=format, query="", row_url="https://x/{pk}/")
    export = export_run(export_id=export.pk)
    assert export.status == Export.Status.DONE, export.error
    with storages["exports"].open(export.file_name, "rb") as file:
        return file.read().decode()


def assert_whole_candidate_json(row: dict) -> None:
    assert [(job["company"], job["start"], job["end"], job["current"]) for job in row["experience"]] == [
        ("Northwind Labs", "2021-03", None, True),
        ("Salina Bikes", "2019-06", None, True),
        ("Lanternfish GmbH", "2017-01", "2021-02", False),
        ("Lanternfish GmbH", "2015-01", "2016-12", False),
        ("Trattoria Digitale", "2014-06", "2014-09", False),
    ]
    assert row["experience"][0] == {
        "company": "Northwind Labs",
        "title": "Site Reliability Engineer",
        "location": "Bologna, Italy",
        "start": "2021-03",
        "end": None,
        "current": True,
        "summary": "Keeps the payment APIs up.",
    }
    assert all(set(language) == {"code", "name", "fluency"} for language in row["languages"])
    assert all({"start", "end"} <= set(school) for school in row["education"])


def test_the_csv_stream_names_the_current_and_previous_companies(api, ilse):
    response = api.get(reverse("api:candidate-export-csv"))

    [row] = csv_rows(b"".join(response.streaming_content).decode())
    assert (row["current_companies"], row["previous_companies"]) == (CURRENT, PREVIOUS)


def test_the_jsonl_stream_carries_the_work_history_newest_first(api, ilse):
    response = api.get(reverse("api:candidate-export-jsonl"))

    [row] = jsonl_rows(b"".join(response.streaming_content).decode())
    assert_whole_candidate_json(row)


def test_an_export_jobs_csv_names_the_current_and_previous_companies(ilse):
    [row] = csv_rows(job_file("csv"))

    assert (row["current_companies"], row["previous_companies"]) == (CURRENT, PREVIOUS)


def test_an_export_jobs_jsonl_carries_the_work_history_newest_first(ilse):
    [row] = jsonl_rows(job_file("jsonl"))

    assert_whole_candidate_json(row)


def test_the_admins_csv_action_names_the_current_and_previous_companies(admin_client, ilse):
    response = admin_client.post(
        reverse("admin:profiles_candidate_changelist"), {"action": "export_csv", ACTION_CHECKBOX_NAME: [ilse.pk]}
    )

    [row] = csv_rows(b"".join(response.streaming_content).decode())
    assert (row["current_companies"], row["previous_companies"]) == (CURRENT, PREVIOUS)
