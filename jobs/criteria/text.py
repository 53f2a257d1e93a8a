"""The text as the rules read it: checked (``checked_text``), then cleaned (``cleaned_text``)."""

from __future__ import annotations

import re
import unicodedata

from jobs.criteria.result import DEFAULT_MAX_CHARS, CriteriaError

_BAD_CHARACTER_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")  # controls but tab and newlines


def checked_text(text: object, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """``text`` as the extractor reads it (NFC, newlines as ``\\n``); ``CriteriaError`` for text it cannot read
    (empty, longer than ``max_chars``, bytes or another type, control characters): every check of
    ``extract_criteria`` and none of its reading, for a caller that only needs to know a description is acceptable."""
    if isinstance(text, bytes | bytearray | memoryview):
        raise CriteriaError("The description must be text, not bytes.")
    if not isinstance(text, str):
        raise CriteriaError(f"The description must be text, not {type(text).__name__}.")
    if len(text) > max_chars:
        raise CriteriaError(f"The description is {len(text):,} characters long; at most {max_chars:,} are read.")
    if not text.strip():
        raise CriteriaError("The description is empty.")
    if bad := _BAD_CHARACTER_RE.search(text):
        position, char = bad.start(), bad.group()
        if "\ud800" <= char <= "\udfff":
            raise CriteriaError(f"The description holds a broken character at character {position + 1}.")
        raise CriteriaError(
            f"The description holds a control character (U+{ord(char):04X} at character {position + 1}): "
            "is it a binary file? Paste the text of the job post."
        )
    return unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")


# Typographic apostrophes and quotes as the plain ones every rule is written with ("What you’ll bring").
_APOSTROPHES_RE = re.compile("[\u2019\u2018\u201b\u2032]")
_QUOTES_RE = re.compile("[\u201c\u201d\u201e]")
_INVISIBLE_RE = re.compile(r"[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
# A link or an e-mail address names no skill ("https://" is no HTTP, "jobs@acme.dev" no skill): each is read as a
# space. Possessive runs keep a long unbroken "word" linear.
_LINK_RE = re.compile(r"(?<![\w@])(?:https?://|ftp://|www\.)[^\s<>()\"']++|[\w.+-]++@[\w-]++(?:\.[\w-]++)++")


def cleaned_text(text: str) -> str:
    """``text`` (from ``checked_text``) as the rules read it: typographic apostrophes and quotes made plain, invisible
    characters dropped, links and e-mail addresses replaced by a space."""
    text = _INVISIBLE_RE.sub("", _QUOTES_RE.sub('"', _APOSTROPHES_RE.sub("'", text)))
    if "@" in text or "://" in text or "www." in text:
        text = _LINK_RE.sub(" ", text)
    return text
