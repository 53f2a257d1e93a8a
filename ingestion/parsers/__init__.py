"""Pure parsers: the bytes of a developer profile file in, a typed ProfileDocument out (no database, no network).

``parse`` detects the format from the content (never the file name) and raises ParseError, with a message a
recruiter can act on, for anything that holds no usable profile.
"""

from __future__ import annotations

import json

from ingestion.documents import ParseError, ProfileDocument
from ingestion.parsers.decoding import decode_bytes
from ingestion.parsers.jsonresume import is_other_format, parse_jsonresume
from ingestion.parsers.progai import looks_like_progai, parse_progai

__all__ = ["NEITHER_FORMAT", "detect_format", "parse", "parse_jsonresume", "parse_progai"]

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
    return "unknown"


def detect_format(data: bytes) -> str:
    """ "progai", "jsonresume" or "unknown" (also for empty or binary data, and for a JSON résumé of another format,
    which the JSON Resume parser refuses)."""
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
    """Parse the bytes of a Prog.AI text export or a JSON Resume file into a ProfileDocument.

    Warnings about the encoding come first in ``document.warnings``. Raises ParseError (and nothing else) when the
    file is empty, binary, of neither format, or holds no usable profile.
    """
    text, warnings = decode_bytes(data)
    fmt = _format_of_text(text)
    if fmt == "jsonresume":
        document = parse_jsonresume(text, vocabulary=vocabulary)
    elif fmt == "progai":
        document = parse_progai(text, vocabulary=vocabulary)
    else:
        raise ParseError(NEITHER_FORMAT)
    document.warnings = warnings + document.warnings
    return document
