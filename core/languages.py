"""Spoken languages: whether a string names a human language (pycountry's bundled data)."""

from __future__ import annotations

import functools
import re

import pycountry

from core.text import clean_text

__all__ = ["is_language_name"]

_LANGUAGE_ALIASES = frozenset(
    {
        "greek",
        "swahili",
        "malay",
        "punjabi",
        "nepali",
        "farsi",
        "mandarin",
        "cantonese",
        "hokkien",
        "taiwanese",
        "shanghainese",
        "flemish",
        "castilian",
        "brazilian portuguese",
        "american sign language",
        "sign language",
        "uzbek",
        "pashto",
        "azerbaijani",
        "albanian",
        "quechua",
        "oromo",
        "estonian",
        "latvian",
        "mongolian",
        "konkani",
        "rajasthani",
        "kurdish",
        "serbo-croatian",
    }
)


@functools.cache
def _language_names() -> frozenset[str]:
    names: set[str] = set(_LANGUAGE_ALIASES)
    for lang in pycountry.languages:
        if getattr(lang, "type", "L") not in ("L", "C", "H"):
            continue
        for attr in ("name", "common_name"):
            value = getattr(lang, attr, None)
            if not value:
                continue
            names.add(value.casefold())
            bare = re.sub(r"\s*\([^)]*\)\s*$", "", value).strip()
            if bare:
                names.add(bare.casefold())
            if bare.startswith("Modern "):
                names.add(bare[7:].casefold())
    return frozenset(names)


def is_language_name(s: str) -> bool:
    """True when ``s`` is the English name of a human language known to pycountry (or a common alias)."""
    s = clean_text(s)
    return bool(s) and len(s) <= 60 and s.casefold() in _language_names()
