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
    start: str | None = None  # "YYYY-MM", or "YYYY" when the file gives the year alone ("2009 – 2013")
    end: str | None = None  # as ``start``


@dataclass(frozen=True, slots=True)
class PositionEntry:
    """One job as the file wrote it: dates kept even when inverted or in the future (the parser warns)."""

    company: str = ""
    title: str = ""
    location: str = ""
    start: str | None = None  # "YYYY-MM"; None when the file gives none
    end: str | None = None  # "YYYY-MM"; None while current (or when the file gives none)
    is_current: bool = False
    summary: str = ""
    highlights: list[str] = field(default_factory=list)
    url: str = ""  # the company's site (work[].url, legacy work[].website)
    order: int = 0  # the entry's place in the file, from 0


@dataclass(frozen=True, slots=True)
class SkillEntry:
    label: str  # exactly as the file wrote it
    score: int  # 0-10
    category: str = ""  # the group the file filed it under (a JSON Resume skills[] entry's name), "" when none


@dataclass(frozen=True, slots=True)
class LanguageEntry:
    """A spoken language: ISO 639 code and English name (core.languages), fluency on core.languages' scale."""

    code: str  # "fr", "yue"; "" when the name is not one of a known language (then ``name`` is as written)
    name: str  # the English name ("French"), what ``ProfileDocument.spoken_languages`` lists
    fluency: str = ""  # one of core.languages.FLUENCY_LEVELS, "" when the file gives none we can read
    raw: str = ""  # as the file wrote it, language and fluency ("Japanese – Intermediate")


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
class AwardEntry:
    title: str
    awarder: str = ""
    date: str = ""  # as the file writes it ("2019-06-01", "2021"), when it is a date
    summary: str = ""

    def line(self) -> str:
        """One line for the profile: "Best Paper (ACM, 2019-06): for the work on X"."""
        where = ", ".join(part for part in (self.awarder, self.date) if part)
        text = f"{self.title} ({where})" if where else self.title
        return f"{text}: {self.summary}" if self.summary else text


@dataclass(frozen=True, slots=True)
class Identifiers:
    github: str = ""
    email: str = ""
    linkedin: str = ""  # the slug of linkedin.com/in/<slug>
    urls: list[str] = field(default_factory=list)
    more_github: list[str] = field(default_factory=list)  # further GitHub accounts, after ``github``
    twitter: str = ""  # Twitter/X handle, without "@"
    gitlab: str = ""
    stackoverflow: str = ""  # the numeric user id of stackoverflow.com/users/<id>


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
    positions: list[PositionEntry] = field(default_factory=list)  # in the file's order
    spoken_languages: list[str] = field(default_factory=list)  # the English names of ``languages``
    languages: list[LanguageEntry] = field(default_factory=list)
    skills_declared: int | None = None
    skills: list[SkillEntry] = field(default_factory=list)
    programming_languages_declared: int | None = None
    programming_languages: list[SkillEntry] = field(default_factory=list)
    contributions_declared: int | None = None
    contributions: list[ContributionEntry] = field(default_factory=list)
    awards: list[AwardEntry] = field(default_factory=list)  # JSON Resume's awards[]
    email: str = ""
    phone: str = ""  # as the file writes it; contact details, never an identity key
    website: str = ""
    identifiers: Identifiers = field(default_factory=Identifiers)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)
