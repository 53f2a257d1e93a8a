"""The JSON value of a résumé's text: strict JSON, else with trailing commas and comments repaired."""

from __future__ import annotations

import json
import re
from typing import Any

from ingestion.documents import (
    ParseError,
)


def load_json(text: str) -> tuple[Any, str | None]:
    """The JSON value of ``text`` and the warning naming what was repaired (None when it was strict JSON).

    Strict JSON first (the fast path, nearly every file); only when that fails, and only when what strict JSON refused
    is trailing commas and comments (JSON5's liberties that a résumé may carry), the text with them blanked out: its
    other liberties (unquoted keys, single quotes) are more likely a broken file than a résumé, and are refused, with
    the strict parser's line and column. The blanked text is read by the strict parser, in C, in time linear in the
    file: a JSON5 parser written in Python is many times slower per byte.
    """
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        repaired = _comma_and_comment_repairs(text, exc)
        if repaired is None:
            raise ParseError(f"The JSON is not valid: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        data, repairs = repaired
        return data, _repair_warning(repairs)
    except RecursionError:
        raise ParseError("The JSON is nested too deeply to be a résumé.") from None
    except ValueError as exc:  # e.g. an integer with thousands of digits
        raise ParseError(f"The JSON is not valid: {str(exc)[:120]}") from None


MAX_NAMED_REPAIRS = 20  # each is one more strict parse of the file: a file of a thousand trailing commas is refused


def _comma_and_comment_repairs(text: str, error: json.JSONDecodeError) -> tuple[Any, list[str]] | None:
    """The JSON value of ``text`` without its trailing commas and comments, and "a trailing comma at line 4, column
    33", ... for every spot where strict JSON stopped at one; None when it stops at anything else (the file is then
    refused) or past MAX_NAMED_REPAIRS spots.

    Each spot found is blanked (newlines kept, so lines and columns stay those of the file) and the parse retried.
    """
    chars = list(text)
    current = text
    repairs: list[str] = []
    while len(repairs) < MAX_NAMED_REPAIRS:
        pos = error.pos
        if current.startswith("//", pos):
            newline = current.find("\n", pos)
            what, at, span = "a comment", pos, range(pos, newline if newline >= 0 else len(current))
        elif current.startswith("/*", pos):
            close = current.find("*/", pos + 2)
            if close < 0:  # a comment never closed: nothing to repair
                return None
            what, at, span = "a comment", pos, range(pos, close + 2)
        elif current[pos : pos + 1] in ("]", "}"):
            comma = pos - 1
            while comma >= 0 and current[comma] in " \t\r\n":
                comma -= 1
            if comma < 0 or current[comma] != ",":
                return None
            what, at, span = "a trailing comma", comma, range(comma, comma + 1)
        else:
            return None
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        repairs.append(f"{what} at line {line}, column {column}")
        for index in span:
            if chars[index] != "\n":
                chars[index] = " "
        current = "".join(chars)
        try:
            data = json.loads(current)
        except json.JSONDecodeError as exc:
            error = exc
        except (ValueError, RecursionError):
            return None
        else:
            return data, repairs
    return None


def _repair_warning(repairs: list[str]) -> str:
    listed = repairs[0] if len(repairs) == 1 else ", ".join(repairs[:-1]) + " and " + repairs[-1]
    verb = "was" if len(repairs) == 1 else "were"
    return f"The JSON was repaired: {listed} (which JSON does not allow) {verb} ignored."


# JSON can escape half of a UTF-16 pair ("\ud800"): such a string cannot be encoded as UTF-8 or stored.
SURROGATE_ESCAPE_RE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")
LONE_SURROGATE_WARNING = "Some characters could not be read and were replaced with '\ufffd'."


def without_lone_surrogates(value: Any, replaced: list[int]) -> Any:
    """``value`` with every unpaired surrogate replaced by U+FFFD; appends to ``replaced`` for each string changed."""
    if isinstance(value, str):
        text, count = _LONE_SURROGATE_RE.subn("\ufffd", value)
        if count:
            replaced.append(count)
        return text
    if isinstance(value, list):
        return [without_lone_surrogates(item, replaced) for item in value]
    if isinstance(value, dict):
        return {without_lone_surrogates(k, replaced): without_lone_surrogates(v, replaced) for k, v in value.items()}
    return value
