"""Streamed exports of a candidate search: CSV (``profiles.exports``, shared with the admin) and JSON Lines.

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
from profiles.exports import candidate_csv_lines
from profiles.models import Candidate
from profiles.selectors import candidates_iterate_with_skills

CHUNK_SIZE = 1000


def csv_rows(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    """The candidates' CSV lines (the same columns and neutralising as the admin's export), linked to the API."""
    return candidate_csv_lines(
        queryset, url=lambda c: request.build_absolute_uri(reverse("api:candidate-detail", kwargs={"pk": c.pk}))
    )


def jsonl_lines(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    context = {"request": request}
    for candidate in candidates_iterate_with_skills(queryset, chunk_size=CHUNK_SIZE):
        data = CandidateExportSerializer(candidate, context=context).data
        yield json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False) + "\n"
