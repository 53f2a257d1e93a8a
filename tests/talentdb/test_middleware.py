import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from core.text import human_size
from ingestion.models import ImportBatch, SourceFile
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def importer(client):
    from django.contrib.auth.models import Permission

    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_importbatch", content_type__app_label="ingestion"))
    client.force_login(user)
    return client


def test_an_api_upload_over_the_total_limit_is_refused_before_it_is_read(importer, settings):
    settings.INGEST_MAX_UPLOAD_BYTES = 4096
    files = [SimpleUploadedFile(f"p{i}.txt", b"x" * 2000) for i in range(3)]

    response = importer.post(reverse("api:import-list"), {"files": files})

    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    size = human_size(int(response.wsgi_request.META["CONTENT_LENGTH"]))
    assert response.json() == {
        "error": {
            "code": "request_too_large",
            "message": f"The upload is {size}; at most 4 KiB per request.",
            "details": {},
        }
    }
    assert not ImportBatch.objects.exists()
    assert not SourceFile.objects.exists()


def test_an_admin_upload_over_the_total_limit_is_refused(admin_client, settings):
    settings.INGEST_MAX_UPLOAD_BYTES = 4096
    files = [SimpleUploadedFile(f"p{i}.txt", b"x" * 2000) for i in range(3)]

    response = admin_client.post(reverse("admin:ingestion_importbatch_add"), {"files": files})

    assert response.status_code == 413
    assert b"per request" in response.content
    assert not SourceFile.objects.exists()


def test_uploads_under_the_limit_go_through(importer, settings):
    settings.INGEST_MAX_UPLOAD_BYTES = 1024 * 1024
    response = importer.post(reverse("api:import-list"), {"files": [SimpleUploadedFile("p.txt", b"hello")]})

    assert response.status_code == 202
    assert SourceFile.objects.get().size == 5


@pytest.mark.urls("tests.talentdb.slow_urls")
def test_issue_15_hole_5_an_api_request_stopped_by_the_statement_timeout_is_a_503_that_says_so(client, settings):
    settings.DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS = 30
    client.raise_request_exception = False

    response = client.get("/api/v1/slow/")

    assert response.status_code == 503
    assert response.json() == {
        "error": {
            "code": "statement_timeout",
            "message": "The request ran longer than the 30 s a request may take in the database, and was stopped. "
            "Narrow it down (more selective filters, a smaller page) and try again.",
            "details": {},
        }
    }


@pytest.mark.urls("tests.talentdb.slow_urls")
def test_issue_15_hole_5_a_page_stopped_by_the_statement_timeout_is_a_503_that_says_so(client):
    client.raise_request_exception = False

    response = client.get("/admin/slow/")

    assert response.status_code == 503
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert b"was stopped" in response.content
