"""A failed file uploaded again stores no row of its own: its batch lists it by the stored copy, whose name and error an
erasure withholds. The name it was received under is kept nowhere, so no erasure has to find it."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ingestion import services as ingestion_services
from ingestion.models import ImportBatch, SourceFile
from privacy.services import candidate_erase
from tests.ingestion.imports import import_all, import_file
from tests.privacy.people import TOVE_FILE, TOVE_NEEDLES, tove_bytes
from tests.privacy.scan import found_in_database

pytestmark = pytest.mark.django_db


def _upload(recruiter, *files: tuple[str, bytes]) -> ImportBatch:
    batch = ingestion_services.batch_create(origin=ImportBatch.Origin.ADMIN, user=recruiter)
    files = [ingestion_services.IncomingFile(name, data) for name, data in files]
    return ingestion_services.batch_receive(batch=batch, files=files, enqueue=False)


def _everything_shown_of(batch: ImportBatch, recruiter, client) -> str:
    """The batch page, its progress JSON, the API's import detail and the batch's summary, as one text."""
    client.force_login(recruiter)
    page = client.get(reverse("admin:ingestion_importbatch_change", args=[batch.pk])).content.decode()
    progress = client.get(reverse("admin:ingestion_importbatch_progress", args=[batch.pk])).content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=recruiter)[0].key}")
    detail = api.get(reverse("api:import-detail", args=[batch.pk]))
    assert detail.status_code == 200
    summary = ingestion_services.batch_summary(batch=batch)
    assert summary.failed == 1
    return "\n".join([page, progress, detail.content.decode(), repr(summary.errors)])


def test_her_refused_bytes_sent_again_are_listed_as_failed_without_the_name_they_came_under(officer, recruiter, client):
    """The refused row keeps its sha256, so the bytes sent again are a failed duplicate: the batch stored the name
    they came under ("Tove Lindqvist CV.json") in clear, after her erasure."""
    candidate_erase(candidate=import_file(TOVE_FILE), user=officer)
    import_all(_upload(recruiter, ("Tove Lindqvist CV.json", tove_bytes())))
    refused = SourceFile.objects.get(sha256__regex=r"^[0-9a-f]{64}$", status=SourceFile.Status.FAILED)

    again = _upload(recruiter, ("Tove Lindqvist CV (2).json", tove_bytes()))

    assert (again.duplicates, again.duplicates_failed) == (1, 1)
    shown = _everything_shown_of(again, recruiter, client)
    assert "Tove" not in shown
    assert "(withheld: an erased person)" in shown
    assert refused.error in shown
    assert reverse("admin:ingestion_sourcefile_change", args=[refused.pk]) in shown
    assert found_in_database(TOVE_NEEDLES) == []


def test_a_failed_file_of_hers_sent_again_and_then_erased_shows_no_name_on_the_later_batch(officer, recruiter, client):
    tove = import_file(TOVE_FILE)
    data = tove_bytes()
    truncated = data[: data.index(b'"url": "https://github.com/tovelq"') + 40]  # cut short: no parser reads it
    import_all(_upload(recruiter, ("Tove Lindqvist CV.json", truncated)))
    again = _upload(recruiter, ("tove-lindqvist-again.json", truncated))
    assert "Tove Lindqvist CV.json" in _everything_shown_of(again, recruiter, client)  # the stored copy's name

    candidate_erase(candidate=tove, user=officer)

    again.refresh_from_db()
    shown = _everything_shown_of(again, recruiter, client)
    assert "Tove" not in shown
    assert "tove" not in shown.lower()
    assert "(withheld: an erased person)" in shown
    assert "Erased on " in shown
    assert found_in_database(TOVE_NEEDLES) == []


def test_the_label_of_a_batch_that_sent_a_failed_file_of_hers_again_is_withheld(officer, recruiter):
    """The batch holds no file of hers, only the stored copy's id: its label, typed by hand, may name her too."""
    tove = import_file(TOVE_FILE)
    data = tove_bytes()
    truncated = data[: data.index(b'"url": "https://github.com/tovelq"') + 40]
    import_all(_upload(recruiter, ("cv.json", truncated)))
    again = _upload(recruiter, ("cv.json", truncated))
    ImportBatch.objects.filter(pk=again.pk).update(label="Tove Lindqvist, sent again")

    candidate_erase(candidate=tove, user=officer)

    again.refresh_from_db()
    assert again.label == "(label withheld after an erasure)"
