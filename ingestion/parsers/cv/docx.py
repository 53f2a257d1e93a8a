"""The text of a Word (DOCX) CV, tables included, read with the standard library.

A DOCX file is a zip archive whose ``word/document.xml`` holds the text: paragraphs (``w:p``) and tables (``w:tbl``),
in the order they are read. A table's cells come row by row, each cell's paragraphs on lines of their own and a blank
line after each row, so that a CV template's table of positions reads as one entry a row. A link's target follows
the paragraph's text when the text does not show it, for the profile links a CV shows only as a word ("LinkedIn"):
in its own paragraph, so that a link in the header is the candidate's and one under References is not.

Nothing in the archive is trusted: the number of parts and the size the text unpacks to are capped before anything is
unpacked (a zip bomb, a file stuffed with pictures), and XML that declares entities is refused.
"""

from __future__ import annotations

import io
import re
import zipfile
from xml.etree import ElementTree

from ingestion.documents import ParseError

__all__ = ["DOCUMENT_PART", "MAX_PARTS", "MAX_TEXT_BYTES", "docx_text", "is_docx"]

DOCUMENT_PART = "word/document.xml"
MAX_PARTS = 500
MAX_TEXT_BYTES = 20 * 1024 * 1024
DAMAGED_MESSAGE = (
    "This Word file is damaged and could not be read. Open it in Word or LibreOffice, save it again as DOCX or PDF, "
    "and upload that."
)
TOO_MANY_PARTS_MESSAGE = (
    "This Word file holds {parts} parts (pictures and others); a CV is read when it holds at most {limit}. Save a copy "
    "without the pictures, or as PDF, and upload that."
)
TOO_LARGE_MESSAGE = (
    "This Word file's text unpacks to more than {limit} MB, far more than a CV's: it was not opened. Save the CV again "
    "as DOCX or PDF and upload that."
)

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_RELATIONSHIPS = "word/_rels/document.xml.rels"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_RELATIONSHIP_RE = re.compile(rb"<Relationship\b[^>]*>")
_ATTRIBUTE_RE = re.compile(rb'\b(Id|Target|TargetMode)="([^"]{1,500})"')


# A zip entry's local header: its signature, 26 bytes of fields, then its name, which is never compressed.
_WORD_PART_HEADER_RE = re.compile(rb"PK\x03\x04.{26}word/", re.DOTALL)


def is_docx(data: bytes) -> bool:
    """A zip archive (by its first bytes) that holds a Word document's text part; or one too damaged to open whose
    entries' headers name Word's parts (a file cut short loses the directory at the end of a zip), so that it is
    refused as a damaged Word file rather than as an unknown binary file."""
    if not data.startswith(b"PK\x03\x04"):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return any(info.filename == DOCUMENT_PART for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError, EOFError):
        return _WORD_PART_HEADER_RE.search(data) is not None


def docx_text(data: bytes) -> str:
    """The document's text, in reading order; ParseError for a damaged or oversized file."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_PARTS:
                raise ParseError(TOO_MANY_PARTS_MESSAGE.format(parts=f"{len(infos):,}", limit=MAX_PARTS))
            xml = _read_capped(archive, DOCUMENT_PART)
            links = _read_capped(archive, _RELATIONSHIPS) if _RELATIONSHIPS in archive.namelist() else b""
    except ParseError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, KeyError, NotImplementedError, OSError):
        raise ParseError(DAMAGED_MESSAGE) from None
    if b"<!DOCTYPE" in xml or b"<!ENTITY" in xml:  # Word never writes them; entities are how XML bombs expand
        raise ParseError(DAMAGED_MESSAGE)
    try:
        root = ElementTree.fromstring(xml)  # noqa: S314 - no DTD (refused above), so no entity to expand or fetch
    except ElementTree.ParseError:
        raise ParseError(DAMAGED_MESSAGE) from None
    body = root.find(f"{_W}body")
    lines: list[str] = []
    targets = _link_targets(links)
    if body is not None:
        _block(body, lines, targets)
    return "\n".join(lines)


def _link_targets(relationships: bytes) -> dict[str, str]:
    """The web and e-mail addresses the document links to, by relationship id (``mailto:`` left off)."""
    targets = {}
    for element in _RELATIONSHIP_RE.findall(relationships):
        attributes = {name.decode(): value.decode("utf-8", "replace") for name, value in _ATTRIBUTE_RE.findall(element)}
        target = attributes.get("Target", "")
        if attributes.get("TargetMode") == "External" and target.startswith(("http://", "https://", "mailto:")):
            targets[attributes.get("Id", "")] = target.removeprefix("mailto:")
    return targets


def _read_capped(archive: zipfile.ZipFile, name: str) -> bytes:
    """A part's bytes, unpacking no more than ``MAX_TEXT_BYTES`` whatever the archive declares."""
    if archive.getinfo(name).file_size > MAX_TEXT_BYTES:
        raise ParseError(TOO_LARGE_MESSAGE.format(limit=MAX_TEXT_BYTES // (1024 * 1024)))
    with archive.open(name) as part:
        data = part.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise ParseError(TOO_LARGE_MESSAGE.format(limit=MAX_TEXT_BYTES // (1024 * 1024)))
    return data


def _block(element: ElementTree.Element, lines: list[str], targets: dict[str, str]) -> None:
    """Paragraphs and tables in document order; any other container (a content control) is looked into."""
    for child in element:
        if child.tag == f"{_W}p":
            lines.append(_paragraph(child, targets))
        elif child.tag == f"{_W}tbl":
            for row in child.findall(f"{_W}tr"):
                for cell in row.findall(f"{_W}tc"):
                    _block(cell, lines, targets)
                lines.append("")
        elif child.tag != f"{_W}sectPr":
            _block(child, lines, targets)


def _paragraph(paragraph: ElementTree.Element, targets: dict[str, str]) -> str:
    parts: list[str] = []
    links: list[str] = []
    for node in paragraph.iter():
        tag = node.tag
        if tag == f"{_W}t":
            parts.append(node.text or "")
        elif tag in (f"{_W}tab", f"{_W}ptab"):
            parts.append("\t")
        elif tag in (f"{_W}br", f"{_W}cr"):
            parts.append("\n")
        elif tag == f"{_W}hyperlink" and (target := targets.get(node.get(_R_ID, ""))):
            links.append(target)
    text = "".join(parts).strip()
    hidden = [target for target in dict.fromkeys(links) if target not in text]
    return " · ".join([text, *hidden]) if text and hidden else text or " · ".join(hidden)
