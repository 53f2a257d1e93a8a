"""Whether a text is JSON for this parser, and whether a JSON object is a JSON Resume: top-level keys misspelt by one
letter, and résumés of other formats."""

from __future__ import annotations

import json
from typing import Any

from ingestion.parsers.jsonresume.schema import SCHEMA
from ingestion.parsers.jsonresume.values import first_text

_SCHEMA_KEYS = tuple(SCHEMA["properties"])
# Longer bare JSON values are left to the other formats rather than parsed to find out.
_MAX_BARE_VALUE_CHARS = 100_000
_NAME_KEYS = ("name", "fullName", "full_name", "firstName")


def _one_edit_apart(a: str, b: str) -> bool:
    """True when ``b`` is ``a`` with one letter added, dropped, changed, or two neighbours swapped ("wrok"), after
    the same first letter: "preferences" (an extension key of real files) is not a misspelt "references"."""
    if a == b or abs(len(a) - len(b)) > 1 or a[:1] != b[:1]:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):
        return a[i:] == b[i + 1 :]
    return a[i + 1 :] == b[i + 1 :] or (a[i + 2 :] == b[i + 2 :] and a[i : i + 2] == b[i : i + 2][::-1])


def with_schema_keys(data: dict, warnings: list[str]) -> dict:
    """``data`` with each top-level key one edit away from a schema key it lacks ("basic", "skill") read as that
    key, with a warning; a key beside the right one is an extension key and left alone."""
    renamed: dict[str, str] = {}
    for key in data:
        if not isinstance(key, str) or key in _SCHEMA_KEYS:
            continue
        folded = key.casefold()
        for expected in _SCHEMA_KEYS:
            if (
                expected not in data
                and expected not in renamed.values()
                and (folded == expected or _one_edit_apart(folded, expected))
            ):
                renamed[key] = expected
                warnings.append(f'The key "{key}" was read as "{expected}" (the JSON Resume schema\'s name).')
                break
    if not renamed:
        return data
    return {renamed.get(key, key): value for key, value in data.items()}


EXPORT_ADVICE = "Export it as JSON Resume (jsonresume.org) or as a Prog.AI text profile."


def is_other_format(data: Any) -> bool:
    """True for a JSON object that is a résumé of another format (a name where JSON Resume has none, no ``basics``):
    what ``detect_format`` calls "unknown" though it is JSON, as the parser refuses it."""
    if not isinstance(data, dict):
        return False
    data = with_schema_keys(data, [])
    return "basics" not in data and not isinstance(data.get("bio"), dict) and bool(other_shape_name(data))


def other_shape_name(data: dict) -> str:
    """Where a résumé of another format keeps its name ("profile.name", FRESH's top-level "name"), or ""."""
    if first_text(data, "name"):
        return "name"
    for key, value in data.items():
        if isinstance(value, dict):
            for name_key in _NAME_KEYS:
                if first_text(value, name_key):
                    return f"{key}.{name_key}"
    return ""


def looks_like_json(text: str) -> bool:
    """Whether a text file is JSON for this parser to read or refuse: it opens an object or an array, or it is a bare
    JSON value (a string, a number, a literal), which the parser refuses saying what it is."""
    stripped = text.lstrip("\ufeff \t\n")
    if stripped[:1] in ("{", "["):
        return True
    if stripped[:1] in '"-0123456789tfn' and len(stripped) < _MAX_BARE_VALUE_CHARS:
        try:
            json.loads(stripped)
        except (ValueError, RecursionError):
            return False
        return True
    return False


def names_another_format(text: str) -> bool:
    """A JSON object shaped like another résumé format ("profile.name", no "basics"). JSON that strict parsing
    refuses (a trailing comma, broken) is not: the parser then says what it repaired or what is wrong."""
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError):
        return False
    return is_other_format(data)
