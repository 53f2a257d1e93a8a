"""Skill and topic labels: the lookup key every layer agrees on (parsers, normaliser, loader, filters).

Django-free, so the parsers and the domain share one definition.
"""

from __future__ import annotations

import functools
import re

from core.text import clean_text

__all__ = ["label_key"]

_WS_RE = re.compile(r"\s+")


@functools.lru_cache(maxsize=100_000)
def label_key(label: str) -> str:
    """The lookup key of a skill/topic label: lower-case, stripped, inner whitespace runs turned into '-'.

    Cached: a worker sees the same few thousand labels over and over.
    """
    return _WS_RE.sub("-", clean_text(label).lower())
