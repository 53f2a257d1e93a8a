"""The rows ``normalise`` hands the loader (``Normalised*``), and the list of a document's repairs."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

__all__ = [
    "MAX_REPAIRS",
    "NormalisedContribution",
    "NormalisedEducation",
    "NormalisedLanguage",
    "NormalisedPosition",
    "NormalisedProfile",
    "NormalisedSkill",
    "Repairs",
]

MAX_REPAIRS = 40  # warnings one file's repairs add: a garbage file should not bury the recruiter in thousands


class Repairs(list):
    """The warnings of one document's repairs, listed up to MAX_REPAIRS and then summed up in one line."""

    dropped = 0

    def append(self, message: str) -> None:
        if len(self) < MAX_REPAIRS:
            super().append(message)
        else:
            self.dropped += 1

    def listed(self) -> list[str]:
        if not self.dropped:
            return list(self)
        return [*self, f"{self.dropped} more repairs of this kind and others were made; only the first are listed."]


@dataclass(frozen=True, slots=True)
class NormalisedSkill:
    slug: str  # the canonical skill: the vocabulary's, or the one an unknown label creates
    name: str  # display name of a skill this label creates
    kind: str  # kind of a skill this label creates
    label_key: str  # the alias that leads to it
    label: str  # as the file wrote it, clipped to the column
    score: int
    section: str
    position: int


@dataclass(frozen=True, slots=True)
class NormalisedEducation:
    position: int
    degree: str
    field: str
    minor: str
    school: str
    start: dt.date | None  # the first day of the month, or of the year when the file gives the year alone
    end: dt.date | None
    start_year_only: bool = False  # the file gave the start's year alone: "2009", not "Jan 2009"
    end_year_only: bool = False


@dataclass(frozen=True, slots=True)
class NormalisedLanguage:
    position: int
    code: str
    name: str
    fluency: str
    raw: str


@dataclass(frozen=True, slots=True)
class NormalisedPosition:
    """A job, fitted to the position table: text clipped, dates in order, no end while current."""

    order: int  # its place among the jobs kept, in the file's order, from 0
    company: str
    title: str
    location: str
    start: dt.date | None
    end: dt.date | None  # None while current
    is_current: bool
    summary: str
    highlights: list[str]
    url: str


@dataclass(frozen=True, slots=True)
class NormalisedContribution:
    repository: str  # owner/name, clipped to the column
    repository_description: str
    topics: list[str]  # as written, each clipped to the column
    topic_slugs: list[str]  # their canonical skills, sorted
    topics_raw: str
    position: int
    role: str
    commits: int
    comments: int
    start: dt.date | None
    end: dt.date | None
    is_current: bool
    active_months: int | None
    summary: str


@dataclass(slots=True)
class NormalisedProfile:
    """One person as the tables hold them: the candidate's imported fields, its rows, how to recognise it again."""

    values: dict  # Candidate.IMPORTED_FIELDS → value
    skills: list[NormalisedSkill]
    education: list[NormalisedEducation]
    contributions: list[NormalisedContribution]
    identity_keys: list[tuple[str, str]]  # strongest first
    fingerprint: str  # document_sha256 of the document it came from
    warnings: list[str] = field(default_factory=list)
    positions: list[NormalisedPosition] = field(default_factory=list)  # the work history, in the file's order
    languages: list[NormalisedLanguage] = field(default_factory=list)
