"""CVs in the admin: a PDF and a DOCX dropped in the upload become candidates, and a stored CV's page shows the text
the reader worked from (the PDF's or the DOCX's text, escaped), beside the parsed record: the text kept when the file
was parsed, or, for a file parsed before texts were kept, read again from its bytes."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DataError
from django.urls import reverse

from devtools.cvs import FictionalCv, cv_docx, cv_pdf, cv_plain_text, sample_cv
from ingestion import services
from ingestion.models import ImportBatch, SourceFile, SourceFileText
from privacy.services import candidate_erase
from profiles.models import Candidate
from tests.factories import UserFactory
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
    """A file stored and not parsed yet: what a file parsed before texts were kept is to its page."""
    batch = services.batch_create(origin="cli")
    services.batch_receive(batch=batch, files=[services.IncomingFile(name, data)], enqueue=False)
    return SourceFile.objects.get(batch=batch)


def _imported(name: str, data: bytes) -> SourceFile:
    source = _stored(name, data)
    import_all(source.batch)
    source.refresh_from_db()
    assert source.status == SourceFile.Status.IMPORTED, source.error
    return source


def _pages(client, source: SourceFile) -> tuple[str, str]:
    """The file's admin page and its text page."""
    change = client.get(reverse("admin:ingestion_sourcefile_change", args=[source.pk])).content.decode()
    text = client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()
    return change, text


def _never_read_again(monkeypatch) -> None:
    def never(data):
        raise AssertionError("the file's text was read again in the request")

    monkeypatch.setattr("ingestion.selectors.reader_text", never)


def test_a_stored_pdf_cv_shows_its_text_on_its_page_and_the_text_page(recruiter_client):
    source = _stored("maelis.pdf", cv_pdf(sample_cv(), columns=2))

    for page in _pages(recruiter_client, source):
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

    _never_read_again(monkeypatch)

    for page in _pages(recruiter_client, source):
        assert "[No text: the import failed. Reading this file took longer than 20 seconds" in page
        assert "Staff Software Engineer" not in page


def test_a_viewer_reads_a_stored_cvs_text_without_its_contact_details(viewer_client):
    source = _stored("maelis.pdf", cv_pdf(sample_cv()))

    for page in _pages(viewer_client, source):
        _assert_contact_details_withheld(page)


def _assert_contact_details_withheld(page: str) -> None:
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


# --- The text kept when the file is parsed -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "make"),
    [("maelis.pdf", lambda: cv_pdf(sample_cv(), columns=2)), ("henrike.docx", lambda: cv_docx(german_cv()))],
)
def test_an_imported_cv_keeps_the_text_its_reader_worked_from(name, make):
    source = _imported(name, make())

    kept = SourceFileText.objects.get(source_file=source).text
    assert kept.startswith(("Maelis Duvernoy", "Henrike Mospach"))
    assert "%PDF" not in kept
    assert "word/document.xml" not in kept


def test_a_text_cv_keeps_no_copy_of_its_text():
    source = _imported("maelis.txt", cv_plain_text(sample_cv()).encode())

    assert not SourceFileText.objects.filter(source_file=source).exists()


def test_an_imported_pdfs_page_shows_the_kept_text_without_reading_the_file_again(recruiter_client, monkeypatch):
    source = _imported("maelis.pdf", cv_pdf(sample_cv(), columns=2))
    SourceFileText.objects.filter(source_file=source).update(text="Kept text: Staff Software Engineer — Quillfeather")
    _never_read_again(monkeypatch)

    for page in _pages(recruiter_client, source):
        assert "Kept text: Staff Software Engineer — Quillfeather" in page


def test_a_viewer_reads_the_kept_text_without_its_contact_details(viewer_client, monkeypatch):
    source = _imported("maelis.pdf", cv_pdf(sample_cv()))
    _never_read_again(monkeypatch)

    for page in _pages(viewer_client, source):
        _assert_contact_details_withheld(page)


def test_parsing_a_file_again_keeps_one_text_the_latest():
    source = _imported("maelis.pdf", cv_pdf(sample_cv()))
    SourceFileText.objects.filter(source_file=source).update(text="an older reading")

    services.source_files_requeue(file_ids=[source.pk])
    import_all(source.batch)

    assert SourceFileText.objects.filter(source_file=source).count() == 1
    assert SourceFileText.objects.get(source_file=source).text.startswith("Maelis Duvernoy")


def test_an_erasure_deletes_the_kept_text_with_the_files_bytes(recruiter_client, monkeypatch):
    source = _imported("maelis.pdf", cv_pdf(sample_cv()))

    candidate_erase(candidate=source.candidate, user=UserFactory())

    assert not SourceFileText.objects.filter(source_file=source).exists()
    _never_read_again(monkeypatch)
    for page in _pages(recruiter_client, source):
        assert "Staff Software Engineer" not in page
        assert "maelis.duvernoy@example.org" not in page


def _load_refuses(monkeypatch) -> None:
    def refuse(profiles, **kwargs):
        raise DataError("value too long for type character varying(200)")

    monkeypatch.setattr("ingestion.services.importing.load_profiles", refuse)


def _assert_failed_without_text(client, source: SourceFile) -> None:
    source.refresh_from_db()
    assert source.status == SourceFile.Status.FAILED
    assert not SourceFileText.objects.filter(source_file=source).exists()
    for page in _pages(client, source):
        assert "[No text: the import failed." in page
        assert "Staff Software Engineer" not in page


def test_a_pdf_whose_load_fails_keeps_no_text_and_its_page_says_the_import_failed(recruiter_client, monkeypatch):
    source = _stored("maelis.pdf", cv_pdf(sample_cv()))
    _load_refuses(monkeypatch)

    import_all(source.batch)

    _never_read_again(monkeypatch)
    _assert_failed_without_text(recruiter_client, source)


def test_a_pdf_whose_normalising_fails_keeps_no_text(recruiter_client, monkeypatch):
    source = _stored("maelis.pdf", cv_pdf(sample_cv()))

    def crash(document, vocabulary):
        raise RuntimeError("a normaliser bug")

    monkeypatch.setattr("ingestion.services.importing.normalise", crash)

    import_all(source.batch)

    _never_read_again(monkeypatch)
    _assert_failed_without_text(recruiter_client, source)


@pytest.mark.parametrize("stage", ["parse", "load"])
def test_parsing_a_file_again_that_fails_removes_its_old_text(recruiter_client, monkeypatch, stage):
    source = _imported("maelis.pdf", cv_pdf(sample_cv()))
    assert SourceFileText.objects.filter(source_file=source).exists()
    if stage == "load":
        _load_refuses(monkeypatch)
    else:

        def crash(data):
            raise RuntimeError("a reader bug")

        monkeypatch.setattr("ingestion.parsers.cv.files.pdf_text", crash)

    services.source_files_requeue(file_ids=[source.pk])
    import_all(source.batch)

    _never_read_again(monkeypatch)
    _assert_failed_without_text(recruiter_client, source)
