"""Spoken-language lines: each language with its ISO code and fluency."""

from __future__ import annotations

import re

from core.languages import is_language_name, read_spoken_language
from core.text import clean_text
from ingestion.documents import (
    LanguageEntry,
)

_TRAILING_PARENTHESES_RE = re.compile(r"\s*\([^)]*\)$")


def parse_spoken_language_entries(line: str) -> list[LanguageEntry] | None:
    """ "Chinese, English (Native)" -> a LanguageEntry each (core.languages: code, English name, fluency); None when a
    part is not a known human language (then the line is something else)."""
    if len(line) > 400:
        return None
    parts = [clean_text(p) for p in line.split(",")]
    if not parts or any(not p for p in parts):
        return None
    entries = []
    for part in parts:
        m = _TRAILING_PARENTHESES_RE.search(part)
        name = part[: m.start()] if m else part
        if not is_language_name(name):
            return None
        fluency = m.group(0).strip()[1:-1] if m else ""
        spoken = read_spoken_language(name, fluency)
        code, english = (spoken.code, spoken.name) if spoken and spoken.code else ("", name)
        entries.append(LanguageEntry(code=code, name=english, fluency=spoken.fluency if spoken else "", raw=part))
    return entries


def parse_spoken_languages(line: str) -> list[str] | None:
    """ "Chinese, English" -> ["Chinese", "English"] (English names); None when a part is not a known language."""
    entries = parse_spoken_language_entries(line)
    return None if entries is None else [entry.name for entry in entries]
