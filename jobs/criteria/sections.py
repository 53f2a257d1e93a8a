"""A post's lines and its sections: which heading each line falls under, and the role that gives its skills
(required, preferred or a mere mention)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from jobs import places
from jobs.criteria.result import MENTIONED, PREFERRED, REQUIRED

_BULLET_RE = re.compile(r"^\s*(?:[-*\u2022\u2023\u25e6\u2043\u2219\u00b7\u25aa\u25cf\u2013\u2014]|\d{1,2}[.)])\s+")
PREFERRED_HEADING_RE = re.compile(
    r"^(?:nice[- ]to[- ]haves?|(?:(?:it'?s|it is|would be)\s+)?(?:a\s+)?(?:big\s+)?(?:plus(?:es)?|bonus(?:\s+points)?)"
    r"(?:\s+if(?:\s+you)?(?:\s+\w+)?)?|"
    r"bonus points?|preferred(?:\s+\w+)?|desirable(?:\s+\w+)?|good to have|even better|extra (?:credit|points)|"
    r"(?:it )?would be (?:great|nice)(?: if)?|optional|what would be a plus|brownie points|ideally(?:\s+\w+)?)$"
)
REQUIRED_HEADING_RE = re.compile(
    r"^(?:(?:key |minimum |basic |essential |technical )?requirements?|required(?:\s+\w+)?|must[- ]haves?|"
    r"(?:what )?you(?:'ll)? (?:have|need|bring)|what you(?:'ll| will)? need|what we(?:'re| are) looking for|"
    r"what we look for|who you are|about you|you are|your (?:profile|skills|experience|background)|"
    r"(?:minimum |basic |required )?qualifications|skills(?: (?:and|&) experience)?|(?:the )?essentials?|"
    r"what we expect|we expect|you should have|what you bring|experience|ideal candidate|the ideal candidate)$"
)


_HEADING_MARKS_RE = re.compile(r"^[#\s*_]+|[*_]+")
_HEADING_END_RE = re.compile(r"[\s:!.]*")  # matched on the reversed text: the run of these that ends it


def heading_text(line: str) -> str:
    line = _HEADING_MARKS_RE.sub("", line)
    return line[: len(line) - _HEADING_END_RE.match(line[::-1]).end()].strip().lower()


def _is_heading(line: str, next_line: str | None) -> bool:
    stripped = line.strip()
    if not stripped or _BULLET_RE.match(line) or len(stripped) > 60 or len(stripped.split()) > 8:
        return False
    if stripped.endswith(":") or stripped.startswith("#"):
        return True
    if stripped.endswith((".", ",", ";")):
        return False
    heading = heading_text(stripped)
    if PREFERRED_HEADING_RE.match(heading) or REQUIRED_HEADING_RE.match(heading):
        return True
    return next_line is not None and next_line.strip() != "" and (stripped[:1].isupper() or stripped[:1].isdigit())


def _heading_role(heading: str) -> str:
    if PREFERRED_HEADING_RE.match(heading):
        return PREFERRED
    if REQUIRED_HEADING_RE.match(heading):
        return REQUIRED
    return MENTIONED


@dataclass(slots=True)
class Line:
    start: int
    end: int
    role: str  # the section's default for its skills
    bullet_end: int | None  # where a list item's text starts (after its bullet), None when the line is no item


def read_lines(text: str) -> tuple[list[Line], int, list[tuple[int, int]]]:
    """The lines with their section roles, where the heading block ends, and the spans of place sections."""
    raw = text.split("\n")
    offsets, pos = [], 0
    for line in raw:
        offsets.append(pos)
        pos += len(line) + 1
    header_end = 0
    for index, line in enumerate(raw):  # the heading block: up to three lines before the first blank one
        if not line.strip() or index == 3 or len(line) > 150 or _BULLET_RE.match(line):
            break
        if _inline_heading(line) or _heading_role(heading_text(line)) != MENTIONED or line.rstrip().endswith(":"):
            break
        header_end = offsets[index] + len(line)
    lines, role, place_spans, place_start = [], MENTIONED, [], None
    for index, line in enumerate(raw):
        start, end = offsets[index], offsets[index] + len(line)
        nxt = next((r for r in raw[index + 1 : index + 2]), None)
        if start >= header_end and _is_heading(line, nxt) and not _inline_heading(line):
            heading = heading_text(line)
            role = _heading_role(heading)
            if place_start is not None:
                place_spans.append((place_start, start))
                place_start = None
            if places.is_place_heading(heading):
                place_start = start
            lines.append(Line(start, end, MENTIONED, None))
            continue
        bullet = _BULLET_RE.match(line)
        line_role = MENTIONED if start < header_end else role
        item_start = start + bullet.end() if bullet else None
        if inline := _inline_heading(line):  # "Must have: Go, Kafka": the items start after the colon
            line_role = inline
            colon = line.index(":") + 1
            item_start = start + colon + len(line[colon:]) - len(line[colon:].lstrip())
        lines.append(Line(start, end, line_role, item_start))
    if place_start is not None:
        place_spans.append((place_start, len(text)))
    return lines, header_end, place_spans


def _inline_heading(line: str) -> str | None:
    """The role of a line like "Must have: Go, Kafka" (a heading and its items on one line)."""
    head, colon, rest = line.partition(":")
    if not colon or not rest.strip() or len(head) > 40:
        return None
    heading = heading_text(head)
    if PREFERRED_HEADING_RE.match(heading):
        return PREFERRED
    if REQUIRED_HEADING_RE.match(heading):
        return REQUIRED
    return None


def line_of(lines: list[Line], position: int) -> Line:
    low, high = 0, len(lines) - 1
    while low < high:
        mid = (low + high + 1) // 2
        if lines[mid].start <= position:
            low = mid
        else:
            high = mid - 1
    return lines[low]
