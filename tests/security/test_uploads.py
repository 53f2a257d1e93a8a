"""Uploads: limits on size and count, formats sniffed from the bytes (never the name or the declared type), and file
names that stay labels, never paths."""

import json

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import models
from django.urls import reverse

from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from ingestion.parsers.registry import NO_FORMAT_BINARY
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PROFILE = "Ada Quill\nStaff Engineer at Inkwell\nLondon, England, United Kingdom\nSummary\nWrites compilers.\n"
RESUME = json.dumps({"basics": {"name": "Grace Byte", "label": "Engineer", "location": {"city": "Oslo"}}})
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4


@pytest.fixture
def importer_headers(token_of):
    user = UserFactory(username="uploader")
    user.user_permissions.add(Permission.objects.get(codename="add_importbatch", content_type__app_label="ingestion"))
    return {"HTTP_AUTHORIZATION": f"Token {token_of(user)}"}


def _upload(client, headers, *files):
    return client.post(reverse("api:import-list"), {"files": list(files)}, **headers)


def test_more_files_than_the_limit_are_refused_and_nothing_is_stored(client, importer_headers, settings):
    settings.INGEST_MAX_FILES_PER_UPLOAD = 3
    files = [SimpleUploadedFile(f"{i}.txt", PROFILE.replace("Ada", f"Ada{i}").encode()) for i in range(4)]

    response = _upload(client, importer_headers, *files)

    assert response.status_code == 400
    assert "at most 3" in response.json()["error"]["message"]
    assert not SourceFile.objects.exists()
    assert not ImportBatch.objects.exists()


def test_more_files_than_django_parses_are_refused_before_they_are_read(client, importer_headers, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 2
    files = [SimpleUploadedFile(f"{i}.txt", b"x") for i in range(3)]

    response = _upload(client, importer_headers, *files)

    assert response.status_code == 400
    assert response.json()["error"]["message"]
    assert not SourceFile.objects.exists()


def test_a_file_over_the_size_limit_is_refused_by_the_api(client, importer_headers, settings):
    settings.INGEST_MAX_FILE_BYTES = 1000

    response = _upload(client, importer_headers, SimpleUploadedFile("big.txt", b"a" * 1001))

    assert response.status_code == 400
    assert "big.txt" in response.json()["error"]["message"]
    assert not SourceFile.objects.exists()


def test_a_file_over_the_size_limit_that_arrives_another_way_is_stored_and_failed_with_a_message(settings):
    settings.INGEST_MAX_FILE_BYTES = 1000
    batch = services.batch_create(origin=ImportBatch.Origin.CLI)
    services.batch_receive(batch=batch, files=[services.IncomingFile("big.txt", PROFILE.encode() * 20)], enqueue=False)

    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="t")

    source = SourceFile.objects.get()
    assert source.size > 1000
    assert bytes(source.content) == PROFILE.encode() * 20
    assert source.status == "failed"
    assert "files up to" in source.error


def test_the_admin_upload_form_refuses_too_many_files(admin_client, settings):
    settings.INGEST_MAX_FILES_PER_UPLOAD = 2
    files = [SimpleUploadedFile(f"{i}.txt", f"{i}".encode()) for i in range(3)]

    response = admin_client.post(reverse("admin:ingestion_importbatch_add"), {"files": files})

    assert response.status_code == 200
    assert "3 files sent; at most 2 per upload." in response.content.decode()
    assert not SourceFile.objects.exists()


def test_formats_are_sniffed_from_the_bytes_not_the_name_or_the_declared_type(client, importer_headers):
    response = _upload(
        client,
        importer_headers,
        SimpleUploadedFile("photo.png", RESUME.encode(), content_type="image/png"),
        SimpleUploadedFile("profile.txt", PNG, content_type="text/plain"),
        SimpleUploadedFile("resume.json", PROFILE.encode(), content_type="application/json"),
        SimpleUploadedFile("page.html", b"<html><script>alert(1)</script></html>", content_type="text/html"),
    )
    assert response.status_code == 202, response.content
    formats = dict(SourceFile.objects.values_list("original_name", "format"))
    assert formats == {
        "photo.png": "jsonresume",
        "profile.txt": "unknown",
        "resume.json": "progai",
        "page.html": "unknown",
    }

    services.source_files_import(file_ids=list(SourceFile.objects.values_list("pk", flat=True)), token="t")

    outcome = dict(SourceFile.objects.values_list("original_name", "status"))
    assert outcome == {
        "photo.png": "imported",
        "profile.txt": "failed",
        "resume.json": "imported",
        "page.html": "failed",
    }
    assert SourceFile.objects.get(original_name="profile.txt").error == NO_FORMAT_BINARY


@pytest.mark.parametrize(
    ("sent", "stored"),
    [
        ("../../etc/passwd", "passwd"),
        ("..\\..\\windows\\win.ini", "win.ini"),
        ("/var/lib/postgresql/data/pg_hba.conf", "pg_hba.conf"),
        ("C:\\Users\\a\\profile.txt", "profile.txt"),
        ("..", "unnamed"),
        ("evil\r\nContent-Type: text/html.txt", "html.txt"),
        ("evil\r\nX-Injected: 1.txt", "evilX-Injected: 1.txt"),
        ("\u202egnp.exe", "gnp.exe"),
    ],
)
def test_file_names_are_kept_as_labels_and_never_become_paths(client, importer_headers, sent, stored, tmp_path):
    response = _upload(client, importer_headers, SimpleUploadedFile("placeholder.txt", PROFILE.encode()))
    assert response.status_code == 202
    batch = ImportBatch.objects.get()
    services.batch_receive(batch=batch, files=[services.IncomingFile(sent, PROFILE.encode() + b"\n\n")])

    assert set(SourceFile.objects.values_list("original_name", flat=True)) == {"placeholder.txt", stored}


def test_uploaded_names_from_a_multipart_request_lose_their_folders(client, importer_headers):
    upload = SimpleUploadedFile("x.txt", PROFILE.encode())
    upload.name = "../../../etc/cron.d/evil"  # what a hand-made multipart body can claim

    response = _upload(client, importer_headers, upload)

    assert response.status_code == 202
    assert SourceFile.objects.get().original_name == "evil"


def test_no_model_keeps_a_file_on_disk():
    """Stored files live in the database (bytes and sha256); no upload name can ever reach the file system."""
    file_fields = [
        f"{model._meta.label}.{field.name}"
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if isinstance(field, models.FileField)
    ]
    assert file_fields == []


def test_the_admin_upload_refuses_a_file_over_the_size_limit_with_the_apis_words(
    admin_client, client, importer_headers, settings
):
    """Issue 15, hole 12: the admin upload skipped the per-file size limit that the API enforces (one function now)."""
    settings.INGEST_MAX_FILE_BYTES = 1000

    def files():
        return [SimpleUploadedFile("ok.txt", PROFILE.encode()), SimpleUploadedFile("big.txt", b"a" * 1001)]

    api = _upload(client, importer_headers, *files())
    admin = admin_client.post(reverse("admin:ingestion_importbatch_add"), {"files": files()})

    refusal = "big.txt is 1001 bytes; files up to 1000 bytes are accepted."
    assert api.status_code == 400
    assert api.json()["error"]["details"]["files"] == [refusal]
    assert admin.status_code == 200
    assert refusal in admin.content.decode()
    assert not SourceFile.objects.exists()
    assert not ImportBatch.objects.exists()
