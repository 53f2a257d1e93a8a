"""Reads for job matching: a description's criteria with what the database knows (skills, cities), and a recruiter's
overrides of them checked against the skills that exist."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace

from django.conf import settings
from django.db.models import Prefetch, QuerySet

from core.errors import ApplicationError
from core.labels import label_key
from db.connections import read_connection
from jobs.criteria import DEFAULT_MIN_SCORE, Criteria, CriteriaError, Ignored, checked_text, extract_criteria
from jobs.models import Job, JobSkill
from profiles.models import Candidate, ShortlistEntry, ShortlistEntryEvent
from profiles.search.skills import resolve_skills
from profiles.selectors import working_lists_for
from profiles.vocabulary_copy import skill_vocabulary

__all__ = [
    "NO_SKILL_WARNING",
    "criteria_overridden",
    "description_checked",
    "description_criteria",
    "job_cities",
]

NO_SKILL_WARNING = "No skill was found in the description or the criteria: no candidate can be ranked."
CITIES_MAX_AGE_SECONDS = 300  # a city new to the database is read in job posts within five minutes

# Each city the candidates live in, with the country most of them give for it (a "Paris" in Texas loses to France).
_CITIES_SQL = """
SELECT DISTINCT ON (city) city, country_code FROM (
    SELECT city, country_code, count(*) AS n FROM profiles_candidate
    WHERE city <> '' AND country_code ~ '^[A-Z]{2}$' GROUP BY city, country_code
) counted ORDER BY city, n DESC, country_code
"""
_cities: tuple[float, dict[str, str]] | None = None


def job_cities() -> Mapping[str, str]:
    """City name -> ISO alpha-2 of the candidates' cities, read at most every CITIES_MAX_AGE_SECONDS per process. The
    same mapping object is returned until then: ``jobs.places`` builds its automaton once per mapping."""
    global _cities
    if _cities is None or time.monotonic() - _cities[0] > CITIES_MAX_AGE_SECONDS:
        with read_connection(Candidate).cursor() as cursor:
            cursor.execute(_CITIES_SQL)
            _cities = (time.monotonic(), dict(cursor.fetchall()))
    return _cities[1]


def description_criteria(text: object, *, heading_chars: int = 0) -> Criteria:
    """The criteria of a pasted description; ApplicationError (code ``invalid_description``) with the extractor's
    message for one that cannot be read (empty, past JOB_DESCRIPTION_MAX_CHARS, binary or control characters).
    ``heading_chars``: how many characters were put before the description as pasted (a stored job's title), which
    the cap does not count."""
    try:
        return extract_criteria(
            text,
            skill_vocabulary(),
            cities=job_cities(),
            max_chars=settings.JOB_DESCRIPTION_MAX_CHARS + heading_chars,
        )
    except CriteriaError as exc:
        raise _unreadable(exc) from exc


def description_checked(text: object) -> None:
    """``description_criteria``'s checks without its reading: the same ApplicationError for a description that cannot
    be read, nothing for one that can (a form checking a description that a service will read once)."""
    try:
        checked_text(text, settings.JOB_DESCRIPTION_MAX_CHARS)
    except CriteriaError as exc:
        raise _unreadable(exc) from exc


def _unreadable(exc: CriteriaError) -> ApplicationError:
    return ApplicationError(str(exc), code="invalid_description", details={"description": [str(exc)]})


def criteria_overridden(criteria: Criteria, overrides: Mapping) -> Criteria:
    """``criteria`` with each field the recruiter gave replaced (``required`` as ``[{skill, min_score}]``,
    ``preferred`` as ``[{skill}]``, ``excluded`` as slugs, the others as they are). Skills are alias-aware and become
    canonical slugs; an unknown one is an ApplicationError (``unknown_skill``) naming it, as is a request with more
    skills than SEARCH_MAX_TERMS. Scores and countries are the caller's to have validated."""
    given = dict(overrides)
    labels = [
        *(item["skill"] for item in given.get("required", ())),
        *(item["skill"] for item in given.get("preferred", ())),
        *given.get("excluded", ()),
    ]
    found = resolve_skills({label_key(label) for label in labels})
    unknown = [label for label in labels if label_key(label) not in found]
    if unknown:
        raise ApplicationError(
            f"Unknown skill(s): {', '.join(unknown)}. Use a skill's slug or alias (GET /api/v1/skills/?search=...).",
            code="unknown_skill",
            details={"criteria": {"unknown_skills": unknown}},
        )

    def slug(label: str) -> str:
        return found[label_key(label)][1]

    changes: dict = {}
    if "required" in given:
        required: dict[str, int] = {}  # a skill named twice keeps its higher minimum
        for item in given["required"]:
            key, min_score = slug(item["skill"]), item.get("min_score", DEFAULT_MIN_SCORE)
            required[key] = max(min_score, required.get(key, min_score))
        changes["required"] = tuple(required.items())
    if "preferred" in given:
        changes["preferred"] = tuple(dict.fromkeys(slug(item["skill"]) for item in given["preferred"]))
    if "excluded" in given:
        changes["excluded"] = tuple(dict.fromkeys(slug(label) for label in given["excluded"]))
    for name in ("min_years_coding", "remote"):
        if name in given:
            changes[name] = given[name]
    for name in ("countries", "keywords"):
        if name in given:
            changes[name] = tuple(dict.fromkeys(given[name]))
    result = replace(criteria, **changes)
    required_slugs = {slug for slug, _ in result.required}
    if required_slugs & set(result.preferred):  # what is required is no longer merely preferred
        result = replace(result, preferred=tuple(slug for slug in result.preferred if slug not in required_slugs))
    taken = required_slugs | set(result.preferred) | set(result.excluded)
    if any(item.skill in taken for item in result.ignored):  # a skill added back is no longer left out
        result = replace(result, ignored=tuple(item for item in result.ignored if item.skill not in taken))
    count = len(result.required) + len(result.preferred) + len(result.excluded)
    if count > settings.SEARCH_MAX_TERMS:
        raise ApplicationError(
            f"Too many skills: {count}. Criteria may hold at most {settings.SEARCH_MAX_TERMS} (SEARCH_MAX_TERMS), "
            "required, preferred and excluded together.",
            code="too_many_terms",
        )
    return result


# --- Stored jobs and their pipelines -------------------------------------------------------------------------------
# A job is its owner's, private unless shared with the team, exactly as a shortlist (its pipeline is one): the same
# rule, profiles.selectors.working_lists_for, decides who reads and who changes it.


def jobs_for(*, user, for_writing: bool = False) -> QuerySet[Job]:
    """The jobs this user may read (their own and those shared with the team; ``for_writing``: change), newest first,
    with their criteria skills."""
    queryset = Job.objects.select_related("owner", "pipeline").prefetch_related(
        Prefetch("skills", queryset=JobSkill.objects.select_related("skill").order_by("id"))
    )
    return working_lists_for(user=user, queryset=queryset, for_writing=for_writing)


def job_for(*, user, job_id: int) -> Job:
    """One job the user may read; Job.DoesNotExist for one that does not exist or that they may not see."""
    return jobs_for(user=user).get(pk=job_id)


def job_criteria(job: Job) -> Criteria:
    """The job's stored criteria as the extractor's ``Criteria`` (the shape of ``to_dict()``, ranking's input)."""
    rows = sorted(job.skills.all(), key=lambda row: row.pk)  # prefetched by jobs_for
    return Criteria(
        required=tuple((r.skill.slug, r.min_score) for r in rows if r.kind == JobSkill.Kind.REQUIRED),
        preferred=tuple(r.skill.slug for r in rows if r.kind == JobSkill.Kind.PREFERRED),
        excluded=tuple(r.skill.slug for r in rows if r.kind == JobSkill.Kind.EXCLUDED),
        min_years_coding=job.min_years_coding,
        countries=tuple(job.countries),
        remote=job.remote,
        keywords=tuple(job.keywords),
        ignored=tuple(
            Ignored(item.get("label", ""), item.get("skill", ""), item.get("reason", ""))
            for item in job.ignored
            if isinstance(item, dict)
        ),
        unrecognised=tuple(job.unrecognised),
    )


PIPELINE_STAGES: tuple[str, ...] = tuple(ShortlistEntry.Status.values)  # in their order: sourced ... rejected


def job_pipeline(*, job: Job) -> list[tuple[str, list[ShortlistEntry]]]:
    """The job's pipeline by stage, every stage in order (empty ones too), each entry newest first with its candidate
    and its events (oldest first, with their authors): three queries whatever the size."""
    entries = (
        ShortlistEntry.objects.filter(shortlist_id=job.pipeline_id)
        .select_related("candidate")
        .prefetch_related(
            Prefetch("events", queryset=ShortlistEntryEvent.objects.select_related("author").order_by("at", "id"))
        )
        .order_by("-added_at", "-id")
    )
    by_stage: dict[str, list[ShortlistEntry]] = {stage: [] for stage in PIPELINE_STAGES}
    for entry in entries:
        by_stage.setdefault(entry.status, []).append(entry)
    return list(by_stage.items())
