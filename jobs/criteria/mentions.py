"""One mention of a skill in the text, as the rules judge it."""

from __future__ import annotations

from dataclasses import dataclass

from jobs.criteria.result import MENTIONED
from jobs.criteria.sections import Line
from jobs.matching import Match


@dataclass(slots=True)
class Found:
    match: Match
    surface: str  # as written, without its version
    line: Line
    ambiguous: bool
    role: str = MENTIONED
    dropped: str | None = None
