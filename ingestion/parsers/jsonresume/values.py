"""Reading a JSON value that may be anything: the first text among keys, the objects or strings of a list, an e-mail."""

from __future__ import annotations

import math
import re
from typing import Any

from core.text import clean_text


def first_text(obj: Any, *keys: str) -> str:
    """The first non-empty string among ``obj[key]`` for ``keys``, cleaned; numbers are read as text."""
    if not isinstance(obj, dict):
        return ""
    for key in keys:
        value = obj.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value)):
            value = str(value)  # (math.isfinite overflows on a 400-digit integer; an int is always finite)
        if isinstance(value, str):
            text = clean_text(value)
            if text:
                return text
    return ""


def dicts_in(value: Any) -> list[dict]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def strings_in(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [text for item in value if isinstance(item, str) and (text := clean_text(item))]


_EMAIL_PART_RE = re.compile(r"[^@\s]+")


def is_email(text: str) -> bool:
    """One "@" between two runs of neither "@" nor whitespace, a dot inside the domain: what the pattern
    ``^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$`` accepts, checked in one pass (that pattern backtracks quadratically over a domain
    of many dots that ends badly)."""
    local, at, domain = text.partition("@")
    return bool(at and _EMAIL_PART_RE.fullmatch(local) and _EMAIL_PART_RE.fullmatch(domain) and "." in domain[1:-1])


CURRENT_WORDS = ("", "present", "now", "current", "ongoing", "today")
