"""Text clean-up: Unicode normalisation, control characters, whitespace, and sizes as people read them.

Django-free: the parsers, the normaliser, the filters and the middleware all import these.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["clean_paragraphs", "clean_text", "human_size", "human_size_against", "phone_text"]

_WS_RE = re.compile(r"\s+")
_SPACES_RE = re.compile(r"[^\S\n]+")


_CONTROL_SPACE_RE = re.compile(r"[\t\n\r\x0b\x0c\x1c-\x1f\x85]")
_CONTROL_SPACE_NO_NL_RE = re.compile(r"[\t\r\x0b\x0c\x1c-\x1f\x85]")
# Control characters, and unpaired surrogates (JSON can smuggle them in as "\ud800"; no database can store them).
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_NO_NL_RE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _strip_controls(s: str, keep_newlines: bool = False) -> str:
    """Drop control characters (Unicode category Cc); whitespace controls become spaces, newlines optionally kept."""
    if keep_newlines:
        return _CONTROL_NO_NL_RE.sub("", _CONTROL_SPACE_NO_NL_RE.sub(" ", s))
    return _CONTROL_RE.sub("", _CONTROL_SPACE_RE.sub(" ", s))


def clean_text(s: str) -> str:
    """NFC-normalise, drop control characters and collapse every run of whitespace to one space."""
    if not s:
        return ""
    if s.isprintable() and "  " not in s:
        # The common case: no control character, and no whitespace but single spaces (every other whitespace
        # character is unprintable), so only NFC can change anything, and only outside ASCII.
        return (s if s.isascii() else unicodedata.normalize("NFC", s)).strip()
    s = unicodedata.normalize("NFC", s)
    s = _strip_controls(s)
    return _WS_RE.sub(" ", s).strip()


def clean_paragraphs(s: str) -> str:
    """Like :func:`clean_text` but keeps line breaks (at most one blank line in a row)."""
    if not s:
        return ""
    s = unicodedata.normalize("NFC", s).replace("\r\n", "\n").replace("\r", "\n")
    s = s.replace("\u2028", "\n").replace("\u2029", "\n")
    s = _strip_controls(s, keep_newlines=True)
    lines = [_SPACES_RE.sub(" ", line).strip() for line in s.split("\n")]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def phone_text(s: str) -> str:
    """A phone number as the file wrote it ("+44 20 7946 0958", "(555) 010-0199 ext. 4"), tidied like any text and
    without a ``tel:`` link's scheme; "" when it holds no digit, as a placeholder ("n/a", "-") is no number.

    Not reformatted: without the person's country a number cannot be put in one international form, and a recruiter
    reads it best as written."""
    text = clean_text(s)
    if text[:4].lower() == "tel:":
        text = text[4:].strip()
    return text if any(char.isdigit() for char in text) else ""


# The limits are powers of 1024 (INGEST_MAX_FILE_BYTES is 5 × 1024², INGEST_MAX_UPLOAD_BYTES 100 × 1024²): their IEC
# names say so, where "MB" reads as 10⁶ to some and as 1024² to others (5 MiB is 5.2 MB of the first kind).
_SIZE_UNITS = ("KiB", "MiB", "GiB", "TiB", "PiB")


def human_size(num_bytes: int) -> str:
    """A size as people read it: "1 byte", "812 bytes", "4.2 KiB", "5 MiB" (powers of 1024 with their IEC names, one
    decimal, none when it is 0)."""
    size = int(num_bytes)
    if abs(size) < 1024:
        return f"{size} byte" if abs(size) == 1 else f"{size} bytes"
    value = float(size)
    for unit in _SIZE_UNITS:
        value /= 1024
        if abs(round(value, 1)) < 1024 or unit == _SIZE_UNITS[-1]:  # 1023.96 KiB is 1 MiB, not "1024 KiB"
            return f"{value:.1f}".removesuffix(".0") + f" {unit}"
    raise AssertionError("unreachable")


def human_size_against(size: int, limit: int) -> tuple[str, str]:
    """``size`` and the ``limit`` it passed, as :func:`human_size` writes them, or both in bytes where that would
    write them alike ("5 MiB; files up to 5 MiB")."""
    shown, limit_shown = human_size(size), human_size(limit)
    if shown == limit_shown:
        return f"{size:,} bytes", f"{limit:,} bytes"
    return shown, limit_shown
