"""The export's layout: its headings and labels, the patterns that find them, and what one line is."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from typing import TypeVar

from core.text import clean_text

MAX_WARNINGS = 40
MAX_NAME_LENGTH = 200


AD_MARKER = "Find and Hire Top Developers"
# The line the export ends with: the marker glued to the rest of the advertisement. Parsing looks for the marker only.
ADVERTISEMENT = (
    AD_MARKER + "We’ve analyzed the programming source code of over 60 million software developers on GitHub and "
    "scored them by 50,000 skills. Sign-up on Prog,AI to search for software developers."
)

# Headings and labels as the export writes them; the patterns below also read other spellings (any case, "About",
# spaces around the colon, "Contribution summary").
SUMMARY_HEADING = "Summary"
SKILLS_HEADING = "Github Skills"
LANGUAGES_HEADING = "Programming languages"
CONTRIBUTIONS_HEADING = "Github contributions"
YEARS_CODING_TEXT = "of coding experience"
YEARS_EMPLOYED_TEXT = "of employment as a software developer"
ROLE_LABEL = "Role in this project:"
STATS_LABEL = "Contributions:"
CONTRIBUTION_SUMMARY_LABEL = "Contributions summary:"
PRESENT = "Present"  # the end of an ongoing contribution's date range
_FORMAT_MARKERS = (
    f"{SKILLS_HEADING} (",
    f"{CONTRIBUTIONS_HEADING} (",
    f"years {YEARS_CODING_TEXT}",
    f"{LANGUAGES_HEADING} (",
)

YEARS_CODING_RE = re.compile(
    r"^(\d{1,3})\+?\s+years?\s+of\s+coding\s+experience\.?$|^less\s+than\s+(?:a|one|1)\s+years?\s+of\s+coding"
    r"\s+experience\.?$",
    re.IGNORECASE,
)
YEARS_EMPLOYED_RE = re.compile(
    r"^(\d{1,3})\+?\s+years?\s+of\s+(?:professional\s+)?employment\b.*$|^less\s+than\s+(?:a|one|1)\s+years?\s+of"
    r"\s+(?:professional\s+)?employment\b.*$",
    re.IGNORECASE,
)
_COUNT = r"\(\s*(\d{1,3}(?:,\d{3})*|\d{1,7})\s*\)"
_SECTION_RES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("skills", re.compile(r"^github\s+skills\s*(?:" + _COUNT + r"\s*(.*))?$", re.IGNORECASE)),
    ("languages", re.compile(r"^programming\s+languages\s*(?:" + _COUNT + r"\s*(.*))?$", re.IGNORECASE)),
    ("contributions", re.compile(r"^github\s+contributions\s*(?:" + _COUNT + r"\s*(.*))?$", re.IGNORECASE)),
)
SUMMARY_HEADER_RE = re.compile(r"^(?:summary|about)\s*:?$", re.IGNORECASE)
# How every line above starts (same flags): most lines do not, and one test rules out all six patterns.
_STRUCTURAL_START_RE = re.compile(r"github|programming|less|summary|about|\d", re.IGNORECASE)
_REPO_RE = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})$")
_DATE = r"(?:[A-Za-z]{3,9}\.?\s+\d{4}|\d{4}(?:-\d{1,2})?|\d{1,2}/\d{4})"
_DATE_RANGE_RE = re.compile(
    r"^(?P<start>" + _DATE + r")(?:\s*(?:-|\u2013|\u2014|to)\s*(?P<end>" + _DATE + r"|present|now|current|ongoing|"
    r"today))?$",
    re.IGNORECASE,
)
CONTRIB_SUMMARY_RE = re.compile(r"^contributions?\s+summary\s*:\s*(.*)$", re.IGNORECASE)


class Warnings(list):
    """A list of warnings that stops growing after MAX_WARNINGS (a garbage file should not yield thousands)."""

    def add(self, message: str) -> None:
        if len(self) < MAX_WARNINGS:
            self.append(message)
        elif len(self) == MAX_WARNINGS:
            self.append("More problems were found; only the first ones are listed.")


MAX_CACHED_LINE = 200
_T = TypeVar("_T")


def cached_for_short_lines(function: Callable[[str], _T]) -> Callable[[str], _T]:
    """Keep the results of a pure function of one line for lines of up to MAX_CACHED_LINE characters: such lines
    ("Contributor Contributions: 5 commits in 1 month") recur across profiles, and a worker reads each once."""
    cached = functools.lru_cache(maxsize=10_000)(function)

    @functools.wraps(function)
    def wrapper(line: str) -> _T:
        return cached(line) if len(line) <= MAX_CACHED_LINE else function(line)

    return wrapper


def shortened(s: str, limit: int = 60) -> str:
    s = clean_text(s)
    return s if len(s) <= limit else s[: limit - 1] + "\u2026"


def is_emoji_char(ch: str) -> bool:
    cp = ord(ch)
    if ch in "\u200d\ufe0f\ufe0e\u20e3" or 0xE0020 <= cp <= 0xE007F or 0x1F3FB <= cp <= 0x1F3FF:
        return True
    if 0x1F000 <= cp <= 0x1FAFF:
        return True
    return cp >= 0x2190 and unicodedata.category(ch) == "So"


def is_emoji_only(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and all(is_emoji_char(ch) or ch.isspace() for ch in stripped)


MAX_COUNT = 10_000_000  # commits, comments and declared totals above this are misreadings, not numbers


def _parse_int(s: str) -> int:
    return int(s.replace(",", ""))


def count_of(s: str | None) -> int | None:
    """A count written with optional thousands separators; None when absent or implausibly large."""
    if not s or len(s) > 12:
        return None
    value = _parse_int(s)
    return value if value <= MAX_COUNT else None


def match_section(line: str) -> tuple[str, int | None, str] | None:
    if line[:1] not in "gGpP":  # the headings start with "github" or "programming", in any case
        return None
    for kind, regex in _SECTION_RES:
        m = regex.match(line)
        if m:
            count = count_of(m.group(1))
            rest = (m.group(2) or "").strip()
            return kind, count, rest
    return None


def years_in(regex: re.Pattern[str], line: str) -> int | None:
    m = regex.match(line)
    if not m:
        return None
    return int(m.group(1)) if m.group(1) else 0


def is_repository(line: str) -> bool:
    return "/" in line and _REPO_RE.match(line) is not None


def match_date_range(line: str) -> re.Match[str] | None:
    """_DATE_RANGE_RE.match(line), without running the pattern on lines it cannot match: a date range starts with a
    digit, or with a month name followed by whitespace (a space, or one of the unprintable others)."""
    if line[:1].isdecimal() or " " in line or not line.isprintable():
        return _DATE_RANGE_RE.match(line)
    return None


def is_structural(line: str) -> bool:
    return _STRUCTURAL_START_RE.match(line) is not None and bool(
        match_section(line)
        or YEARS_CODING_RE.match(line)
        or YEARS_EMPLOYED_RE.match(line)
        or SUMMARY_HEADER_RE.match(line)
    )


def plausible_name(line: str) -> bool:
    if not line or len(line) > MAX_NAME_LENGTH or line[0] in "{[<":
        return False
    if not any(ch.isalpha() for ch in line):
        return False
    if is_structural(line) or is_repository(line) or match_date_range(line):
        return False
    lowered = line.lower()
    if "://" in lowered or "<html" in lowered or "<!doctype" in lowered:
        return False
    return len(line.split()) <= 12


def looks_like_progai(text: str) -> bool:
    """Markers of the export, or its name / headline / location / "Summary" layout (blank lines before the name
    aside)."""
    text = text.lstrip("\ufeff \t\n")
    lowered = text.lower()
    if any(marker.lower() in lowered for marker in _FORMAT_MARKERS):
        return True
    lines = [line.strip() for line in text.split("\n", 12)[:12] if line.strip()]
    return bool(lines) and any(SUMMARY_HEADER_RE.match(line) for line in lines[1:5])


def drop_advertisement(text: str) -> str:
    idx = text.lower().find(AD_MARKER.lower())
    if idx >= 0:
        return text[:idx]
    # A file cut inside the advertisement: drop a trailing start of it ("Find and Hi").
    tail = text.rstrip()
    for n in range(len(AD_MARKER) - 1, 7, -1):
        if tail.endswith(AD_MARKER[:n]):
            return tail[: len(tail) - n]
    return text
