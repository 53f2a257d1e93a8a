"""Education lines: degrees and schools, as the export writes each entry twice and runs it into the next."""

from __future__ import annotations

import re

from core.text import clean_text
from ingestion.documents import (
    EducationEntry,
)
from ingestion.parsers.progai.words import DEGREES_BY_INITIAL, GENERIC_DEGREE_RE, LONG_DEGREES_LOWER


def _degree_prefix(x: str) -> str:
    lowered = x.lower()
    for degree, lowered_degree in DEGREES_BY_INITIAL.get(lowered[:1], ()):
        if lowered.startswith(lowered_degree):
            end = len(degree)
            if end == len(x) or x[end] in " ,(-" or degree.endswith((")", ".")):
                return x[:end]
    m = GENERIC_DEGREE_RE.match(x)
    return m.group(0) if m else ""


_IN_PREFIX_RE = re.compile(r"^in\s+", re.IGNORECASE)
_MINOR_RE = re.compile(r"(?:^|\s|,)minor\s+in\s+", re.IGNORECASE)


def _entry_from_x(x: str, school: str) -> EducationEntry:
    x = clean_text(x)
    degree = _degree_prefix(x)
    rest = x[len(degree) :].strip(" ,-")
    rest = _IN_PREFIX_RE.sub("", rest)
    minor = ""
    m = _MINOR_RE.search(rest)
    if m:
        minor = rest[m.end() :].strip(" ,")
        rest = rest[: m.start()].strip(" ,")
    return EducationEntry(degree=degree, field=rest, minor=minor, school=clean_text(school))


def _find_all(text: str, sub: str, limit: int | None = None) -> list[int]:
    """Where ``sub`` occurs in ``text``, left to right, not overlapping (as re.finditer finds it); the first
    ``limit`` only."""
    found: list[int] = []
    i = text.find(sub)
    while i >= 0 and (limit is None or len(found) < limit):
        found.append(i)
        i = text.find(sub, i + len(sub))
    return found


def _duplication_matches(line: str) -> list[tuple[int, int, int]]:
    """(start, comma, at) for each "X, X at " in ``line``, left to right, not overlapping."""
    ats = _find_all(line, " at ", 60)
    commas = _find_all(line, ", ", 200)
    matches: list[tuple[int, int, int]] = []
    min_start = 0
    for a in ats:
        if a < min_start:
            continue
        best: tuple[int, int, int] | None = None
        for c in commas:
            if c < min_start or c + 2 >= a:
                continue
            length = a - (c + 2)
            s = c - length
            if s < min_start or line[s] != line[c + 2] or line[c - 1] != line[a - 1]:
                continue
            if line[s:c] == line[c + 2 : a] and (best is None or s < best[0]):
                best = (s, c, a)
        if best is not None:
            matches.append(best)
            min_start = best[2] + 4 + 1
    return matches


def _degree_starts(line: str) -> list[int]:
    """Positions where a known degree name starts (at 0 or glued right after the previous entry)."""
    starts = []
    lowered = line.lower()
    for degree in LONG_DEGREES_LOWER:  # abbreviations are too ambiguous inside running text
        for i in _find_all(lowered, degree):
            if i == 0 or (line[i - 1] != " " and not line[i - 1].isupper()):
                starts.append(i)
    return sorted(set(starts))


_REPEATED_ENTRY_RE = re.compile(r"^(.+?), \1(?: at (.*))?$")


def _entries_without_duplication(chunk: str) -> list[EducationEntry]:
    out = []
    starts = _degree_starts(chunk) or [0]
    if starts[0] != 0:
        starts.insert(0, 0)
    bounds = [*starts, len(chunk)]
    for i in range(len(bounds) - 1):
        part = chunk[bounds[i] : bounds[i + 1]].strip()
        if not part:
            continue
        m = _REPEATED_ENTRY_RE.match(part)
        if m:
            out.append(_entry_from_x(m.group(1), m.group(2) or ""))
            continue
        idx = part.find(" at ")
        if idx >= 0:
            out.append(_entry_from_x(part[:idx], part[idx + 4 :]))
        else:
            out.append(_entry_from_x(part, ""))
    return out


def parse_education(line: str) -> list[EducationEntry] | None:
    """Entries of the education line, or None when the line is not one.

    Each entry is written "X, X at School" with the next entry glued after the school name; X is
    "Degree Field minor in Minor". The repeated X is the strongest signal of where an entry starts.
    """
    if len(line) > 3000:
        return None
    matches = _duplication_matches(line)
    if not matches:
        if " at " in line and _degree_prefix(line) and len(line) <= 400:
            return _entries_without_duplication(line)
        return None
    entries: list[EducationEntry] = []
    if matches[0][0] > 0:
        entries.extend(_entries_without_duplication(line[: matches[0][0]]))
    for i, (s, c, a) in enumerate(matches):
        school_end = matches[i + 1][0] if i + 1 < len(matches) else len(line)
        school, schoolless = _split_trailing_duplicate(line[a + 4 : school_end])
        entries.append(_entry_from_x(line[s:c], school))
        if schoolless:
            entries.append(_entry_from_x(schoolless, ""))
    return [e for e in entries if e.degree or e.field or e.school]


def _split_trailing_duplicate(school: str) -> tuple[str, str]:
    """ "Purdue UniversityMaster's Degree, Master's Degree" -> ("Purdue University", "Master's Degree"): an entry
    without a school glued after the previous school name."""
    for c in _find_all(school, ", "):
        length = len(school) - (c + 2)
        if length > 0 and c - length >= 1 and school[c - length : c] == school[c + 2 :]:
            return school[: c - length].strip(), school[c + 2 :]
    return school, ""
