"""Positions and education entries: blocks of a section, each anchored on its date range.

A CV writes an entry's title, company (or degree, school) and dates in a few layouts: "Title — Company" over the
dates, the company over the title and the dates, all on one line, or the dates first. Each date range starts an entry;
the short lines just before it (back to a blank line, a bullet or the previous entry's text) and the rest of its own
line are its heading, and what follows until the next entry's heading is its description. A section without any date
is cut at its blank lines. Title and company are told apart by the words job titles use; without such a word the
first is the title, as in "Title — Company".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.text import clean_text
from ingestion.documents import EducationEntry, PositionEntry
from ingestion.parsers.cv.dates import DateRange, as_year, find_range, find_year
from ingestion.parsers.cv.sections import is_bullet, plain

__all__ = ["Entry", "education_of", "entries_of", "heading_start", "is_job_title", "positions_of"]

_MAX_HEADING_LINES = 2
_MAX_HEADING_CHARS = 90
_MARK_SPLIT_RE = re.compile(r"\s+[|–—@·•-]\s+|,\s+|\s*\|\s*|\t+|\s{3,}")
# A position's heading also splits at the words for "at" ("Engineer at Globex", "Entwickler bei", "chez", "en",
# "presso", "na", "em"); an education's does not ("Grado en Ingeniería" is one degree).
_SPLIT_RE = re.compile(_MARK_SPLIT_RE.pattern + r"|\s+(?:at|bei|chez|en|presso|na|no|em)\s+")
_TITLE_RE = re.compile(
    r"engineer|developer|programmer|architect|manager|lead\b|head of|director|consultant|analyst|scientist|designer|"
    r"administrator|intern|cto|ceo|founder|devops|sre\b|specialist|researcher|officer|technician|tester|owner|"
    r"entwickler|ingenieur|berater|leiter|werkstudent|praktikant|softwarearchitekt|"
    r"ingénieur|développeur|développeuse|chef de|stagiaire|responsable|"
    r"desarrollador|ingeniero|jefe|becario|programador|analista|"
    r"engenheiro|desenvolvedor|estagiário|gerente|"
    r"sviluppatore|sviluppatrice|ingegnere|responsabile|stagista|tirocinante|programmatore",
    re.IGNORECASE,
)
_SCHOOL_RE = re.compile(
    r"universit|hochschule|college|institut|school|academy|akademie|école|ecole|escuela|escola|faculdade|facolt|"
    r"politecnico|polytechn|gymnasium|lycée|liceo|\bTU\b|\bETH\b|\bEPFL\b|\bKTH\b|\bMIT\b",
    re.IGNORECASE,
)
_DEGREE_RE = re.compile(
    r"^(?P<degree>b\.?\s?sc\.?|m\.?\s?sc\.?|b\.?\s?a\.?|m\.?\s?a\.?|b\.?\s?eng\.?|m\.?\s?eng\.?|ph\.?\s?d\.?|mba|"
    r"bachelor(?:'s)?(?: of (?:science|arts|engineering))?|master(?:'s)?(?: of (?:science|arts|engineering))?|"
    r"doctorate|diplom(?:-ingenieur| ingenieur)?|diploma|licence|licenciatura|laurea(?: magistrale| triennale)?|"
    r"dottorato|mestrado|doutorado|grado|máster|master|ingénieur|dipl\.-ing\.?|abitur|baccalauréat)(?!\w)"
    r"(?:\s*(?:in|of|en|em|in|de|di|,|-|–|:)\s+|\s+)?(?P<field>.*)$",
    re.IGNORECASE,
)
_DEGREE_WORD_RE = re.compile(
    r"\b(?:bsc|msc|b\.sc|m\.sc|bachelor|master|phd|ph\.d|mba|diplom|diploma|licence|licenciatura|laurea|dottorato|"
    r"mestrado|doutorado|grado|máster|degree|abschluss|abitur|baccalauréat)",
    re.IGNORECASE,
)


@dataclass(slots=True)
class Entry:
    heading: list[str] = field(default_factory=list)
    dates: DateRange | None = None
    body: list[str] = field(default_factory=list)


def is_job_title(text: str) -> bool:
    """Whether ``text`` holds a word job titles use ("Engineer", "Entwickler", "Sviluppatore")."""
    return bool(_TITLE_RE.search(text))


def _is_heading_line(line: str, *, bullets: bool = False) -> bool:
    """A short line that ends no sentence; a bullet item only when ``bullets`` (the entry's dates are one too: a CV
    that bullets every line, as Markdown ones do)."""
    if not 0 < len(line) <= _MAX_HEADING_CHARS or (is_bullet(line) and not bullets):
        return False
    return not line.endswith((".", ";")) and line.count(" ") <= 12


def heading_start(lines: list[str], index: int, *, floor: int = 0) -> int:
    """Where the heading of the entry dated on line ``index`` starts: the short lines just before it, no further back
    than ``floor``."""
    start = index
    while (
        start > floor
        and index - start < _MAX_HEADING_LINES
        and _is_heading_line(lines[start - 1], bullets=is_bullet(lines[index]))
        and not find_range(lines[start - 1])
    ):
        start -= 1
    return start


def entries_of(lines: list[str]) -> list[Entry]:
    """The section's entries in order: one a date range, or one a block between blank lines when it has no date."""
    anchors = [(index, dates) for index, line in enumerate(lines) if (dates := find_range(line))]
    if not anchors:
        return _blocks(lines)
    entries: list[Entry] = []
    taken_until = 0  # lines before this belong to an earlier entry's heading or body
    starts: list[int] = []
    for index, dates in anchors:
        start = heading_start(lines, index, floor=taken_until)
        starts.append(start)
        taken_until = index + 1
        line = lines[index]
        rest = clean_text((line[: dates.span[0]] + " " + line[dates.span[1] :]).strip(" ,|–—-()"))
        entries.append(Entry(heading=[*lines[start:index], *([rest] if _has_words(rest) else [])], dates=dates))
    ends = [*starts[1:], len(lines)]
    for entry, (index, _), end in zip(entries, anchors, ends, strict=True):
        body = [line for line in lines[index + 1 : end] if line]
        if not entry.heading:  # the dates came first: the entry's heading follows them
            bullets = is_bullet(lines[index])
            while body and len(entry.heading) < _MAX_HEADING_LINES and _is_heading_line(body[0], bullets=bullets):
                entry.heading.append(body.pop(0))
        entry.body = body
    if starts and starts[0] > 0 and not entries[0].heading:
        entries[0].heading = [line for line in lines[: starts[0]] if line][-_MAX_HEADING_LINES:]
    return entries


def _has_words(text: str) -> bool:
    return sum(char.isalpha() for char in text) >= 2


def _blocks(lines: list[str]) -> list[Entry]:
    entries, current = [], []
    for line in [*lines, ""]:
        if line:
            current.append(line)
        elif current:
            bullets = is_bullet(current[0])
            heading = [line for line in current[:_MAX_HEADING_LINES] if _is_heading_line(line, bullets=bullets)]
            entries.append(Entry(heading=heading, body=current[len(heading) :]))
            current = []
    return entries


def _parts(heading: list[str], splitter: re.Pattern = _SPLIT_RE) -> list[str]:
    parts = (clean_text(part) for line in heading for part in splitter.split(plain(line)))
    return [part for part in parts if part and _has_words(part)]


def positions_of(lines: list[str]) -> list[PositionEntry]:
    positions = []
    for entry in entries_of(lines):
        parts = _parts(entry.heading)
        if not parts or (entry.dates is None and len(parts) < 2):
            continue
        titled = [part for part in parts if _TITLE_RE.search(part)]
        title = titled[0] if titled else parts[0]
        others = [part for part in parts if part != title]
        company = others[0] if others else ""
        location = others[1] if len(others) > 1 and len(others[1]) <= 40 else ""
        dates = entry.dates or DateRange(None, None, False, (0, 0))
        highlights = [plain(line) for line in entry.body if len(line) <= 500]
        positions.append(
            PositionEntry(
                company=company,
                title=title,
                location=location,
                start=dates.start,
                end=dates.end,
                is_current=dates.is_current,
                highlights=highlights,
                order=len(positions),
            )
        )
    return positions


def education_of(lines: list[str]) -> list[EducationEntry]:
    education = []
    for entry in entries_of(lines):
        candidates = entry.heading + entry.body[:3]
        parts = _parts(candidates, _MARK_SPLIT_RE)
        school = next((part for part in parts if _SCHOOL_RE.search(part)), "")
        degree_text = next((part for part in parts if _DEGREE_WORD_RE.search(part) and part != school), "")
        if not school and not degree_text:
            continue
        if not school:
            school = next((part for part in parts if part != degree_text), "")
        degree, field_of_study = degree_text, ""
        if m := _DEGREE_RE.match(degree_text):
            degree, field_of_study = m.group("degree").strip(), m.group("field").strip(" ,-–")
        # A year alone stays a year ("2009 – 2013"): the profile shows what the CV wrote, not "Jan 2013".
        dates = entry.dates
        start = as_year(dates.start, dates.start_is_year) if dates else None
        end = as_year(dates.end, dates.end_is_year) if dates else None
        if dates is None:
            end = next((year for line in candidates if (year := find_year(line))), None)
        education.append(EducationEntry(degree=degree, field=field_of_study, school=school, start=start, end=end))
    return education
