"""Which file is a CV, by its content and never its name, and each file that cannot be read: each refused alone with
a message that says what is wrong and what to do."""

import io
import zipfile

import pytest

from devtools.cvs import (
    cv_docx,
    cv_pdf,
    cv_plain_text,
    docx_with_images,
    pdf_of_pages,
    pdf_without_text,
    sample_cv,
)
from ingestion.documents import ParseError
from ingestion.parsers import detect_format, parse, reader_text
from ingestion.parsers.cv.docx import MAX_PARTS, MAX_TEXT_BYTES
from ingestion.parsers.cv.pdf import MAX_PAGES, MAX_STREAM_BYTES
from tests.ingestion.parsers.cv.pdfs import pdf_drawing_forms, pdf_of_one_page


def test_a_pdf_and_a_docx_are_cvs_by_their_first_bytes():
    assert detect_format(cv_pdf(sample_cv())) == "cv"
    assert detect_format(cv_docx(sample_cv())) == "cv"


def test_a_text_cv_is_told_from_a_letter_that_mentions_one():
    assert detect_format(cv_plain_text(sample_cv()).encode()) == "cv"
    with pytest.raises(ParseError) as refused:
        parse(b"Dear recruiter,\nplease find my CV attached: experience, education and skills.\n")
    assert str(refused.value) == (
        "This file is text, but no profile TalentDB reads: not a CV (no name with headings such as Experience, "
        "Education or Skills was found), a Prog.AI profile export or a JSON Resume. If it is a CV, save it as PDF or "
        "DOCX with its headings, and upload that."
    )


def test_a_text_cv_with_one_heading_over_its_dated_positions_is_a_cv():
    text = "Ilvy Marchetti\nilvy@example.org\n\nEXPERIENCE\nSoftware Engineer — Globex\nJan 2019 – Present\n"

    assert detect_format(text.encode()) == "cv"
    assert parse(text.encode()).positions[0].company == "Globex"


BINARY_NOT_READ = (
    "This file is not a PDF, a Word document (DOCX) or a text file, whatever its name says: TalentDB cannot read "
    "it. If it is a CV, open it in the program that made it, save it as PDF or DOCX with text, and upload that."
)


@pytest.mark.parametrize(
    "data",
    [bytes(range(256)) * 8, b"\x89PNG\r\n\x1a\n" + bytes(600), b"PK\x03\x04" + bytes(600)],
    ids=["garbage", "png", "zip"],
)
def test_a_binary_file_of_no_format_says_what_it_is_not_and_what_to_do(data):
    assert detect_format(data) == "unknown"
    with pytest.raises(ParseError) as refused:
        parse(data)
    assert str(refused.value) == BINARY_NOT_READ


def test_the_text_the_reader_worked_from():
    text = reader_text(cv_pdf(sample_cv(), columns=2))
    # The sidebar's column comes whole before the career's, not interleaved with it line by line.
    assert text.index("Python, Go, PostgreSQL, Kafka,") < text.index("French — native") < text.index("SUMMARY")
    assert text.index("SUMMARY") < text.index("EXPERIENCE") < text.index("EDUCATION")


def test_a_docx_reads_its_tables_row_by_row():
    text = reader_text(cv_docx(sample_cv(), tables=("Experience",)))
    assert "Staff Software Engineer — Quillfeather Analytics\nMar 2021 – Present\nBuilt the event pipeline" in text


def test_an_old_word_document_is_refused_with_what_to_do():
    data = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
    assert detect_format(data) == "unknown"
    with pytest.raises(ParseError, match=r"old Word document \(\.doc\).*save it as PDF or DOCX"):
        parse(data)


def test_a_scanned_pdf_without_text_is_refused():
    with pytest.raises(ParseError, match=r"no text layer.*Save the CV as a PDF with text"):
        parse(pdf_without_text())


def test_a_pdf_with_a_password_is_refused():
    with pytest.raises(ParseError, match=r"protected by a password.*Save a copy without the password"):
        parse(cv_pdf(sample_cv(), password="lantern-7"))


PDF_DAMAGED = r"^This PDF is damaged and could not be read\. Save it again from the program that made it"
PDF_WITHOUT_TEXT = r"^This PDF has no text layer"


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda pdf: pdf[: len(pdf) // 3], PDF_DAMAGED),
        (lambda pdf: pdf.replace(b"stream", b"strem"), PDF_WITHOUT_TEXT),  # its pages draw nothing pypdf can read
        (lambda pdf: b"%PDF-1.4\n" + bytes(64), PDF_DAMAGED),
    ],
    ids=["truncated", "broken-streams", "header-only"],
)
def test_a_damaged_pdf_is_refused(damage, message):
    data = damage(cv_pdf(sample_cv()))
    assert detect_format(data) == "cv"
    with pytest.raises(ParseError, match=message):
        parse(data)


DOCX_DAMAGED = r"^This Word file is damaged and could not be read\. Open it in Word or LibreOffice, save it again"


@pytest.mark.parametrize(
    "damage",
    [
        lambda docx: docx[: len(docx) // 2],
        lambda docx: docx[:-200],
        lambda docx: docx[:3000] + bytes(2000) + docx[5000:],
    ],
    ids=["truncated", "end-cut-off", "overwritten"],
)
def test_a_damaged_docx_is_refused_as_a_damaged_word_file(damage):
    data = damage(cv_docx(sample_cv()))
    assert detect_format(data) == "cv"
    with pytest.raises(ParseError, match=DOCX_DAMAGED):
        parse(data)


def test_a_pdf_of_300_pages_is_refused_before_its_pages_are_read():
    with pytest.raises(ParseError, match=rf"^This PDF has 300 pages; a CV is read up to {MAX_PAGES}\."):
        parse(pdf_of_pages(300))


def test_a_docx_holding_a_thousand_pictures_is_refused():
    with pytest.raises(ParseError, match=rf"holds 1,0\d\d parts .*at most {MAX_PARTS}"):
        parse(docx_with_images(sample_cv(), 1000))


def test_a_docx_zip_bomb_is_refused_without_unpacking_it():
    data = io.BytesIO(cv_docx(sample_cv()))
    with zipfile.ZipFile(data) as source:
        parts = {info.filename: source.read(info) for info in source.infolist()}
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, part in parts.items():
            if name != "word/document.xml":
                archive.writestr(name, part)
        with archive.open("word/document.xml", "w", force_zip64=True) as document:
            chunk = b"<w:t>" + b"a" * (1024 * 1024) + b"</w:t>"
            for _ in range(MAX_TEXT_BYTES // len(chunk) + 2):
                document.write(chunk)
    assert len(bomb.getvalue()) < 200_000
    with pytest.raises(ParseError, match="unpacks to more than 20 MB"):
        parse(bomb.getvalue())


def test_a_docx_whose_xml_declares_entities_is_refused():
    data = io.BytesIO(cv_docx(sample_cv()))
    with zipfile.ZipFile(data) as source:
        parts = {info.filename: source.read(info) for info in source.infolist()}
    parts["word/document.xml"] = b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><d>&a;</d>'
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, part in parts.items():
            archive.writestr(name, part)
    with pytest.raises(ParseError, match="Word file is damaged"):
        parse(out.getvalue())


def test_a_zip_that_is_no_word_document_is_still_a_binary_file():
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("photos/boat.txt", "a boat")
    assert detect_format(archive.getvalue()) == "unknown"
    with pytest.raises(ParseError) as refused:
        parse(archive.getvalue())
    assert str(refused.value) == BINARY_NOT_READ


def test_a_pdf_whose_page_unpacks_to_more_than_a_cv_holds_is_refused():
    data = pdf_of_one_page(b"BT 72 720 Td (Maelis) Tj ET\n" + b" " * (MAX_STREAM_BYTES + 1))
    assert len(data) < 100_000
    with pytest.raises(ParseError, match=r"unpacks to more than 16 MB"):
        parse(data)


_TEXT = b"BT /F1 12 Tf 72 720 Td (Maelis Duvernoy) Tj ET\n"


def test_a_pdf_drawing_many_forms_that_together_unpack_to_more_than_a_cv_holds_is_refused():
    # Each form stays under the limit of one stream; twenty of them unpack to 300 MB.
    form = b"%" + b" " * (15 * 1024 * 1024) + b"\n" + _TEXT
    data = pdf_drawing_forms([form] * 20, _TEXT + b"".join(b"/X%d Do\n" % i for i in range(20)))
    assert len(data) < 400_000
    with pytest.raises(ParseError, match=r"^This PDF's pages draw far more than a CV's text .* 32 MB in all"):
        reader_text(data)


def test_a_pdf_drawing_one_form_again_and_again_is_refused(monkeypatch):
    # The limit lowered to 4 MB: the full limit's worth of parsing before the refusal takes seconds.
    monkeypatch.setattr("ingestion.parsers.cv.pdf.MAX_DOCUMENT_BYTES", 4 * 1024 * 1024)
    form = b"%" + b" " * (512 * 1024) + b"\n" + _TEXT
    data = pdf_drawing_forms([form], b"/X0 Do\n" * 10)
    with pytest.raises(ParseError, match=r"draw far more than a CV's text .* 4 MB in all"):
        reader_text(data)
    assert "Maelis Duvernoy" in reader_text(pdf_drawing_forms([form], b"/X0 Do\n" * 5))


def test_a_pdf_drawing_a_small_form_again_and_again_with_a_large_font_map_is_refused():
    # pypdf reads a form's fonts again each time the form is drawn: the map counts at every drawing.
    cmap = b"%" + b" " * (1024 * 1024) + b"\nbegincmap\nendcmap\n"
    data = pdf_drawing_forms([_TEXT], b"/X0 Do\n" * 40, to_unicode=cmap)
    with pytest.raises(ParseError, match=r"draw far more than a CV's text"):
        reader_text(data)


def test_a_pdf_of_forms_nested_deeper_than_a_cv_is_refused():
    data = pdf_drawing_forms([_TEXT + b"/X%d Do\n" % (i + 1) for i in range(40)], b"/X0 Do\n", nested=True)
    with pytest.raises(ParseError, match=r"draw far more than a CV's text"):
        reader_text(data)


def test_a_pdf_drawing_a_few_small_forms_is_read():
    forms = [b"BT /F1 12 Tf 72 %d Td (Line %d) Tj ET\n" % (700 - 20 * i, i) for i in range(3)]
    data = pdf_drawing_forms(forms, _TEXT + b"/X0 Do\n/X1 Do\n/X2 Do\n")
    text = reader_text(data)
    assert "Maelis Duvernoy" in text
    assert all(f"Line {i}" in text for i in range(3))
