"""A batch's page and the dashboard's failed files: nothing that misleads or endangers. No button deletes the record
of what arrived, "View site" leads to the recruiting desk, the figures agree with the files listed while the batch
runs, and a file withheld after an erasure is no failure to look at."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse

from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from ingestion.privacy import source_files_withhold

pytestmark = pytest.mark.django_db
BROKEN = b"<b>no profile here</b>"


def batch_page(client, batch: ImportBatch) -> str:
    response = client.get(reverse("admin:ingestion_importbatch_change", args=[batch.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def running_batch() -> ImportBatch:
    """Three files received: one has failed, two are still waiting for a worker."""
    batch = services.batch_create(origin="cli")
    files = [services.IncomingFile(f"file-{n}.txt", BROKEN + bytes([n])) for n in range(3)]
    services.batch_receive(batch=batch, files=files, enqueue=False)
    first = batch.files.order_by("id").first()
    services.source_files_import(file_ids=[first.pk], token="t")
    assert SourceFile.objects.get(pk=first.pk).status == SourceFile.Status.FAILED
    return ImportBatch.objects.get(pk=batch.pk)


def test_a_batch_page_has_no_delete_button_even_for_a_superuser(admin_client, running_batch):
    html = batch_page(admin_client, running_batch)
    delete = admin_client.get(reverse("admin:ingestion_importbatch_delete", args=[running_batch.pk]))
    listing = admin_client.get(reverse("admin:ingestion_importbatch_changelist")).content.decode()

    assert "deletelink" not in html
    assert delete.status_code == 403
    assert "delete_selected" not in listing
    assert ImportBatch.objects.filter(pk=running_batch.pk).exists()


def test_view_site_leads_to_the_recruiting_desk(recruiter_client, running_batch):
    html = batch_page(recruiter_client, running_batch)
    view_site = html.split("View site", 1)[0].rsplit('href="', 1)[1].split('"', 1)[0]

    response = recruiter_client.get(view_site, follow=True)

    assert response.status_code == 200
    assert response.request["PATH_INFO"] == reverse("admin:index")


def test_a_running_batch_counts_the_failed_file_it_lists(recruiter_client, running_batch):
    html = batch_page(recruiter_client, running_batch)
    progress = recruiter_client.get(reverse("admin:ingestion_importbatch_progress", args=[running_batch.pk])).json()

    assert '<span class="batch-progress-failed">1</span> failed, running…' in html
    assert "file-0.txt</a>" in html
    assert (progress["failed"], progress["pending"], progress["finished"]) == (1, 2, False)
    assert [f["name"] for f in progress["failed_files"]] == ["file-0.txt"]


def test_a_file_failing_while_the_page_is_drawn_is_counted_as_it_is_listed(recruiter_client, running_batch):
    """A worker finishes a file between the page's first read of the files and the next: the figure and the list
    still come from one read."""
    second = running_batch.files.order_by("id")[1]
    finished = []

    def worker_finishes_a_file(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if "ingestion_sourcefile" in sql and not finished:
            finished.append(sql)
            SourceFile.objects.filter(pk=second.pk).update(status=SourceFile.Status.FAILED, error="Not a profile.")
        return result

    with connection.execute_wrapper(worker_finishes_a_file):
        html = batch_page(recruiter_client, running_batch)

    figure = int(re.search(r'<span class="batch-progress-failed">(\d+)</span>', html).group(1))
    listed = html.split('class="batch-failed-files"', 1)[1].split("</div>", 1)[0].count("<li>")
    assert finished
    assert figure == listed


def test_a_batch_without_a_label_is_labelled_by_its_source_size_and_time_not_its_file_names(recruiter_client):
    recruiter_client.post(
        reverse("admin:ingestion_importbatch_add"),
        {"files": [SimpleUploadedFile(f"Jane Roe {n}.txt", BROKEN + bytes([n])) for n in range(3)], "label": ""},
    )

    label = ImportBatch.objects.get().label
    assert label.startswith("Upload of 3 files, ")
    assert "Roe" not in label


def test_the_dashboard_leaves_out_files_withheld_after_an_erasure(recruiter_client, running_batch):
    services.source_files_import(file_ids=list(running_batch.files.values_list("pk", flat=True)), token="t")
    erased, *_ = running_batch.files.order_by("id")
    source_files_withhold(file_ids=[erased.pk], error="Erased at the person's request.", new_sha=True)

    html = recruiter_client.get(reverse("admin:index")).content.decode()

    assert "Failed files that need a look (2)" in html
    assert "(withheld: an erased person)" not in html
    assert "file-1.txt" in html
