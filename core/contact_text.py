"""Contact details written in free text (a CV's): e-mail addresses, phone numbers and web addresses.

One set of patterns for the CV reader, which takes the candidate's own from the CV's header, and for the pages that
show a stored CV's text to readers who may not see contact details, which hide every one of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

__all__ = ["EMAIL_RE", "PHONE_RE", "URL_RE", "is_date", "phone_matches", "without_contact_details"]

EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+")
PHONE_RE = re.compile(r"(?<![\w+])(?:\+|00)?\(?\d[\d\s()./-]{6,20}\d(?!\w)")
URL_RE = re.compile(
    r"(?:https?://|www\.)[^\s<>()\"'|·•,]{2,300}"
    r"|\b(?:github\.com|gitlab\.com|linkedin\.com|[a-z]{2,3}\.linkedin\.com|stackoverflow\.com)/[^\s<>()\"'|·•,]{1,200}",
    re.IGNORECASE,
)
# Day, month and year as Europe writes them (12.03.1990, 12/03/1990, 12-03-1990), or year first (1990-03-12).
_DAY_FIRST_RE = re.compile(r"(\d{1,2})\s?[./-]\s?(\d{1,2})\s?[./-]\s?(\d{4})")
_YEAR_FIRST_RE = re.compile(r"(\d{4})\s?[./-]\s?(\d{1,2})\s?[./-]\s?(\d{1,2})")
_YEAR_RANGE_RE = re.compile(r"(?:19|20)\d\d\s?[-/.]\s?(?:19|20)\d\d")  # 2019-2023: a period, no number
_PHONE_DIGITS = range(8, 16)  # E.164 allows 15; fewer than 8 is an extension, a postcode or a year


def is_date(text: str) -> bool:
    """Whether ``text`` is a calendar date and nothing else: "12.03.1990", "1990-03-12" (a birth date or a letter's
    date, which the phone pattern would otherwise take for a number)."""
    text = text.strip()
    if m := _DAY_FIRST_RE.fullmatch(text):
        day, month, year = (int(g) for g in m.groups())
        # A month first (03/12/1990) is a date as well.
        return _valid(year, month, day) or _valid(year, day, month)
    if m := _YEAR_FIRST_RE.fullmatch(text):
        year, month, day = (int(g) for g in m.groups())
        return _valid(year, month, day)
    return False


def _valid(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return 1900 <= year <= 2100


def phone_matches(text: str) -> Iterator[re.Match[str]]:
    """What in ``text`` may be a phone number: 8 to 15 digits, and no date or range of years."""
    for m in PHONE_RE.finditer(text):
        found = m.group(0)
        digits = sum(char.isdigit() for char in found)
        if digits in _PHONE_DIGITS and not is_date(found) and not _YEAR_RANGE_RE.fullmatch(found.strip()):
            yield m


EMAIL_WITHHELD = "[e-mail address withheld]"
PHONE_WITHHELD = "[phone number withheld]"
LINK_WITHHELD = "[link withheld]"


def without_contact_details(text: str) -> str:
    """``text`` with every e-mail address, web address and phone number replaced by a note that it is withheld.

    Errs on the side of hiding: a number that reads like a phone number (an ID number) is hidden too."""
    text = EMAIL_RE.sub(EMAIL_WITHHELD, text)
    text = URL_RE.sub(LINK_WITHHELD, text)
    spans = [m.span() for m in phone_matches(text)]
    for start, end in reversed(spans):
        text = text[:start] + PHONE_WITHHELD + text[end:]
    return text
