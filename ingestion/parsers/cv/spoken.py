"""The languages a CV's languages section names, with their ISO 639 codes and levels (``core.languages``)."""

from __future__ import annotations

import re

from core.languages import read_spoken_language
from ingestion.documents import LanguageEntry
from ingestion.parsers.cv.sections import plain

__all__ = ["spoken_languages_of"]

_ITEM_SPLIT_RE = re.compile(r"\s*[;|·•▪]\s*|\s{3,}|\t+")
_MAX_ITEM_CHARS = 120


def spoken_languages_of(lines: list[str]) -> list[LanguageEntry]:
    """One entry a language: items split at line ends and separators, then at commas where the piece after a comma
    is itself a language ("English (C1), German (B2)"); a piece that is not ("English, fluent") is the level of the
    one before."""
    found: list[LanguageEntry] = []
    seen: set[str] = set()
    for line in map(plain, lines):
        for item in _ITEM_SPLIT_RE.split(line):
            for entry in _read_item(item.strip()):
                key = entry.code or entry.name.casefold()
                if key not in seen:
                    seen.add(key)
                    found.append(entry)
    return found


def _read_item(item: str) -> list[LanguageEntry]:
    if not item or len(item) > _MAX_ITEM_CHARS:
        return []
    entries: list[LanguageEntry] = []
    raws: list[str] = []
    for piece in (piece.strip() for piece in item.split(",")):
        if not piece:
            continue
        spoken = read_spoken_language(piece)
        if spoken is not None and spoken.code:
            entries.append(LanguageEntry(code=spoken.code, name=spoken.name, fluency=spoken.fluency, raw=piece))
            raws.append(piece)
        elif entries:  # the level of the language before it
            raw = f"{raws[-1]}, {piece}"
            again = read_spoken_language(raws[-1], piece)
            if again is not None:
                entries[-1] = LanguageEntry(code=again.code, name=again.name, fluency=again.fluency, raw=raw)
                raws[-1] = raw
    return entries
