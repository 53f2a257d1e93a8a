"""The batch page's live fields: the progress JSON carries what the page shows of a finished batch (when it finished,
which files failed), so the page's script can update them with the bar instead of waiting for a reload."""

import pytest
from django.urls import reverse
from django.utils import formats, timezone

from ingestion import services
from ingestion.admin import ImportBatchAdmin
from ingestion.models import ImportBatch, SourceFile

pytestmark = pytest.mark.django_db

HOSTILE_NAME = "<img src=x onerror=alert(1)>.txt"


def batch_of(*files: tuple[str, bytes]) -> ImportBatch:
    batch = services.batch_create(origin="cli")
    services.batch_receive(batch=batch, files=[services.IncomingFile(n, d) for n, d in files], enqueue=False)
    return ImportBatch.objects.get(pk=batch.pk)


def import_all(batch: ImportBatch) -> None:
    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="test")  # the worker


def progress_json(client, batch: ImportBatch) -> dict:
    return client.get(reverse("admin:ingestion_importbatch_progress", args=[batch.pk])).json()


def test_a_running_batch_has_no_finish_time_and_no_failed_files_yet(recruiter_client):
    batch = batch_of(("broken.txt", b"\x00\x01"))

    progress = progress_json(recruiter_client, batch)

    assert progress["finished"] is False
    assert progress["finished_at"] == "-"  # the admin's empty value, as the page shows it
    assert progress["failed_files"] == []


def test_a_finished_batch_reports_its_finish_time_as_the_batch_page_shows_it(recruiter_client):
    batch = batch_of(("broken.txt", b"\x00\x01"))
    import_all(batch)
    batch.refresh_from_db()

    progress = progress_json(recruiter_client, batch)
    page = recruiter_client.get(reverse("admin:ingestion_importbatch_change", args=[batch.pk])).content.decode()

    assert batch.finished_at is not None
    assert progress["finished_at"] == formats.localize(timezone.localtime(batch.finished_at))
    assert f'<span class="batch-finished-at">{progress["finished_at"]}</span>' in page


def test_the_failed_files_come_with_their_link_and_error_and_the_page_lists_the_same(recruiter_client):
    batch = batch_of((HOSTILE_NAME, b"<b>hi</b>"), ("empty.txt", b""))
    import_all(batch)
    failed = {f.original_name: f for f in SourceFile.objects.filter(status="failed")}

    progress = progress_json(recruiter_client, batch)
    page = recruiter_client.get(reverse("admin:ingestion_importbatch_change", args=[batch.pk])).content.decode()

    assert progress["failed"] == 2
    assert sorted(progress["failed_files"], key=lambda f: f["name"]) == [
        {
            "name": name,
            "url": reverse("admin:ingestion_sourcefile_change", args=[failed[name].pk]),
            "error": failed[name].error,
        }
        for name in sorted(failed)
    ]
    assert all(f["error"] for f in progress["failed_files"])
    assert '<div class="batch-failed-files">' in page
    assert "&lt;img src=x onerror=alert(1)&gt;.txt" in page
    assert HOSTILE_NAME not in page


def test_the_failed_files_are_bounded_and_the_page_says_how_many_it_shows(recruiter_client, monkeypatch):
    monkeypatch.setattr(ImportBatchAdmin, "FAILED_FILES_SHOWN", 2)
    batch = batch_of(("a.txt", b"\x00\x01"), ("b.txt", b"\x00\x02"), ("c.txt", b"\x00\x03"))
    import_all(batch)

    progress = progress_json(recruiter_client, batch)
    page = recruiter_client.get(reverse("admin:ingestion_importbatch_change", args=[batch.pk])).content.decode()

    assert progress["failed"] == 3
    assert [f["name"] for f in progress["failed_files"]] == ["a.txt", "b.txt"]  # the first ones, in arrival order
    assert "3 files failed (the first 2 below)" in page
    assert "c.txt" not in page.split('<div class="batch-failed-files">')[1].split("</div>")[0]


def test_a_batch_without_failures_says_none_on_the_page(recruiter_client):
    batch = batch_of()

    page = recruiter_client.get(reverse("admin:ingestion_importbatch_change", args=[batch.pk])).content.decode()

    assert '<div class="batch-failed-files">None.</div>' in page


def test_the_batch_list_marks_each_rows_finish_time_for_the_script(recruiter_client):
    batch = batch_of(("broken.txt", b"\x00\x01"))
    import_all(batch)
    batch.refresh_from_db()

    listing = recruiter_client.get(reverse("admin:ingestion_importbatch_changelist")).content.decode()

    shown = formats.localize(timezone.localtime(batch.finished_at))
    assert f'<span class="batch-finished-at">{shown}</span>' in listing


def test_the_page_script_carries_the_nonce_and_never_writes_html(recruiter_client):
    batch = batch_of(("broken.txt", b"\x00\x01"))

    response = recruiter_client.get(reverse("admin:ingestion_importbatch_change", args=[batch.pk]))
    page = response.content.decode()

    nonce = response.wsgi_request.csp_nonce
    assert f'<script nonce="{nonce}">' in page
    script = page.split(f'<script nonce="{nonce}">')[-1].split("</script>")[0]
    assert "batch-failed-files" in script
    assert "innerHTML" not in script
    assert "textContent" in script
