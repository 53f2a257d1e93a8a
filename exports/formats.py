"""The two export formats, as generators of text lines: CSV (``profiles.exports``, shared with the admin) and JSON
Lines. The API's streamed exports and the export jobs write through these same functions, so a job's file is byte for
byte what the stream of the same search gives.

A JSON Lines row is the API's candidate detail without its sources
(``api.candidates.serializers.CandidateExportSerializer`` declares that shape; both take its fields from
``profiles.candidate_fields``). It is built here by hand, because a job runs in the exports layer, below the API, and
without a request; ``tests/exports/test_formats.py`` checks it against DRF's serializer value for value and byte for
byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet
from django.utils import timezone

from profiles.candidate_fields import CONTACT_FIELDS, EXPORT_ROW_FIELDS
from profiles.contacts import candidates_with_identifiers, contact_urls
from profiles.exports import candidate_csv_lines
from profiles.models import Candidate, CandidateSkill, Contribution, Education, Position, SpokenLanguage
from profiles.selectors import candidates_iterate_with_skills

CHUNK_SIZE = 1000

CandidateUrl = Callable[[Candidate], str]

# An id no candidate has, reversed in a URL and then replaced: a row URL template from any URL pattern with a pk.
_PK_PLACEHOLDER = 987654321987654321


def row_url_template(url_of_pk: Callable[[int], str]) -> str:
    """A candidate URL with ``{pk}`` for the id, from ``url_of_pk`` (reverses a URL for a given id): what an export job
    stores, as it runs without a request to reverse URLs with."""
    return url_of_pk(_PK_PLACEHOLDER).replace(str(_PK_PLACEHOLDER), "{pk}")


def row_url(template: str) -> CandidateUrl:
    """Each candidate's URL from a ``row_url_template``."""
    return lambda candidate: template.replace("{pk}", str(candidate.pk))


def export_lines(
    format: str, queryset: QuerySet[Candidate], *, url: CandidateUrl, contacts: bool = False
) -> Iterator[str]:
    """The lines of an export of ``queryset`` in ``format`` (``csv`` with its header line first, or ``jsonl``); with
    ``contacts`` (the reader may see them: ``profiles.contacts``), each candidate's e-mail, phone and links too.
    ``url`` is called once for each row, as it is written: an export job records the candidates its file holds so."""
    if format == "csv":
        return candidate_csv_lines(queryset, url=url, contacts=contacts)
    if format == "jsonl":
        return candidate_jsonl_lines(queryset, url=url, contacts=contacts)
    raise ValueError(f"unknown export format {format!r}")


def candidate_jsonl_lines(queryset: QuerySet[Candidate], *, url: CandidateUrl, contacts: bool = False) -> Iterator[str]:
    """One JSON line per candidate of ``queryset`` (from ``profiles.selectors.candidates_for_profiles``: jobs,
    education, languages and contributions prefetched), skills attached a chunk at a time."""
    if contacts:
        queryset = candidates_with_identifiers(queryset)
    for candidate in candidates_iterate_with_skills(queryset, chunk_size=CHUNK_SIZE):
        row = candidate_json(candidate, url=url(candidate), contacts=contacts)
        yield json.dumps(row, cls=DjangoJSONEncoder, ensure_ascii=False) + "\n"


def candidate_json(candidate: Candidate, *, url: str, contacts: bool = False) -> dict:
    """The export row's fields (``profiles.candidate_fields.EXPORT_ROW_FIELDS``) in their order, each value as DRF's
    field would write it; the contact details last, with ``contacts`` (``identifier_rows`` prefetched)."""
    values = {
        "id": candidate.pk,
        "url": url,
        "name": candidate.name,
        "headline": candidate.headline,
        "title": candidate.title,
        "company": candidate.company,
        "location": {
            "city": candidate.city,
            "region": candidate.region,
            "country": candidate.country,
            "country_code": candidate.country_code,
        },
        "badges": list(candidate.badges),
        "summary": candidate.summary,
        "years_coding": candidate.years_coding,
        "years_employed": candidate.years_employed,
        "experience": [_position(row) for row in candidate.position_rows],
        "education": [_education(row) for row in candidate.education_rows],
        "spoken_languages": list(candidate.spoken_languages),
        "languages": [_language(row) for row in candidate.language_rows],
        "skills_declared": candidate.skills_declared,
        "skills": candidate.skill_sections.get(CandidateSkill.Section.SKILL, []),
        "other_skills": list(candidate.other_skills),
        "programming_languages_declared": candidate.programming_languages_declared,
        "programming_languages": candidate.skill_sections.get(CandidateSkill.Section.LANGUAGE, []),
        "contributions_declared": candidate.contributions_declared,
        "contributions": [_contribution(row) for row in candidate.contribution_rows],
        "awards": list(candidate.awards),
        "created_at": _datetime(candidate.created_at),
        "updated_at": _datetime(candidate.updated_at),
    }
    if hasattr(candidate, "match"):  # annotated when the search asked for skills; else left out, as DRF does
        values["match"] = candidate.match
    if contacts:
        values.update(email=candidate.email, phone=candidate.phone, links=contact_urls(candidate))
    names = (*EXPORT_ROW_FIELDS, *CONTACT_FIELDS) if contacts else EXPORT_ROW_FIELDS
    return {name: values[name] for name in names if name in values}


def _position(position: Position) -> dict:
    return {
        "company": position.company,
        "title": position.title,
        "location": position.location,
        "start": _month(position.start),
        "end": _month(position.end),
        "current": position.is_current,
        "summary": position.summary,
    }


def _education(education: Education) -> dict:
    return {
        "degree": education.degree,
        "field": education.field,
        "minor": education.minor,
        "school": education.school,
        "start": _month(education.start),
        "end": _month(education.end),
    }


def _language(language: SpokenLanguage) -> dict:
    return {"code": language.code, "name": language.name, "fluency": language.fluency}


def _contribution(contribution: Contribution) -> dict:
    repository = contribution.repository
    return {
        "repository": repository.full_name,
        "repository_description": repository.description,
        "start": _month(contribution.start),
        "end": _month(contribution.end),
        "role": contribution.role,
        "commits": contribution.commits,
        "comments": contribution.comments,
        "active_months": contribution.active_months,
        "summary": contribution.summary,
        "topics": list(repository.topics),
    }


def _month(value) -> str | None:
    return value.strftime("%Y-%m") if value else None


def _datetime(value) -> str | None:
    """As DRF's DateTimeField writes it: ISO 8601 in the current time zone, UTC spelled ``Z``."""
    if value is None:
        return None
    text = timezone.localtime(value).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text
