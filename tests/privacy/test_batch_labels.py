"""A batch's label names nobody unless someone typed it: by default it says where the files came from, how many and
when ("Upload of 3 files, 2 Dec 10:42"), never their names, which are often the people's. Labels the product made of
file names before are replaced by migration ``ingestion 0005``."""

import importlib

import pytest
from django.apps import apps as django_apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from ingestion import services
from ingestion.models import ImportBatch
from tests.factories import ImportBatchFactory, SourceFileFactory
from tests.privacy.people import OTHER_FILE, TOVE_FILE

pytestmark = pytest.mark.django_db

LABELS_MIGRATION = "ingestion.migrations.0005_batch_labels_without_file_names"


def _when(batch: ImportBatch) -> str:
    at = timezone.localtime(batch.created_at)
    return f"{at.day} {at:%b %H:%M}"


def test_an_upload_without_a_label_is_labelled_with_its_size_and_time_not_its_file_names(admin_client):
    files = [SimpleUploadedFile(path.name, path.read_bytes()) for path in (TOVE_FILE, OTHER_FILE)]
    files.append(SimpleUploadedFile("pia-solberg.json", b"{}"))

    admin_client.post(reverse("admin:ingestion_importbatch_add"), {"files": files, "label": ""})

    batch = ImportBatch.objects.get()
    assert batch.label == f"Upload of 3 files, {_when(batch)}"


def test_a_typed_label_stays_as_typed(admin_client):
    upload = SimpleUploadedFile(TOVE_FILE.name, TOVE_FILE.read_bytes())

    admin_client.post(reverse("admin:ingestion_importbatch_add"), {"files": [upload], "label": "Meetup in Malmö"})

    assert ImportBatch.objects.get().label == "Meetup in Malmö"


def test_the_command_line_labels_its_batch_without_the_paths(tmp_path):
    for path in (TOVE_FILE, OTHER_FILE):
        (tmp_path / path.name).write_bytes(path.read_bytes())

    call_command("ingest", "--sync", "--no-progress", str(tmp_path / TOVE_FILE.name), str(tmp_path / OTHER_FILE.name))

    batch = ImportBatch.objects.get()
    assert batch.label == f"Command-line import of 2 files, {_when(batch)}"


def test_the_inbox_labels_its_batch_without_the_folder_or_the_names(tmp_path, settings):
    settings.INGEST_INBOX = tmp_path
    (tmp_path / TOVE_FILE.name).write_bytes(TOVE_FILE.read_bytes())

    batch = services.inbox_scan()

    assert batch.label == f"Inbox scan of 1 file, {_when(batch)}"


def test_the_migration_replaces_the_labels_the_product_made_of_file_names_and_keeps_typed_ones():
    made = ImportBatchFactory(origin=ImportBatch.Origin.ADMIN, total_files=4)
    for name in ("tove-lindqvist.json", "noor-rahimi.json", "pia-solberg.json", "ada-quux.json"):
        SourceFileFactory(batch=made, original_name=name)
    ImportBatch.objects.filter(pk=made.pk).update(label="tove-lindqvist.json, noor-rahimi.json, pia-solberg.json…")
    two = ImportBatchFactory(origin=ImportBatch.Origin.ADMIN, label="tove-lindqvist.json, noor-rahimi.json")
    for name in ("tove-lindqvist.json", "noor-rahimi.json"):
        SourceFileFactory(batch=two, original_name=name)
    ImportBatch.objects.filter(pk=two.pk).update(total_files=2)
    typed = ImportBatchFactory(origin=ImportBatch.Origin.ADMIN, label="tove-lindqvist.json from Rita")
    SourceFileFactory(batch=typed, original_name="tove-lindqvist.json")
    command_line = ImportBatchFactory(origin=ImportBatch.Origin.CLI, label="/home/rita/cvs/tove-lindqvist.json")
    ImportBatch.objects.filter(pk=command_line.pk).update(total_files=1)
    inbox = ImportBatchFactory(origin=ImportBatch.Origin.INBOX, label="/data/inbox")
    withheld = ImportBatchFactory(origin=ImportBatch.Origin.CLI, label="(label withheld after an erasure)")

    importlib.import_module(LABELS_MIGRATION).labels_without_file_names(django_apps, None)

    labels = {batch.pk: batch.label for batch in ImportBatch.objects.all()}
    made.refresh_from_db()
    assert labels[made.pk] == f"Upload of 4 files, {_when(made)}"
    assert labels[two.pk] == f"Upload of 2 files, {_when(two)}"
    assert labels[typed.pk] == "tove-lindqvist.json from Rita"
    assert labels[command_line.pk] == f"Command-line import of 1 file, {_when(command_line)}"
    assert labels[inbox.pk] == "/data/inbox"
    assert labels[withheld.pk] == "(label withheld after an erasure)"
