"""An access report of a person imported from a PDF or Word CV shows the CV's text, which a person can read, with the
file itself kept whole as base64 (not its PDF source read as text)."""

import base64
import json

import pytest

from devtools.cvs import cv_docx, cv_pdf, sample_cv
from ingestion.models import SourceFile, SourceFileText
from privacy.access import subject_access_document
from tests.ingestion.imports import import_all, receive

pytestmark = pytest.mark.django_db


def _imported(name: str, data: bytes) -> SourceFile:
    batch = receive((name, data))
    import_all(batch)
    source = SourceFile.objects.get(batch=batch)
    assert source.status == SourceFile.Status.IMPORTED, source.error
    return source


def test_the_access_report_of_a_pdf_cv_holds_its_text_and_not_its_pdf_bytes():
    data = cv_pdf(sample_cv())
    source = _imported("maelis.pdf", data)

    document = subject_access_document(candidate_id=source.candidate_id)

    (row,) = document["source_files"]
    assert row["original_name"] == "maelis.pdf"
    assert "Staff Software Engineer — Quillfeather Analytics" in row["text"]
    assert row["text"] == SourceFileText.objects.get(source_file=source).text
    assert row["content"] == {"base64": base64.b64encode(data).decode("ascii"), "media_type": "application/pdf"}
    assert "%PDF" not in json.dumps(document, ensure_ascii=False)


def test_a_cv_whose_text_was_not_kept_is_read_again_for_the_report():
    source = _imported("maelis.docx", cv_docx(sample_cv()))
    SourceFileText.objects.filter(source_file=source).delete()  # imported before texts were kept

    (row,) = subject_access_document(candidate_id=source.candidate_id)["source_files"]

    assert "Université Lumière Lyon 2" in row["text"]
    assert row["content"]["media_type"] == ("application/vnd.openxmlformats-officedocument.wordprocessingml.document")


def test_a_text_file_is_its_own_text():
    source = _imported("maelis.json", json.dumps({"basics": {"name": "Maelis Duvernoy"}}).encode())

    (row,) = subject_access_document(candidate_id=source.candidate_id)["source_files"]

    assert json.loads(row["content"]) == {"basics": {"name": "Maelis Duvernoy"}}
    assert "text" not in row
