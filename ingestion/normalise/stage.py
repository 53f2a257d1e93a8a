"""The stage itself: ``normalise`` fits one document to the tables, with a warning for each repair."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib

import orjson

from core.identity import identifier_key, name_location_key, network_page, personal_site, url_token
from core.labels import label_key
from core.text import phone_text
from ingestion.documents import ContributionEntry, PositionEntry, ProfileDocument
from ingestion.normalise.columns import clip, clip_all, max_length, usable
from ingestion.normalise.rows import (
    NormalisedContribution,
    NormalisedEducation,
    NormalisedLanguage,
    NormalisedPosition,
    NormalisedProfile,
    Repairs,
)
from ingestion.normalise.skills import canonical, skills_of
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    Contribution,
    Education,
    Position,
    Repository,
    SpokenLanguage,
)
from profiles.search import SEARCH_TEXT_MAX_CHARS
from profiles.vocabulary import SkillVocabulary

__all__ = ["MAX_YEARS", "document_sha256", "identity_keys", "normalise"]

MAX_YEARS = 100  # the candidate table's check constraints refuse more


def normalise(document: ProfileDocument, vocabulary: SkillVocabulary) -> NormalisedProfile:
    """The rows of ``document``, fitted to the tables; its warnings first, then one for each repair."""
    repairs = Repairs()
    skills, other_skills = skills_of(document, vocabulary, repairs)
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
    personal (``core.identity.personal_site``): the homepage of an employer the file lists names no one person. A
    network's page of an account the document names (``linkedin.com/in/ada`` beside the LinkedIn account ``ada``) is
    that account, not a second identifier: one profile, one key, one link on the profile."""
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
    limit = max_length(CandidateIdentifier, "value")
    keys = {
        (key_kind, key[:limit]): None
        for key_kind, value in written
        if value and (key := identifier_key(key_kind, value))
    }
    accounts = {f"{key_kind}:{value}" for key_kind, value in keys if key_kind != kind.URL}
    keys = {key: None for key in keys if key[0] != kind.URL or url_token(key[1]) not in accounts}
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
    values: dict = {name: clip(Candidate, name, value or "", warnings) for name, value in texts.items()}
    values.update(
        badges=clip_all(Candidate, "badges", doc.badges, warnings, "A badge"),
        spoken_languages=clip_all(Candidate, "spoken_languages", doc.spoken_languages, warnings, "A spoken language"),
        years_coding=_years(doc.years_coding, "Years of coding", warnings),
        years_employed=_years(doc.years_employed, "Years employed", warnings),
        skills_declared=doc.skills_declared,
        programming_languages_declared=doc.programming_languages_declared,
        contributions_declared=doc.contributions_declared,
        awards=clip_all(Candidate, "awards", [award.line() for award in doc.awards], warnings, "An award"),
        other_skills=other_skills,
    )
    return {name: values[name] for name in Candidate.IMPORTED_FIELDS}


# --- Education and contributions -----------------------------------------------------------------------------------


def _education(doc: ProfileDocument, warnings: list[str]) -> list[NormalisedEducation]:
    rows = []
    for position, entry in enumerate(doc.education):
        school = clip(Education, "school", entry.school, warnings, "A school name")
        start, end = _month(entry.start), _month(entry.end)
        # Each date's precision is its own, read before the dates are put in order and swapped with them: "Jan 2009 –
        # 2009" falls on one day, a month and a year alone.
        start_year_only, end_year_only = _year_only(entry.start), _year_only(entry.end)
        if (start, end) != _in_order(start, end, f"The studies at {school or 'a school'}", warnings):
            start, end, start_year_only, end_year_only = end, start, end_year_only, start_year_only
        rows.append(
            NormalisedEducation(
                position=position,
                degree=clip(Education, "degree", entry.degree, warnings, "A degree"),
                field=clip(Education, "field", entry.field, warnings, "A field of study"),
                minor=clip(Education, "minor", entry.minor, warnings, "A minor"),
                school=school,
                start=start,
                end=end,
                start_year_only=start_year_only,
                end_year_only=end_year_only,
            )
        )
    return rows


def _year_only(value: str | None) -> bool:
    return bool(value) and "-" not in value


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
        name = clip(SpokenLanguage, "name", entry.name, warnings, "A spoken language")
        key = entry.code or name.casefold()
        if not name or key in seen:
            continue
        seen.add(key)
        rows.append(
            NormalisedLanguage(
                position=len(rows),
                code=clip(SpokenLanguage, "code", entry.code, warnings, "A language code"),
                name=name,
                fluency=entry.fluency,
                raw=clip(SpokenLanguage, "raw", entry.raw, warnings, "A spoken language as written"),
            )
        )
    return rows


def _month(value: str | None) -> dt.date | None:
    """The first day of a "YYYY-MM", or of a "YYYY" (a year alone)."""
    if not value:
        return None
    year, _, month = value.partition("-")
    return dt.date(int(year), int(month[:2] or 1), 1)


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
            name: clip(Position, name, getattr(entry, name), warnings, what)
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
                url=clip(Position, "url", entry.url, warnings, "A company's site"),
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
        repository = clip(Repository, "full_name", entry.repository, warnings, "A repository name")
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
        if too_long := {key for key in keys if not usable(key)}:
            warnings.append(f"{repository}: {len(too_long)} topics too long to name a skill were not linked to one.")
            keys -= too_long
        rows.append(
            NormalisedContribution(
                repository=repository,
                repository_description=entry.repository_description,
                topics=clip_all(Repository, "topics", entry.topics, warnings, "A topic"),
                topic_slugs=sorted({canonical(key, vocabulary)[0] for key in keys}),
                topics_raw=clip(Repository, "topics_raw", entry.topics_raw, warnings, f"The topics of {repository}"),
                position=position,
                role=clip(Contribution, "role", entry.role, warnings, "A contribution role"),
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
