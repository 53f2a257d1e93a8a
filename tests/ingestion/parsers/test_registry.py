"""The parsers' registry: each format is one entry, which detection, parsing, the text beside the record and the stored
file's choices all read."""

import pytest

from devtools.cvs import cv_docx, cv_pdf, cv_plain_text, sample_cv
from ingestion.documents import ParseError, ProfileDocument
from ingestion.models import SourceFile
from ingestion.parsers import (
    FORMATS,
    FileFormat,
    detect_format,
    format_choices,
    formats_in_words,
    parse,
    read_file,
    reader_text,
    registry,
    text_is_extracted,
)
from ingestion.parsers.cv import files as cv_files

OLD_WORD = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)


def test_the_stored_files_choices_are_the_registrys_formats():
    assert SourceFile.Format.choices == format_choices()
    assert [name for name, _ in format_choices()] == ["unknown", "jsonresume", "progai", "cv"]
    assert (SourceFile.Format.PROGAI, SourceFile.Format.JSONRESUME, SourceFile.Format.CV) == (
        "progai",
        "jsonresume",
        "cv",
    )


def test_an_upload_names_every_format_it_reads():
    assert formats_in_words() == "JSON Resume, Prog.AI text export or CV (PDF, Word or text)"


def test_a_text_file_is_the_first_format_that_claims_it():
    resume = b'{"basics": {"name": "Ada Quill", "summary": "Github Skills (3)"}}'
    assert detect_format(resume) == "jsonresume"
    assert detect_format(cv_plain_text(sample_cv()).encode()) == "cv"
    assert detect_format(b"Dear recruiter, my CV is attached.") == "unknown"


def test_a_text_its_format_disowns_is_unknown_and_its_parser_says_why():
    other = b'{"profile": {"name": "Ada Quill"}}'
    assert detect_format(other) == "unknown"
    with pytest.raises(ParseError, match=r"not a JSON Resume file: it has profile\.name"):
        parse(other)


def test_a_binary_file_keeps_the_text_its_parser_read_and_a_text_file_keeps_none():
    pdf = cv_pdf(sample_cv())
    read = read_file(pdf)
    assert read.extracted_text == reader_text(pdf)
    assert read.document == parse(pdf)
    assert read_file(cv_plain_text(sample_cv()).encode()).extracted_text is None


def test_which_files_have_their_text_read_out_of_them():
    assert text_is_extracted(cv_pdf(sample_cv()))
    assert text_is_extracted(cv_docx(sample_cv()))
    assert not text_is_extracted(cv_plain_text(sample_cv()).encode())
    assert not text_is_extracted(OLD_WORD)  # recognised only to be refused
    assert detect_format(OLD_WORD) == "unknown"


def _parse_greeting(text: str, *, vocabulary: frozenset[str] = frozenset()) -> ProfileDocument:
    return ProfileDocument(format="greeting", name=text.removeprefix("HELLO ").strip())


def test_a_new_format_is_one_entry(monkeypatch):
    greeting = FileFormat(
        name="greeting", label="Greeting card", parse=_parse_greeting, claims=lambda t: t.startswith("HELLO ")
    )
    monkeypatch.setattr(registry, "FORMATS", (*FORMATS, greeting))

    assert detect_format(b"HELLO Tamsin Quill") == "greeting"
    assert parse(b"HELLO Tamsin Quill").name == "Tamsin Quill"
    assert format_choices()[-1] == ("greeting", "Greeting card")
    assert formats_in_words().endswith(", CV (PDF, Word or text) or Greeting card")


def _counting_pdf_reads(monkeypatch) -> list[int]:
    reads: list[int] = []
    original = cv_files.pdf_text

    def counted(data):
        reads.append(len(data))
        return original(data)

    monkeypatch.setattr(cv_files, "pdf_text", counted)
    return reads


def test_a_file_is_read_once_for_its_document_and_its_text(monkeypatch):
    pdf = cv_pdf(sample_cv())
    reads = _counting_pdf_reads(monkeypatch)

    read = read_file(pdf)

    assert read.extracted_text.startswith("Maelis Duvernoy")
    assert read.document.name == "Maelis Duvernoy"
    assert len(reads) == 1


def test_no_module_keeps_the_last_files_bytes_or_text_after_a_parse(monkeypatch):
    pdf = cv_pdf(sample_cv())
    read_file(pdf)
    parse(pdf)
    reader_text(pdf)
    reads = _counting_pdf_reads(monkeypatch)

    reader_text(pdf)  # read out of the file again: nothing held it
    parse(pdf)

    assert len(reads) == 2
    assert [name for name, value in vars(registry).items() if hasattr(value, "cache_info")] == []
