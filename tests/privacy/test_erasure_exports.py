"""Erasure and export jobs (issue 18): a job that starts while the erasure is under way keeps no file of the
person."""

import json

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.utils import timezone

from exports import services as export_services
from exports.models import Export
from privacy.services import candidate_erase
from tests.ingestion.imports import import_file
from tests.privacy.people import OTHER_FILE, TOVE_FILE

pytestmark = pytest.mark.django_db


def test_an_export_claimed_after_the_erasure_step_and_before_its_commit_is_expired_or_queued_again(
    officer, recruiter, export_storage, django_capture_on_commit_callbacks
):
    """A worker claims a job while the erasure's transaction is still open: it reads the database as it was, the
    person included. Here the workers' state is written inside the erasure's transaction, after its steps ran: one
    job finished with a file holding her, one still writing."""
    tove = import_file(TOVE_FILE)
    finished = export_services.export_create(owner=recruiter, format="jsonl", query="", row_url="/c/{pk}")
    writing = export_services.export_create(owner=recruiter, format="csv", query="", row_url="/c/{pk}")

    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=tove, user=officer)
        now = timezone.now()
        name = storages["exports"].save(f"{finished.pk}/export.jsonl", ContentFile(b'{"name": "Tove Lindqvist"}\n'))
        Export.objects.filter(pk=finished.pk).update(
            status=Export.Status.DONE,
            started_at=now,
            finished_at=now,
            file_name=name,
            file_size=27,
            file_sha256="0" * 64,
            claim_token="",
        )
        Export.objects.filter(pk=writing.pk).update(status=Export.Status.RUNNING, started_at=now, claim_token="w")

    finished.refresh_from_db()
    writing.refresh_from_db()
    assert (finished.status, finished.file_name) == (Export.Status.EXPIRED, "")
    assert list(export_storage.rglob("*.jsonl")) == []
    assert (writing.status, writing.claim_token) == (Export.Status.QUEUED, "")


def run_export(owner, query: str = "") -> Export:
    return export_services.export_run(
        export_id=export_services.export_create(owner=owner, format="jsonl", query=query, row_url="/c/{pk}").pk
    )


def test_a_job_records_the_candidates_its_file_holds(recruiter, export_storage):
    tove, noor = import_file(TOVE_FILE), import_file(OTHER_FILE)

    export = run_export(recruiter)

    lines = (export_storage / export.file_name).read_text().splitlines()
    assert sorted(export.candidate_ids) == sorted([tove.pk, noor.pk])
    assert sorted(json.loads(line)["id"] for line in lines) == sorted(export.candidate_ids)


def test_an_erasure_expires_only_the_exports_that_hold_the_person(
    officer, recruiter, export_storage, django_capture_on_commit_callbacks
):
    tove, noor = import_file(TOVE_FILE), import_file(OTHER_FILE)
    with_her = run_export(recruiter)
    without_her = run_export(recruiter, query=f"q={noor.name.split()[0]}")
    unrecorded = run_export(recruiter, query=f"q={noor.name.split()[0]}")
    Export.objects.filter(pk=unrecorded.pk).update(candidate_ids=None)  # written before the records were kept
    assert without_her.candidate_ids == [noor.pk]

    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=tove, user=officer)

    for export in (with_her, without_her, unrecorded):
        export.refresh_from_db()
    assert (with_her.status, with_her.file_name) == (Export.Status.EXPIRED, "")
    assert (unrecorded.status, unrecorded.file_name) == (Export.Status.EXPIRED, "")
    assert without_her.status == Export.Status.DONE
    assert (export_storage / without_her.file_name).exists()
    assert not list(export_storage.rglob(f"{with_her.pk}/*"))
