"""Date ranges as CVs write them, in six languages: "Mar 2021 – Present", "04/2020 - heute", "2020 – oggi",
"January 2022 to present", "2016-2020", "seit 03.2019", "desde enero de 2020".

A month is "YYYY-MM" (January when the CV gives only a year), as in every document; which of a range's dates the CV
gave as a year alone is kept beside it (``start_is_year``, ``end_is_year``), for an education's dates, which keep that
precision. A range whose end is a word for now ("present", "heute", "aujourd'hui", "actualidad", "atual",
"oggi"...) or that starts with "since" is current.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

__all__ = ["DateRange", "as_year", "find_range", "find_year"]

_MONTH_WORDS = {
    1: "january jan januar janvier janv enero ene janeiro gennaio genn gen jänner",
    2: "february feb februar février févr fevrier febrero fevereiro fev febbraio febb",
    3: "march mar märz maerz mars marzo março marco",
    4: "april apr avril avr abril abr aprile",
    5: "may mai mayo maio maggio magg",
    6: "june jun juni juin junio junho giugno giu",
    7: "july jul juli juillet juil julio julho luglio lug",
    8: "august aug août aout agosto ago",
    9: "september sep sept septembre septiembre setiembre set setembro settembre sett",
    10: "october oct oktober okt octobre octubre outubro out ottobre ott",
    11: "november nov novembre noviembre novembro",
    12: "december dec dezember dez décembre déc decembre diciembre dic dezembro dicembre",
}
_MONTHS = {
    unicodedata.normalize("NFC", word): number for number, words in _MONTH_WORDS.items() for word in words.split()
}
_NOW_WORDS = (
    "present", "now", "today", "current", "currently", "ongoing", "date", "till date", "to date",
    "heute", "jetzt", "aktuell", "derzeit", "laufend", "bis heute", "dato",
    "aujourd'hui", "aujourd’hui", "présent", "actuel", "actuellement", "en cours", "ce jour",
    "actualidad", "presente", "hoy", "actual", "la actualidad", "el presente",
    "atual", "atualmente", "momento", "o momento", "hoje",
    "oggi", "attuale", "in corso", "ad oggi", "corrente",
)  # fmt: skip
_SINCE_WORDS = ("since", "seit", "depuis", "desde", "dal", "dall'", "da", "dès")

_MONTH_ALT = "|".join(sorted((re.escape(word) for word in _MONTHS), key=len, reverse=True))
_NOW_ALT = "|".join(sorted((re.escape(word) for word in _NOW_WORDS), key=len, reverse=True))
_SINCE_ALT = "|".join(re.escape(word) for word in _SINCE_WORDS)
# One date: a month by name ("Mar 2021", "enero de 2020", "März 2019"), by number ("04/2020", "03.2019", "2021-03")
# or a year alone. Digits are never part of a longer number ("2016-2020" is two years, not 2016-20).
_DATE = (
    rf"(?:(?:{_MONTH_ALT})\.?,?\s+(?:de\s+|del\s+)?(?:\d{{1,2}},?\s+)?(?<!\d)(?:19|20)\d\d(?!\d)"
    r"|(?<![\d/.])\d{1,2}\s?[/.]\s?(?:19|20)\d\d(?!\d)"
    r"|(?<!\d)(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])(?![\d/.])"
    r"|(?<![\d/.])(?:19|20)\d\d(?![\d/.]))"
)
_SEPARATOR = (
    r"\s*(?:[-–—−~→]|\bto\b|\buntil\b|\btill\b|\bthrough\b|\bbis\b|\bà\b|\bau\b|\ba\b|\bal\b|\bhasta\b|\baté\b"
    r"|\bfino a\b)\s*"
)
_RANGE_RE = re.compile(
    rf"(?P<start>{_DATE}){_SEPARATOR}(?:(?P<end>{_DATE})|(?P<now>{_NOW_ALT})\b)"
    rf"|\b(?:{_SINCE_ALT})\s+(?P<since>{_DATE})",
    re.IGNORECASE,
)
_ANY_YEAR_RE = re.compile(r"(?:19|20)\d\d")
_BEFORE_YEAR_CHARS = 30
_YEAR_RE = re.compile(r"(?<![\d/.])(?:19|20)\d\d(?![\d/.])")
_MONTH_NUMBER_RE = re.compile(r"^(\d{1,2})\s?[/.]\s?(\d{4})$")
_YEAR_MONTH_RE = re.compile(r"^(\d{4})[-/.](\d{1,2})$")
_NAMED_RE = re.compile(r"^([^\W\d]+)\.?,?\s+(?:de\s+|del\s+)?(?:\d{1,2},?\s+)?(\d{4})$")


class DateRange(NamedTuple):
    start: str | None
    end: str | None
    is_current: bool
    span: tuple[int, int]  # where the range stands in the line
    start_is_year: bool = False  # the CV gave the start as a year alone ("2009 – 2013")
    end_is_year: bool = False


def as_year(month: str | None, is_year: bool) -> str | None:
    """A "YYYY-MM" as "YYYY" when the CV gave its year alone: the precision an education's dates keep."""
    return month[:4] if month and is_year else month


def _is_year(text: str) -> bool:
    return text.strip().isdigit()


def _month(text: str) -> str | None:
    text = text.strip()
    if text.isdigit():
        return f"{text}-01"
    if m := _MONTH_NUMBER_RE.match(text):
        month, year = int(m.group(1)), m.group(2)
    elif m := _YEAR_MONTH_RE.match(text):
        year, month = m.group(1), int(m.group(2))
    elif m := _NAMED_RE.match(text):
        month, year = _MONTHS.get(m.group(1).casefold(), 0), m.group(2)
    else:
        return None
    return f"{year}-{month:02d}" if 1 <= month <= 12 else None


def find_range(line: str) -> DateRange | None:
    """The first date range in ``line``, or None."""
    if len(line) > 300:
        return None
    year = _ANY_YEAR_RE.search(line)
    if not year:
        return None
    # A range's first date, or "since", starts a few words before its first year: the long pattern of month names
    # is tried from there on, not at every character of the line.
    m = _RANGE_RE.search(line, max(0, year.start() - _BEFORE_YEAR_CHARS))
    if not m:
        return None
    if m.group("since"):
        return DateRange(_month(m.group("since")), None, True, m.span(), start_is_year=_is_year(m.group("since")))
    start, start_is_year = _month(m.group("start")), _is_year(m.group("start"))
    if m.group("now"):
        return DateRange(start, None, True, m.span(), start_is_year=start_is_year)
    end = m.group("end")
    return DateRange(start, _month(end), False, m.span(), start_is_year=start_is_year, end_is_year=_is_year(end))


def find_year(line: str) -> str | None:
    """A lone year in a short line ("2019", "Abschluss 2019"), as "YYYY"."""
    if len(line) > 120:
        return None
    m = _YEAR_RE.search(line)
    return m.group(0) if m else None
