"""Which CV file a file's first bytes say it is, and its text: PDF, DOCX, or an old Word document (refused)."""

from __future__ import annotations

from ingestion.documents import ParseError
from ingestion.parsers.cv.docx import docx_text, is_docx
from ingestion.parsers.cv.pdf import pdf_text
from ingestion.parsers.decoding import MAX_BYTES, normalise_text

__all__ = ["OLD_WORD_MESSAGE", "cv_file_kind", "cv_file_text"]

OLD_WORD_MESSAGE = (
    "This is an old Word document (.doc) or another old Office file, which TalentDB cannot read. Open it in Word or "
    "LibreOffice, save it as PDF or DOCX, and upload that."
)
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# The PDF header may follow up to 1024 bytes of anything (PDF 1.7, 7.5.2), which readers accept.
_PDF_HEADER_WINDOW = 1024


def cv_file_kind(data: bytes) -> str:
    """ "pdf", "docx" or "doc" by the content's signature; "" for anything else (text is read elsewhere)."""
    if b"%PDF-" in data[:_PDF_HEADER_WINDOW]:
        return "pdf"
    if data.startswith(_OLE2_MAGIC):
        return "doc"
    if is_docx(data):
        return "docx"
    return ""


def cv_file_text(data: bytes, kind: str) -> str:
    """The text of a PDF or DOCX CV, cleaned as every text file is; ParseError with what to do when it has none."""
    if kind == "doc":
        raise ParseError(OLD_WORD_MESSAGE)
    if len(data) > MAX_BYTES:
        raise ParseError("The file is too large to be a CV (more than 10 MB).")
    text = pdf_text(data) if kind == "pdf" else docx_text(data)
    return normalise_text(text)
