"""Dates and durations as profile files write them: "May 2020", "2020-05", "2 years 6 months"."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from core.text import clean_text

__all__ = ["months_from_duration", "months_worked", "parse_month"]

_MONTHS = {
    "jan": 1,
    "january": 1,
    "feb": 2,
    "february": 2,
    "mar": 3,
    "march": 3,
    "apr": 4,
    "april": 4,
    "may": 5,
    "jun": 6,
    "june": 6,
    "jul": 7,
    "july": 7,
    "aug": 8,
    "august": 8,
    "sep": 9,
    "sept": 9,
    "september": 9,
    "oct": 10,
    "october": 10,
    "nov": 11,
    "november": 11,
    "dec": 12,
    "december": 12,
}
_MIN_YEAR, _MAX_YEAR = 1900, 2100

_ISO_RE = re.compile(r"^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?:[T ].*)?$")
_MONTH_NAME_RE = re.compile(r"^([A-Za-z]+)\.?,?\s+(?:\d{1,2},?\s+)?(\d{4})$")
_NUM_MONTH_YEAR_RE = re.compile(r"^(\d{1,2})[-/.](\d{4})$")


def _ym(year: int, month: int) -> str | None:
    if _MIN_YEAR <= year <= _MAX_YEAR and 1 <= month <= 12:
        return f"{year:04d}-{month:02d}"
    return None


def parse_month(s: str | None) -> str | None:
    """ "YYYY-MM" from "May 2020", "2020-05", "2020-05-17", "05/2020" or "2020" (January); None when not a date."""
    if not isinstance(s, str):
        return None
    s = clean_text(s)
    if not s or len(s) > 40:
        return None
    return _parse_clean_month(s)


@functools.lru_cache(maxsize=10_000)
def _parse_clean_month(s: str) -> str | None:
    """parse_month of a cleaned string of at most 40 characters: dates recur, each is read once per process."""
    m = _ISO_RE.match(s)
    if m:
        year = int(m.group(1))
        if m.group(2) is None:
            return _ym(year, 1)
        month = int(m.group(2))
        if m.group(3) is not None and not 1 <= int(m.group(3)) <= 31:
            return None
        return _ym(year, month)
    m = _MONTH_NAME_RE.match(s)
    if m:
        month = _MONTHS.get(m.group(1).lower())
        return _ym(int(m.group(2)), month) if month else None
    m = _NUM_MONTH_YEAR_RE.match(s)
    if m:
        return _ym(int(m.group(2)), int(m.group(1)))
    return None


_DURATION_PART_RE = re.compile(r"(\d{1,4}|an?|one)\s*(years?|yrs?|months?|mos?)\b", re.IGNORECASE)
_LESS_THAN_A_MONTH_RE = re.compile(r"less than a month", re.IGNORECASE)
_MAX_DURATION_MONTHS = 1200  # a hundred years: anything longer is not a duration


def months_from_duration(s: str | None) -> int | None:
    """Total months in "2 years 6 months", "1 year", "7 months", "a month"; None when no (plausible) duration."""
    if not isinstance(s, str) or len(s) > 200:
        return None
    return _months_from_short_duration(s)


@functools.lru_cache(maxsize=10_000)
def _months_from_short_duration(s: str) -> int | None:
    """months_from_duration of at most 200 characters: durations recur, each is read once per process."""
    total = 0
    found = False
    for m in _DURATION_PART_RE.finditer(s):
        qty = m.group(1).lower()
        n = 1 if qty in ("a", "an", "one") else int(qty)
        unit = m.group(2).lower()
        total += n * 12 if unit.startswith("y") else n
        found = True
    if not found and _LESS_THAN_A_MONTH_RE.search(s):
        return 0
    return total if found and total <= _MAX_DURATION_MONTHS else None


def _month_number(month: str) -> int:
    """Months since year 0 of a "YYYY-MM"."""
    return int(month[:4]) * 12 + int(month[5:7]) - 1


def months_worked(ranges: Iterable[tuple[str, str | None]], *, today: str) -> int:
    """Months covered by (start, end) "YYYY-MM" ranges, both months counted, overlaps once; an end of None runs to
    ``today`` ("YYYY-MM"). A range written backwards counts the months between its dates; months after ``today``
    are not worked yet."""
    last = _month_number(today)
    spans = []
    for start, end in ranges:
        first, final = _month_number(start), _month_number(end) if end else last
        if end is None and first > last:  # not started yet
            continue
        first, final = min(first, final), min(max(first, final), last)
        if first <= final:
            spans.append((first, final))
    total, reached = 0, -1  # reached: the last month counted so far
    for first, final in sorted(spans):
        if final > reached:
            total += final - max(first, reached + 1) + 1
            reached = final
    return total
