"""The normalisation stage: a parsed document in, the rows a loader writes out, every repair a warning.

file → SourceFile → parser → ProfileDocument → **normalise** → NormalisedProfile → loader → models

``normalise`` is a pure function (no database, no network). It fits the document to the tables: text clipped to the
column lengths the models declare, skill and topic labels mapped to canonical skills through the vocabulary, a skill
named twice kept once (with the higher score), a repository named twice kept once, contribution dates in order,
implausible values dropped. Each repair adds a plain-words warning to the profile, which the recruiter reads on the
source file. The loader then only writes what it is given.

Before that, ``apply_limits`` holds a document to the per-file caps (``Limits``), before anything of it is looked up
in the database: the lookups create the skills and repositories every profile shares, which one file must not flood.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

import orjson
from django.db.models import Model

from core.identity import identifier_key, name_location_key, network_page, personal_site
from core.labels import label_key
from core.text import phone_text
from ingestion.documents import ContributionEntry, ParseError, PositionEntry, ProfileDocument
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    Education,
    Position,
    Repository,
    Skill,
    SkillAlias,
    SpokenLanguage,
)
from profiles.search import SEARCH_TEXT_MAX_CHARS
from profiles.skill_resolver import Resolved, near_form
from profiles.vocabulary import SkillVocabulary, skill_display_name, skill_slug

__all__ = [
    "Limits",
    "NormalisedContribution",
    "NormalisedEducation",
    "NormalisedLanguage",
    "NormalisedPosition",
    "NormalisedProfile",
    "NormalisedSkill",
    "apply_limits",
    "document_label_keys",
    "document_sha256",
    "identity_keys",
    "normalise",
]

MAX_YEARS = 100  # the candidate table's check constraints refuse more
MAX_REPAIRS = 40  # warnings one file's repairs add: a garbage file should not bury the recruiter in thousands


class _Repairs(list):
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
    start: dt.date | None
    end: dt.date | None


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


# --- Per-file caps --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """What one file may hold (the service builds it from the ``INGEST_MAX_*`` settings).

    Past a cap on what becomes shared rows (``skills``: the different skill, language and topic labels, each of which
    may become a skill every profile shares; ``contributions``: the repositories) the file fails: a list that long is
    no one person's profile, and its first entries would pass a wrong profile for a true one. Past a cap on what only
    the profile holds (``entries``: education, badges, awards, spoken languages, profile URLs, jobs and each job's
    highlights; ``text_chars``: a summary, a contribution's or a job's summary, a highlight, a repository's
    description) the rest is cut, with a warning.
    """

    skills: int
    contributions: int
    entries: int
    text_chars: int


def apply_limits(document: ProfileDocument, limits: Limits) -> ProfileDocument:
    """``document`` fitted to ``limits`` (a copy; cuts are warnings), or ``ParseError`` for a file past a count cap.

    Run before the document's labels and repositories are looked up: those lookups create the shared rows.
    """
    skill_keys, topic_keys = document_label_keys([document])
    if (labels := len(skill_keys | topic_keys)) > limits.skills:
        raise ParseError(
            f"The profile names {labels:,} different skills, programming languages and topics; at most "
            f"{limits.skills:,} are accepted per file."
        )
    if (repositories := len(document.contributions)) > limits.contributions:
        raise ParseError(
            f"The profile lists {repositories:,} repositories; at most {limits.contributions:,} are accepted per file."
        )
    warnings = list(document.warnings)
    lists = {}
    for name, what in (
        ("education", "education entries"),
        ("badges", "badges"),
        ("awards", "awards"),
        ("spoken_languages", "spoken languages"),
        ("positions", "jobs"),
    ):
        entries = getattr(document, name)
        if len(entries) > limits.entries:
            warnings.append(f"The profile lists {len(entries):,} {what}; the first {limits.entries:,} were kept.")
            lists[name] = entries[: limits.entries]
    if len(document.languages) > limits.entries:  # the entries behind spoken_languages, cut with them (one warning)
        lists["languages"] = document.languages[: limits.entries]
    identifiers = document.identifiers
    if len(identifiers.urls) > limits.entries:  # each is an identity key, looked up and locked by every load
        warnings.append(
            f"The profile lists {len(identifiers.urls):,} profile URLs; the first {limits.entries:,} were kept."
        )
        identifiers = dataclasses.replace(identifiers, urls=identifiers.urls[: limits.entries])
    cap = limits.text_chars
    summary = document.summary
    if len(summary) > cap:
        warnings.append(f"The summary was {len(summary):,} characters; cut to {cap:,}.")
        summary = summary[:cap]
    contributions, cut = [], 0
    for entry in document.contributions:
        if len(entry.summary) > cap or len(entry.repository_description) > cap:
            cut += (len(entry.summary) > cap) + (len(entry.repository_description) > cap)
            entry = dataclasses.replace(
                entry, summary=entry.summary[:cap], repository_description=entry.repository_description[:cap]
            )
        contributions.append(entry)
    if cut:
        warnings.append(
            f"{cut:,} contribution summaries or repository descriptions were longer than {cap:,} characters; "
            f"each was cut to {cap:,}."
        )
    positions = _positions_within(lists.get("positions", document.positions), limits, warnings)
    if len(warnings) == len(document.warnings):
        return document
    return dataclasses.replace(
        document,
        summary=summary,
        contributions=contributions,
        identifiers=identifiers,
        warnings=warnings,
        **{**lists, "positions": positions},
    )


def _positions_within(positions: list[PositionEntry], limits: Limits, warnings: list[str]) -> list[PositionEntry]:
    """The jobs with at most ``limits.entries`` highlights each and texts of at most ``limits.text_chars``."""
    cap, out, cut, long_lists = limits.text_chars, [], 0, 0
    for entry in positions:
        highlights = entry.highlights
        if len(highlights) > limits.entries:
            long_lists += 1
            highlights = highlights[: limits.entries]
        texts = [entry.summary, *highlights]
        if any(len(text) > cap for text in texts) or highlights is not entry.highlights:
            cut += any(len(text) > cap for text in texts)
            entry = dataclasses.replace(
                entry, summary=entry.summary[:cap], highlights=[text[:cap] for text in highlights]
            )
        out.append(entry)
    if cut:
        warnings.append(
            f"{cut:,} job summaries or highlights were longer than {cap:,} characters; each was cut to {cap:,}."
        )
    if long_lists:
        warnings.append(
            f"{long_lists:,} jobs list more than {limits.entries:,} highlights; the first {limits.entries:,} of each "
            "were kept."
        )
    return out


# --- The stage ----------------------------------------------------------------------------------------------------


def document_label_keys(
    documents: Iterable[ProfileDocument], vocabulary: SkillVocabulary | None = None
) -> tuple[set[str], set[str]]:
    """The label keys of the documents' skills and programming languages, and of their repositories' topics: what a
    vocabulary must know before ``normalise`` maps them (``ingestion.loaders.skill_vocabulary_resolve``).

    With the process's ``vocabulary``, a skill label is read through its resolver first: a label that names known
    skills stands for their slugs (each skill's own alias), one that is no technology for nothing, so that neither
    makes a skill; without it, every label as written."""
    skill_keys: set[str] = set()
    topic_keys: set[str] = set()
    new: dict[str, str] = {}  # near-identical form → the first new label's key: one new skill for both spellings
    for doc in documents:
        for entry in (*doc.skills, *doc.programming_languages):
            if vocabulary is None:
                skill_keys.add(label_key(entry.label))
                continue
            result = vocabulary.resolve(entry.label)
            if result.slugs:
                skill_keys.update(result.slugs)
            elif not result.not_technology:
                skill_keys.add(new.setdefault(near_form(result.key) or result.key, result.key))
        topic_keys.update(label_key(topic) for c in doc.contributions for topic in c.topics)
    return {key for key in skill_keys if _usable(key)}, {key for key in topic_keys if _usable(key)}


def _usable(key: str) -> bool:
    """A label key the alias table can hold: not empty, and not longer than its column."""
    return bool(key) and len(key) <= _max_length(SkillAlias, "label")


def normalise(document: ProfileDocument, vocabulary: SkillVocabulary) -> NormalisedProfile:
    """The rows of ``document``, fitted to the tables; its warnings first, then one for each repair."""
    repairs = _Repairs()
    skills, other_skills = _skills(document, vocabulary, repairs)
    profile = NormalisedProfile(
        values=_candidate_values(document, repairs, other_skills),
        skills=skills,
        education=_education(document, repairs),
        contributions=_contributions(document.contributions, vocabulary, repairs),
        positions=_positions(document.positions, repairs),
        languages=_languages(document, repairs),
        identity_keys=identity_keys(document),
        fingerprint=document_sha256(document),
    )
    _searched_text(profile, repairs)
    profile.warnings = [*document.warnings, *repairs.listed()]
    return profile


def _searched_text(profile: NormalisedProfile, warnings: list[str]) -> None:
    """Warn about text kept whole but searched only in part: ``profiles.search`` indexes the first
    SEARCH_TEXT_MAX_CHARS characters of the summary, of the skills, of the jobs and of the contributions (lengths as
    it joins them)."""
    cap = f"{SEARCH_TEXT_MAX_CHARS:,}"
    summary = len(profile.values["summary"])
    if summary > SEARCH_TEXT_MAX_CHARS:
        warnings.append(f"The summary is {summary:,} characters; only its first {cap} characters are searched.")
    skills = sum(len(skill.slug) + 1 for skill in profile.skills) - 1
    if skills > SEARCH_TEXT_MAX_CHARS:
        warnings.append(
            f"The skills' names hold {skills:,} characters; only their first {cap} characters are searched."
        )
    contributions = sum(2 * len(c.repository) + len(c.summary) + 3 for c in profile.contributions) - 1
    if contributions > SEARCH_TEXT_MAX_CHARS:
        warnings.append(
            f"The repositories and contribution summaries hold {contributions:,} characters; only their first {cap} "
            "characters are searched."
        )
    jobs = sum(len(p.title) + len(p.company) + 2 for p in profile.positions) - 1
    if jobs > SEARCH_TEXT_MAX_CHARS:
        warnings.append(
            f"The jobs' titles and companies hold {jobs:,} characters; only their first {cap} characters are searched."
        )


def identity_keys(doc: ProfileDocument) -> list[tuple[str, str]]:
    """External identifiers first (strongest), the name with location last, each in the one normalisation of
    ``core.identity.identifier_key`` (every spelling of an identifier is one key). A site is a key only when it is
    personal (``core.identity.personal_site``): the homepage of an employer the file lists names no one person."""
    kind = CandidateIdentifier.Kind
    ids = doc.identifiers
    work_sites = [position.url for position in doc.positions if position.url]
    companies = [doc.company, *(position.company for position in doc.positions)]
    written: list[tuple[str, str]] = [(kind.GITHUB, account) for account in (ids.github, *ids.more_github)]
    written.append((kind.EMAIL, ids.email or doc.email))
    written += [(kind.LINKEDIN, ids.linkedin), (kind.TWITTER, ids.twitter), (kind.GITLAB, ids.gitlab)]
    written.append((kind.STACKOVERFLOW, ids.stackoverflow))
    written += [
        (kind.URL, url)
        for url in ids.urls
        if url and (network_page(url) or personal_site(url, work_sites=work_sites, companies=companies))
    ]
    limit = _max_length(CandidateIdentifier, "value")
    keys = {
        (key_kind, key[:limit]): None
        for key_kind, value in written
        if value and (key := identifier_key(key_kind, value))
    }
    loc = doc.location
    place = loc.country_code or loc.country.casefold()
    keys[(kind.NAME_LOCATION, name_location_key(doc.name, loc.city, place)[:limit])] = None
    return list(keys)


def document_sha256(doc: ProfileDocument) -> str:
    """Fingerprint of everything a document says (its warnings aside): equal documents rewrite nothing.

    orjson serialises the dataclasses in C, field by field in declaration order: several times cheaper than their
    ``repr`` (and than ``to_dict()``), which stands in for the rare document orjson refuses (a lone surrogate).
    """
    content = dataclasses.replace(doc, warnings=[])
    try:
        data = orjson.dumps(content)
    except orjson.JSONEncodeError:
        data = repr(content).encode()
    return hashlib.sha256(data).hexdigest()


# --- Column lengths ------------------------------------------------------------------------------------------------


@functools.cache
def _max_length(model: type[Model], field_name: str) -> int | None:
    """The column's length, read from the model: a column widened in a migration is clipped at its new length."""
    target = model._meta.get_field(field_name)
    return getattr(target, "base_field", target).max_length  # an array's elements have the length


def _clip(model: type[Model], field_name: str, value: str, warnings: list[str], what: str = "") -> str:
    limit = _max_length(model, field_name)
    if limit and len(value) > limit:
        subject = what or f"{model._meta.verbose_name} {field_name}"
        warnings.append(f"{subject} was {len(value)} characters; cut to {limit}.")
        return value[:limit]
    return value


def _clip_all(model: type[Model], field_name: str, values: list[str], warnings: list[str], what: str) -> list[str]:
    return [_clip(model, field_name, value, warnings, what) for value in values]


# --- The candidate -------------------------------------------------------------------------------------------------


def _years(value: int | None, what: str, warnings: list[str]) -> int | None:
    if value is not None and value > MAX_YEARS:
        warnings.append(f"{what} was {value}; more than {MAX_YEARS} cannot be right, so it was left out.")
        return None
    return value


def _candidate_values(doc: ProfileDocument, warnings: list[str], other_skills: list[str]) -> dict:
    loc = doc.location
    email = doc.email
    if email and "@" not in email:
        warnings.append(f"The e-mail address “{email[:100]}” has no @; it was left out.")
        email = ""
    texts = {
        "name": doc.name,
        "headline": doc.headline,
        "title": doc.title,
        "company": doc.company,
        "city": loc.city,
        "region": loc.region,
        "country": loc.country,
        "country_code": loc.country_code,
        "summary": doc.summary,
        "email": email,
        "phone": phone_text(doc.phone),
        "website": doc.website,
    }
    values: dict = {name: _clip(Candidate, name, value or "", warnings) for name, value in texts.items()}
    values.update(
        badges=_clip_all(Candidate, "badges", doc.badges, warnings, "A badge"),
        spoken_languages=_clip_all(Candidate, "spoken_languages", doc.spoken_languages, warnings, "A spoken language"),
        years_coding=_years(doc.years_coding, "Years of coding", warnings),
        years_employed=_years(doc.years_employed, "Years employed", warnings),
        skills_declared=doc.skills_declared,
        programming_languages_declared=doc.programming_languages_declared,
        contributions_declared=doc.contributions_declared,
        awards=_clip_all(Candidate, "awards", [award.line() for award in doc.awards], warnings, "An award"),
        other_skills=other_skills,
    )
    return {name: values[name] for name in Candidate.IMPORTED_FIELDS}


# --- Skills --------------------------------------------------------------------------------------------------------


def _canonical(key: str, vocabulary: SkillVocabulary) -> tuple[str, str]:
    """(slug, display name) of the skill a label key leads to; an unknown key leads to a new skill."""
    slug = vocabulary.slug_of(key)
    if slug is not None:
        return slug, slug
    return skill_slug(key), skill_display_name(key)


def _new_skill(key: str, vocabulary: SkillVocabulary) -> tuple[str, str]:
    """(slug, display name) of the skill a label that names no known skill leads to: the one its import chunk
    created for it, or for a near-identical spelling of it (``document_label_keys``), else a new one."""
    slug = vocabulary.own_slug_of(key)
    if slug is not None:
        return slug, slug
    return skill_slug(key), skill_display_name(key)


# How many of a file's labels that are no technology its warning names; the profile keeps them all.
_OTHER_SKILLS_NAMED = 10


def _skills(
    doc: ProfileDocument, vocabulary: SkillVocabulary, warnings: list[str]
) -> tuple[list[NormalisedSkill], list[str]]:
    """The skills the labels name (``profiles.skill_resolver``), each once with its highest score and the label as
    written; and the labels that are no technology, as written, which the candidate keeps as text."""
    best: dict[str, NormalisedSkill] = {}  # canonical slug → the entry kept
    other: dict[str, str] = {}  # label key → as written
    sections = (
        (CandidateSkill.Section.SKILL, doc.skills),
        (CandidateSkill.Section.LANGUAGE, doc.programming_languages),
    )
    for section, entries in sections:
        for entry in entries:
            key = label_key(entry.label)
            if not key:
                continue
            if not _usable(key):
                warnings.append(
                    f"A skill label of {len(entry.label)} characters is too long to name a skill; left out."
                )
                continue
            result = vocabulary.resolve(entry.label)
            label = _clip(CandidateSkill, "label", entry.label, warnings, "A skill label")
            if result.not_technology:
                other.setdefault(key, _clip(Candidate, "other_skills", entry.label, warnings, "A skill label"))
                continue
            if result.warning:
                warnings.append(result.warning)
            # A known skill is created under its own slug if it went missing; a new one under the label's key.
            alias = key if result.how is Resolved.ALIAS else None
            targets = [(slug, slug, alias or slug) for slug in result.slugs] or [(*_new_skill(key, vocabulary), key)]
            for slug, name, alias in targets:
                kept = best.get(slug)
                if kept is None:
                    best[slug] = NormalisedSkill(
                        slug, name, Skill.Kind.SKILL, alias, label, entry.score, section.value, len(best)
                    )
                    continue
                if entry.score > kept.score:  # two labels of one skill: the higher score wins
                    best[slug] = dataclasses.replace(kept, label=label, score=entry.score, label_key=alias)
                warnings.append(
                    f"“{kept.label}” and “{label}” are the same skill ({slug}); kept the higher score, "
                    f"{max(kept.score, entry.score)}."
                )
    if other:
        named = ", ".join(f"“{label[:100]}”" for label in list(other.values())[:_OTHER_SKILLS_NAMED])
        more = f" and {len(other) - _OTHER_SKILLS_NAMED} more" if len(other) > _OTHER_SKILLS_NAMED else ""
        warnings.append(
            f"{len(other)} skill labels are no technology (soft skills, spoken languages, hobbies) and were kept on "
            f"the profile as written, not as skills: {named}{more}."
            if len(other) > 1
            else f"The skill label {named} is no technology; it was kept on the profile as written, not as a skill."
        )
    return list(best.values()), list(other.values())


# --- Education and contributions -----------------------------------------------------------------------------------


def _education(doc: ProfileDocument, warnings: list[str]) -> list[NormalisedEducation]:
    rows = []
    for position, entry in enumerate(doc.education):
        school = _clip(Education, "school", entry.school, warnings, "A school name")
        start, end = _in_order(
            _month(entry.start), _month(entry.end), f"The studies at {school or 'a school'}", warnings
        )
        rows.append(
            NormalisedEducation(
                position=position,
                degree=_clip(Education, "degree", entry.degree, warnings, "A degree"),
                field=_clip(Education, "field", entry.field, warnings, "A field of study"),
                minor=_clip(Education, "minor", entry.minor, warnings, "A minor"),
                school=school,
                start=start,
                end=end,
            )
        )
    return rows


def _in_order(start: dt.date | None, end: dt.date | None, what: str, warnings: list[str] | None) -> tuple:
    """The two months in order: the tables refuse an end before the start, and the parser has kept the file's. A
    swap is a warning, unless ``warnings`` is None (the parser has said it)."""
    if start and end and end < start:
        if warnings is not None:
            warnings.append(
                f"{what} ended ({end:%Y-%m}) before it started ({start:%Y-%m}); the two dates were swapped."
            )
        return end, start
    return start, end


def _languages(doc: ProfileDocument, warnings: list[str]) -> list[NormalisedLanguage]:
    """The spoken languages with their codes and fluency, each language once (the first mention kept)."""
    rows: list[NormalisedLanguage] = []
    seen: set[str] = set()
    for entry in doc.languages:
        name = _clip(SpokenLanguage, "name", entry.name, warnings, "A spoken language")
        key = entry.code or name.casefold()
        if not name or key in seen:
            continue
        seen.add(key)
        rows.append(
            NormalisedLanguage(
                position=len(rows),
                code=_clip(SpokenLanguage, "code", entry.code, warnings, "A language code"),
                name=name,
                fluency=entry.fluency,
                raw=_clip(SpokenLanguage, "raw", entry.raw, warnings, "A spoken language as written"),
            )
        )
    return rows


def _month(value: str | None) -> dt.date | None:
    if not value:
        return None
    year, month = value.split("-")[:2]
    return dt.date(int(year), int(month), 1)


def _positions(entries: list[PositionEntry], warnings: list[str]) -> list[NormalisedPosition]:
    """The jobs in the file's order, an exact repeat kept once, an inverted range swapped (the parser has said so)."""
    rows: list[NormalisedPosition] = []
    seen: set[tuple] = set()
    for entry in entries:
        named = " at ".join(part for part in (entry.title, entry.company) if part) or f"number {entry.order + 1}"
        content = (
            entry.company, entry.title, entry.location, entry.start, entry.end, entry.is_current, entry.summary,
            entry.url, *entry.highlights,
        )  # fmt: skip
        if content in seen:
            warnings.append(f"The job {named} was listed twice; the first entry was kept.")
            continue
        seen.add(content)
        # The parser has warned of an inverted range, naming the entry as the file numbers it.
        start, end = _in_order(_month(entry.start), _month(entry.end), f"The job {named}", warnings=None)
        texts = {
            name: _clip(Position, name, getattr(entry, name), warnings, what)
            for name, what in (("company", "A company name"), ("title", "A job title"), ("location", "A job location"))
        }
        rows.append(
            NormalisedPosition(
                order=len(rows),  # the kept jobs numbered afresh: the file's own index can pass the column's range
                start=start,
                end=end,
                is_current=entry.is_current and end is None,
                summary=entry.summary,
                highlights=list(entry.highlights),
                url=_clip(Position, "url", entry.url, warnings, "A company's site"),
                **texts,
            )
        )
    return rows


def _contributions(
    entries: list[ContributionEntry], vocabulary: SkillVocabulary, warnings: list[str]
) -> list[NormalisedContribution]:
    rows: list[NormalisedContribution] = []
    seen: set[str] = set()
    for position, entry in enumerate(entries):
        repository = _clip(Repository, "full_name", entry.repository, warnings, "A repository name")
        if repository in seen:
            warnings.append(f"The repository {repository} was listed twice; the first entry was kept.")
            continue
        seen.add(repository)
        start, end = _month(entry.start), _month(entry.end)
        if start and end and end < start:
            warnings.append(
                f"{repository}: the contribution ended ({end:%Y-%m}) before it started ({start:%Y-%m}); "
                "the two dates were swapped."
            )
            start, end = end, start
        keys = {key for topic in entry.topics if (key := label_key(topic))}
        if too_long := {key for key in keys if not _usable(key)}:
            warnings.append(f"{repository}: {len(too_long)} topics too long to name a skill were not linked to one.")
            keys -= too_long
        rows.append(
            NormalisedContribution(
                repository=repository,
                repository_description=entry.repository_description,
                topics=_clip_all(Repository, "topics", entry.topics, warnings, "A topic"),
                topic_slugs=sorted({_canonical(key, vocabulary)[0] for key in keys}),
                topics_raw=_clip(Repository, "topics_raw", entry.topics_raw, warnings, f"The topics of {repository}"),
                position=position,
                role=_clip(Contribution, "role", entry.role, warnings, "A contribution role"),
                commits=entry.commits,
                comments=entry.comments,
                start=start,
                end=end,
                is_current=entry.is_current,
                active_months=entry.active_months,
                summary=entry.summary,
            )
        )
    return rows
