"""Import monitoring: the upload form, batches with progress, stored files with their errors and text."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from profiles.models import Candidate
from tests.fixtures import PROGAI_DIR

pytestmark = pytest.mark.django_db
UPLOAD = reverse("admin:ingestion_importbatch_add")


def upload(client, *files: tuple[str, bytes], label: str = ""):
    return client.post(UPLOAD, {"files": [SimpleUploadedFile(name, data) for name, data in files], "label": label})


def test_an_upload_of_several_files_creates_a_batch_and_queues_it(
    recruiter_client, recruiter, django_capture_on_commit_callbacks
):
    profile = (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()

    with django_capture_on_commit_callbacks() as queued:
        response = upload(recruiter_client, ("ingrid-valtonen.txt", profile), ("empty.txt", b""), label="Meetup")

    batch = ImportBatch.objects.get()
    assert response.status_code == 302
    assert response["Location"].endswith(f"/importbatch/{batch.pk}/change/")
    assert (batch.origin, batch.label, batch.created_by, batch.total_files) == ("admin", "Meetup", recruiter, 2)
    assert sorted(batch.files.values_list("original_name", "status")) == [
        ("empty.txt", "pending"),
        ("ingrid-valtonen.txt", "pending"),
    ]
    assert len(queued) == 1  # sent to the workers once the files are committed


def test_the_batch_page_shows_progress_and_the_json_endpoint_follows_the_import(recruiter_client):
    profile = (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()
    upload(recruiter_client, ("ingrid-valtonen.txt", profile), ("empty.txt", b""))
    batch = ImportBatch.objects.get()
    progress_url = reverse("admin:ingestion_importbatch_progress", args=[batch.pk])

    before = recruiter_client.get(progress_url).json()
    page = recruiter_client.get(reverse("admin:ingestion_importbatch_change", args=[batch.pk])).content.decode()
    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="test")  # the worker
    after = recruiter_client.get(progress_url).json()
    listing = recruiter_client.get(reverse("admin:ingestion_importbatch_changelist")).content.decode()

    assert (before["percent"], before["finished"]) == (0, False)
    assert f'data-progress-url="{progress_url}"' in page
    assert 'data-finished="0"' in page
    assert (after["percent"], after["processed"], after["failed"], after["finished"]) == (100, 2, 1, True)
    assert '<b class="batch-progress-percent">100 %</b>' in listing
    assert Candidate.objects.filter(name__icontains="Valtonen").exists()


def test_the_batch_list_shows_the_figures_of_batch_progress_without_reading_every_file(recruiter_client):
    batch = services.batch_create(origin="cli")
    files = [("broken.txt", b"\x00\x01"), ("later.txt", b"\x00\x02"), ("again.txt", b"\x00\x01")]
    services.batch_receive(batch=batch, files=[services.IncomingFile(n, d) for n, d in files], enqueue=False)
    services.source_files_import(file_ids=[batch.files.get(original_name="broken.txt").pk], token="t")

    listing = recruiter_client.get(reverse("admin:ingestion_importbatch_changelist")).content.decode()

    progress = services.batch_progress(batch=ImportBatch.objects.get(pk=batch.pk))
    assert (progress["processed"], progress["total"], progress["failed"], progress["percent"]) == (2, 3, 1, 67)
    assert '<b class="batch-progress-percent">67 %</b>' in listing
    assert '<span class="batch-progress-processed">2</span> of 3 files' in listing
    assert '<span class="batch-progress-failed">1</span> failed, running…' in listing


def test_the_progress_endpoint_is_for_staff_only(client, db):
    batch = services.batch_create(origin="cli")

    response = client.get(reverse("admin:ingestion_importbatch_progress", args=[batch.pk]))

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_an_upload_without_files_is_explained(recruiter_client):
    response = recruiter_client.post(UPLOAD, {"label": "nothing"})

    assert "Choose at least one profile file." in response.content.decode()
    assert not ImportBatch.objects.exists()


def test_a_viewer_cannot_upload(viewer_client):
    assert viewer_client.get(UPLOAD).status_code == 403
    assert upload(viewer_client, ("a.txt", b"x")).status_code == 403
    assert not ImportBatch.objects.exists()


def test_a_broken_file_uploaded_again_is_listed_as_failed_on_the_batch_page_linked_to_the_stored_copy(
    recruiter_client,
):
    """Listed as the stored copy is named, with its error: what an erasure of the person withholds."""
    upload(recruiter_client, ("empty.txt", b""))
    first = ImportBatch.objects.get()
    services.source_files_import(file_ids=list(first.files.values_list("pk", flat=True)), token="test")
    stored = first.files.get()

    upload(recruiter_client, ("empty-again.txt", b""))
    again = ImportBatch.objects.exclude(pk=first.pk).get()
    progress = recruiter_client.get(reverse("admin:ingestion_importbatch_progress", args=[again.pk])).json()
    page = recruiter_client.get(reverse("admin:ingestion_importbatch_change", args=[again.pk])).content.decode()

    stored_url = reverse("admin:ingestion_sourcefile_change", args=[stored.pk])
    assert (progress["failed"], progress["unchanged"], progress["percent"]) == (1, 0, 100)
    assert progress["failed_files"] == [{"name": "empty.txt", "url": stored_url, "error": stored.error}]
    assert f"<li><a href='{stored_url}'>empty.txt</a>: {stored.error}</li>" in page
    assert "empty-again.txt" not in page  # the name it came under is not kept


@pytest.fixture
def failed_file():
    batch = services.batch_create(origin="cli")
    services.batch_receive(
        batch=batch, files=[services.IncomingFile("<img src=x onerror=alert(1)>.txt", b"<b>hi</b>")], enqueue=False
    )
    source = SourceFile.objects.get()
    services.source_files_import(file_ids=[source.pk], token="t")
    source.refresh_from_db()
    assert source.status == "failed"
    return source


def test_a_failed_file_shows_its_error_in_plain_words_and_its_text_escaped(recruiter_client, failed_file):
    html = recruiter_client.get(reverse("admin:ingestion_sourcefile_change", args=[failed_file.pk])).content.decode()

    assert failed_file.error
    assert failed_file.error in html.replace("&#x27;", "'").replace("&quot;", '"')
    assert "&lt;b&gt;hi&lt;/b&gt;" in html
    assert "<b>hi</b>" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;.txt" in html


def test_source_files_filter_by_status_and_format(recruiter_client, failed_file):
    url = reverse("admin:ingestion_sourcefile_changelist")

    failed = recruiter_client.get(url, {"status__exact": "failed"}).context["cl"].result_list
    imported = recruiter_client.get(url, {"status__exact": "imported"}).context["cl"].result_list
    unknown = recruiter_client.get(url, {"format__exact": "unknown"}).context["cl"].result_list
    of_batch = recruiter_client.get(url, {"batch__id__exact": failed_file.batch_id}).context["cl"].result_list

    assert [f.pk for f in failed] == [failed_file.pk] == [f.pk for f in unknown] == [f.pk for f in of_batch]
    assert list(imported) == []


@pytest.mark.parametrize("action", ["reparse_failed", "reimport"])
def test_re_parse_and_re_import_queue_the_file_again(
    recruiter_client, failed_file, action, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as queued:
        response = recruiter_client.post(
            reverse("admin:ingestion_sourcefile_changelist"), {"action": action, ACTION_CHECKBOX_NAME: [failed_file.pk]}
        )

    failed_file.refresh_from_db()
    assert response.status_code == 302
    assert (failed_file.status, failed_file.error) == ("pending", "")
    assert len(queued) == 1


def test_nobody_but_a_superuser_deletes_source_files(recruiter_client, viewer_client, failed_file):
    for client in (recruiter_client, viewer_client):
        url = reverse("admin:ingestion_sourcefile_delete", args=[failed_file.pk])
        assert client.post(url, {"post": "yes"}).status_code == 403
    assert SourceFile.objects.filter(pk=failed_file.pk).exists()


def test_the_batch_page_lists_the_files_that_imported_with_warnings_and_the_file_list_filters_them(recruiter_client):
    """Issue 14, done when: warnings are shown on the source file and in the batch detail."""
    from tests.fixtures import JSONRESUME_DIR

    warned = (JSONRESUME_DIR / "work" / "jonas-breit.no-current-job.json").read_bytes()
    clean = (JSONRESUME_DIR / "tove-lindqvist.complete.json").read_bytes()
    upload(recruiter_client, ("jonas.json", warned), ("tove.json", clean))
    batch = ImportBatch.objects.get()
    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="test")
    jonas = SourceFile.objects.get(original_name="jonas.json")
    assert jonas.status == SourceFile.Status.IMPORTED
    assert any("Copperleaf" in w for w in jonas.warnings)

    page = recruiter_client.get(reverse("admin:ingestion_importbatch_change", args=[batch.pk])).content.decode()
    file_page = recruiter_client.get(reverse("admin:ingestion_sourcefile_change", args=[jonas.pk])).content.decode()
    listing = reverse("admin:ingestion_sourcefile_changelist")
    with_warnings = recruiter_client.get(listing, {"batch__id__exact": batch.pk, "warnings": "yes"}).context["cl"]
    without = recruiter_client.get(listing, {"batch__id__exact": batch.pk, "warnings": "no"}).context["cl"]

    assert "Files with warnings" in page
    assert "1 file imported with warnings" in page
    assert "jonas.json" in page
    assert "Copperleaf" in page  # the warning itself, in words
    assert "Copperleaf" in file_page
    assert [f.original_name for f in with_warnings.result_list] == ["jonas.json"]
    assert [f.original_name for f in without.result_list] == ["tove.json"]


def test_the_stored_text_page_writes_the_size_as_the_rest_of_the_product_does(recruiter_client):
    batch = services.batch_create(origin="cli")
    services.batch_receive(batch=batch, files=[services.IncomingFile("big.txt", b"x" * 3000)], enqueue=False)
    source = SourceFile.objects.get()

    html = recruiter_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()

    assert "2.9 KiB" in html
    assert "KB" not in html
