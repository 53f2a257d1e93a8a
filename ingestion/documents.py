"""Typed documents: what a parser returns and a loader consumes. Pure data, no database.

``ProfileDocument.to_dict()`` has the shape of ``shared/corpus/progai/jinliang-wei.expected.json`` (plus extras).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field


class ParseError(ValueError):
    """A file that holds no usable profile. The message is shown to recruiters: say what is wrong, in plain words."""


@dataclass(frozen=True, slots=True)
class Location:
    city: str = ""
    region: str = ""
    country: str = ""
    country_code: str = ""  # ISO 3166-1 alpha-2, "" when unknown


@dataclass(frozen=True, slots=True)
class EducationEntry:
    degree: str = ""
    field: str = ""
    minor: str = ""
    school: str = ""


@dataclass(frozen=True, slots=True)
class SkillEntry:
    label: str  # exactly as the file wrote it
    score: int  # 0-10


@dataclass(frozen=True, slots=True)
class ContributionEntry:
    repository: str  # owner/name
    repository_description: str = ""
    start: str | None = None  # "YYYY-MM"
    end: str | None = None  # "YYYY-MM"; None while ongoing ("Present")
    role: str = ""
    commits: int = 0
    comments: int = 0
    active_months: int | None = None
    summary: str = ""
    topics: list[str] = field(default_factory=list)
    topics_raw: str = ""
    is_current: bool = False


@dataclass(frozen=True, slots=True)
class Identifiers:
    github: str = ""
    email: str = ""
    linkedin: str = ""
    urls: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ProfileDocument:
    format: str  # "progai" | "jsonresume"
    name: str
    headline: str = ""
    title: str = ""
    company: str = ""
    location: Location = field(default_factory=Location)
    badges: list[str] = field(default_factory=list)
    summary: str = ""
    years_coding: int | None = None
    years_employed: int | None = None
    education: list[EducationEntry] = field(default_factory=list)
    spoken_languages: list[str] = field(default_factory=list)
    skills_declared: int | None = None
    skills: list[SkillEntry] = field(default_factory=list)
    programming_languages_declared: int | None = None
    programming_languages: list[SkillEntry] = field(default_factory=list)
    contributions_declared: int | None = None
    contributions: list[ContributionEntry] = field(default_factory=list)
    email: str = ""
    website: str = ""
    identifiers: Identifiers = field(default_factory=Identifiers)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)
