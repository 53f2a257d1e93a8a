"""``languages[]``: spoken languages with their ISO code and fluency."""

from __future__ import annotations

from typing import Any

from core.languages import (
    read_spoken_language,
)
from core.text import clean_text
from ingestion.documents import (
    LanguageEntry,
)
from ingestion.parsers.jsonresume.schema import short_repr
from ingestion.parsers.jsonresume.values import first_text


def language_entries(raw: Any, warnings: list[str]) -> list[LanguageEntry]:
    """languages[]: each a ``LanguageEntry`` (core.languages: the code and English name, the fluency's level). A
    language no data set knows ("Code") is kept as written, with a warning; one named twice is kept once."""
    out: list[LanguageEntry] = []
    seen: set[str] = set()
    for index, item in enumerate(raw if isinstance(raw, list) else []):
        if isinstance(item, str):
            language, fluency = clean_text(item), ""
        else:
            language, fluency = first_text(item, "language", "name"), first_text(item, "fluency", "level")
        spoken = read_spoken_language(language, fluency)
        if spoken is None:
            continue
        if not spoken.code:
            warnings.append(
                f"languages[{index}]: {short_repr(spoken.name)} is not a language we know; kept as written."
            )
        if fluency and not spoken.fluency:
            warnings.append(
                f"languages[{index}]: the fluency {short_repr(fluency)} is not one we can read; it is kept as "
                "written, without a level."
            )
        key = spoken.code or spoken.name.casefold()
        if key in seen:
            continue
        seen.add(key)
        raw_text = f"{language} ({fluency})" if fluency else language
        out.append(LanguageEntry(code=spoken.code, name=spoken.name, fluency=spoken.fluency, raw=raw_text))
    return out
