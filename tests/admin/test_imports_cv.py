"""CVs in the admin: a PDF and a DOCX dropped in the upload become candidates, and a stored CV's page shows the text
the reader worked from (the PDF's or the DOCX's text, escaped), beside the parsed record."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from devtools.cvs import FictionalCv, cv_docx, cv_pdf, cv_plain_text, sample_cv
from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from profiles.models import Candidate
from tests.ingestion.imports import import_all
from tests.ingestion.parsers.cv.cvs import german_cv

pytestmark = pytest.mark.django_db


def test_a_pdf_and_a_docx_dropped_in_the_upload_become_two_candidates_with_their_positions(recruiter_client):
    files = [
        SimpleUploadedFile("maelis.pdf", cv_pdf(sample_cv(), columns=2)),
        SimpleUploadedFile("henrike.docx", cv_docx(german_cv())),
    ]
    recruiter_client.post(reverse("admin:ingestion_importbatch_add"), {"files": files, "label": "CVs"})
    import_all(ImportBatch.objects.get())  # what the worker does with the queued files

    assert sorted(Candidate.objects.values_list("name", flat=True)) == ["Henrike Mospach", "Maelis Duvernoy"]
    assert Candidate.objects.get(name="Maelis Duvernoy").positions.count() == 4
    assert Candidate.objects.get(name="Henrike Mospach").positions.get().company == "Kieselgrund AG"


def _stored(name: str, data: bytes) -> SourceFile:
    batch = services.batch_create(origin="cli")
    services.batch_receive(batch=batch, files=[services.IncomingFile(name, data)], enqueue=False)
    return SourceFile.objects.get(batch=batch)


def test_a_stored_pdf_cv_shows_its_text_on_its_page_and_the_text_page(recruiter_client):
    source = _stored("maelis.pdf", cv_pdf(sample_cv(), columns=2))

    change = recruiter_client.get(reverse("admin:ingestion_sourcefile_change", args=[source.pk])).content.decode()
    text = recruiter_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()

    for page in (change, text):
        assert "Staff Software Engineer — Quillfeather Analytics" in page
        assert "%PDF" not in page


def test_the_text_of_a_cv_is_escaped(recruiter_client):
    cv = FictionalCv(name="Pim <b>Vandersloot</b>", sections=[("Skills", ["<script>alert(1)</script>, Go"])])
    source = _stored("pim.docx", cv_docx(cv))

    page = recruiter_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()

    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page


def test_a_cv_whose_text_cannot_be_read_says_why_on_its_page(recruiter_client):
    source = _stored("locked.pdf", cv_pdf(sample_cv(), password="lantern-7"))

    page = recruiter_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()

    assert "protected by a password" in page


def test_a_pdf_that_failed_its_import_is_not_read_again_by_its_page(recruiter_client, monkeypatch):
    source = _stored("maelis.pdf", cv_pdf(sample_cv()))
    slow = "Reading this file took longer than 20 seconds, the limit for one file, so it was not imported."
    SourceFile.objects.filter(pk=source.pk).update(status=SourceFile.Status.FAILED, error=slow)

    def never(data):
        raise AssertionError("a failed file's text was read again in the request")

    monkeypatch.setattr("ingestion.selectors.reader_text", never)
    change = recruiter_client.get(reverse("admin:ingestion_sourcefile_change", args=[source.pk])).content.decode()
    text = recruiter_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()

    for page in (change, text):
        assert "[No text: the import failed. Reading this file took longer than 20 seconds" in page
        assert "Staff Software Engineer" not in page


def test_a_viewer_reads_a_stored_cvs_text_without_its_contact_details(viewer_client):
    source = _stored("maelis.pdf", cv_pdf(sample_cv()))

    change = viewer_client.get(reverse("admin:ingestion_sourcefile_change", args=[source.pk])).content.decode()
    text = viewer_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()

    for page in (change, text):
        assert "Staff Software Engineer — Quillfeather Analytics" in page
        for detail in ("maelis.duvernoy@example.org", "+33 6 12 34 56 78", "github.com/maelisdv", "linkedin.com/in"):
            assert detail not in page
        assert "[e-mail address withheld] · [phone number withheld]" in page
        assert "[link withheld] · [link withheld]" in page


def test_a_recruiter_reads_a_stored_cvs_contact_details(recruiter_client):
    source = _stored("maelis.pdf", cv_pdf(sample_cv()))

    text = recruiter_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()

    assert "maelis.duvernoy@example.org · +33 6 12 34 56 78" in text
    assert "github.com/maelisdv" in text


def test_a_viewer_reads_a_stored_text_cv_without_its_contact_details(viewer_client):
    source = _stored("maelis.txt", cv_plain_text(sample_cv()).encode())

    text = viewer_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()

    assert "Maelis Duvernoy" in text
    assert "maelis.duvernoy@example.org" not in text
    assert "+33 6 12 34 56 78" not in text
