"""A ranked page's rows: the ids from the backend in use, the values (``match``, ``missing_count``, ``misses_any``)
from PostgreSQL. PostgreSQL stays the truth: an id whose row is gone, or that the filters now leave out, is dropped."""

from __future__ import annotations

from django.db.models import QuerySet

from profiles.models import Candidate
from profiles.search.backends import search_backend
from profiles.search.backends.base import RankRequest
from profiles.search.backends.sql import SqlBackend, ranking_page
from profiles.search.ranking import Resolved


def ranked_rows(
    request: RankRequest, *, queryset: QuerySet[Candidate] | None = None, resolved: Resolved | None = None
) -> list[Candidate]:
    """The candidates of ``request.page`` in the ranking's order, each annotated as ``SqlBackend.ranked_queryset``
    annotates them. ``queryset``: the columns to read (default: all); ``resolved``: the request's skills, when the
    caller has them. Ask for one row more than a page shows to know whether a next page exists."""
    backend = search_backend()
    if isinstance(backend, SqlBackend):
        # Its ranking reads the values as it ranks: one statement for the ids and the values.
        rows, _ = ranking_page(backend.ranked_queryset(request, queryset=queryset, resolved=resolved), request.page)
        return rows
    answer = backend.rank(request, resolved=resolved)
    if not answer.ids:
        return []
    base = (Candidate.objects.all() if queryset is None else queryset).filter(pk__in=answer.ids)
    found = {row.pk: row for row in SqlBackend().ranked_queryset(request, queryset=base, resolved=resolved)}
    return [found[pk] for pk in answer.ids if pk in found]
