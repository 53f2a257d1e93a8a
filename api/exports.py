"""Streamed exports of a candidate search: CSV (cells neutralised by ``profiles.exports``) and JSON Lines.

Rows come through one server-side cursor (``.iterator(chunk_size=...)``): memory stays flat however many candidates
match, and each chunk's skills (and, for JSON Lines, education and contributions) take one query per chunk.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet
from django.urls import reverse

from api.serializers import CandidateExportSerializer
from profiles.exports import csv_lines
from profiles.models import Candidate, CandidateSkill
from profiles.selectors import candidates_iterate_with_skills

CHUNK_SIZE = 1000
CSV_COLUMNS = [
    "id",
    "name",
    "headline",
    "title",
    "company",
    "city",
    "region",
    "country",
    "country_code",
    "years_coding",
    "years_employed",
    "badges",
    "spoken_languages",
    "skills",
    "programming_languages",
    "match",
    "updated_at",
    "url",
]


def _skills(candidate: Candidate, section: str) -> str:
    return "; ".join(f"{row.slug}:{row.score}" for row in candidate.skill_list if row.section == section)


def csv_rows(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    def rows() -> Iterator[list]:
        for candidate in candidates_iterate_with_skills(queryset, chunk_size=CHUNK_SIZE):
            yield [
                candidate.pk,
                candidate.name,
                candidate.headline,
                candidate.title,
                candidate.company,
                candidate.city,
                candidate.region,
                candidate.country,
                candidate.country_code,
                candidate.years_coding,
                candidate.years_employed,
                "; ".join(candidate.badges),
                "; ".join(candidate.spoken_languages),
                _skills(candidate, CandidateSkill.Section.SKILL),
                _skills(candidate, CandidateSkill.Section.LANGUAGE),
                getattr(candidate, "match", None),
                candidate.updated_at.isoformat(),
                request.build_absolute_uri(reverse("api:candidate-detail", kwargs={"pk": candidate.pk})),
            ]

    return csv_lines(CSV_COLUMNS, rows())


def jsonl_lines(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    context = {"request": request}
    for candidate in candidates_iterate_with_skills(queryset, chunk_size=CHUNK_SIZE):
        data = CandidateExportSerializer(candidate, context=context).data
        yield json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False) + "\n"
