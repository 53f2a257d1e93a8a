"""Pure parsers: the bytes of a developer profile file in, a typed ProfileDocument out (no database, no network).

``parse`` detects the format from the content (never the file name) and raises ParseError, with a message a
recruiter can act on, for anything that holds no usable profile. The formats: a Prog.AI text export, a JSON Resume,
and a CV (``cv``): a PDF or DOCX by its first bytes, or a text or Markdown file with a CV's section headings that is
neither of the others.
"""

from __future__ import annotations

import json

from ingestion.documents import ParseError, ProfileDocument
from ingestion.parsers.cv import cv_file_kind, cv_file_text, looks_like_cv, parse_cv
from ingestion.parsers.decoding import decode_bytes
from ingestion.parsers.jsonresume import is_other_format, parse_jsonresume
from ingestion.parsers.progai import looks_like_progai, parse_progai

__all__ = ["NEITHER_FORMAT", "detect_format", "parse", "parse_jsonresume", "parse_progai", "reader_text"]

NEITHER_FORMAT = "This file is neither a Prog.AI profile export nor a JSON Resume."


def _format_of_text(text: str) -> str:
    stripped = text.lstrip("\ufeff \t\n")
    if stripped[:1] in ("{", "["):
        return "jsonresume"
    if stripped[:1] in '"-0123456789tfn' and len(stripped) < 100_000:
        try:
            json.loads(stripped)
        except (ValueError, RecursionError):
            pass
        else:
            return "jsonresume"  # valid JSON, but a bare string/number/literal: the JSON parser explains why not
    if looks_like_progai(stripped):
        return "progai"
    if looks_like_cv(text):
        return "cv"
    return "unknown"


def detect_format(data: bytes) -> str:
    """ "progai", "jsonresume", "cv" or "unknown" (also for empty or binary data, an old Word document, and a JSON
    résumé of another format, which the JSON Resume parser refuses)."""
    kind = cv_file_kind(data)
    if kind:
        return "cv" if kind != "doc" else "unknown"
    try:
        text, _ = decode_bytes(data)
    except ParseError:
        return "unknown"
    fmt = _format_of_text(text)
    if fmt == "jsonresume" and _is_other_json_format(text):
        return "unknown"
    return fmt


def _is_other_json_format(text: str) -> bool:
    """A JSON object shaped like another résumé format ("profile.name", no "basics"). JSON that strict parsing
    refuses (a trailing comma, broken) stays "jsonresume": the parser then says what it repaired or what is wrong."""
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError):
        return False
    return is_other_format(data)


def parse(data: bytes, *, vocabulary: frozenset[str] = frozenset()) -> ProfileDocument:
    """Parse the bytes of a Prog.AI text export, a JSON Resume file or a CV into a ProfileDocument.

    Warnings about the encoding come first in ``document.warnings``. Raises ParseError (and nothing else) when the
    file is empty, binary, of no known format, or holds no usable profile.
    """
    kind = cv_file_kind(data)
    if kind:
        return parse_cv(cv_file_text(data, kind), vocabulary=vocabulary)
    text, warnings = decode_bytes(data)
    fmt = _format_of_text(text)
    if fmt == "jsonresume":
        document = parse_jsonresume(text, vocabulary=vocabulary)
    elif fmt == "progai":
        document = parse_progai(text, vocabulary=vocabulary)
    elif fmt == "cv":
        document = parse_cv(text, vocabulary=vocabulary)
    else:
        raise ParseError(NEITHER_FORMAT)
    document.warnings = warnings + document.warnings
    return document


def reader_text(data: bytes) -> str:
    """The text a parser works from: a PDF's or a DOCX's extracted text, a text file's decoded text. ParseError
    when there is none (the file's own message). For a recruiter to check the parsed fields against."""
    kind = cv_file_kind(data)
    if kind:
        return cv_file_text(data, kind)
    return decode_bytes(data)[0]
