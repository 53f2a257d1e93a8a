"""A ranked page's rows. The backend in use ranks; PostgreSQL stays the truth of who is shown and what a row shows.

Under the SQL backend one statement ranks the pool, through the request's filters, and reads the page's rows with
their values. Another backend answers with the page's ids and their keys, ``(misses_any, match, id)``: the order and
the ``match`` it ranked by, which every backend computes exactly as the SQL reference does (the index's property tests
hold it to that, row for row), and it has already dropped the ids that PostgreSQL lacks or the filters leave out
(``searchindex.pages``). The rows are read by id, with the columns a row shows and no formula (by the backend as it
checks the ids, when it can: ``RankRequest.rows``), and an id whose row is gone since is dropped. Each row's
``match`` and ``misses_any`` are its key's, so that a page never shows a value out of the order it was cut by (as a
text page shows its backend's relevance); ``missing_count``, like the explanation's matched and missing skills, is
read from the row itself, which may have changed within the backend's lag bound."""

from __future__ import annotations

from dataclasses import replace

from django.db.models import QuerySet

from profiles.models import Candidate
from profiles.search.backends import search_backend
from profiles.search.backends.base import RankRequest
from profiles.search.backends.sql import SqlBackend, ranking_page
from profiles.search.ranking import Resolved, resolve
from profiles.search.signals import RequiredSkills


def ranked_rows(
    request: RankRequest, *, queryset: QuerySet[Candidate] | None = None, resolved: Resolved | None = None
) -> list[Candidate]:
    """The candidates of ``request.page`` in the ranking's order, each with ``match``, ``missing_count`` and
    ``misses_any`` as ``SqlBackend.ranked_queryset`` annotates them. ``queryset``: the columns to read (default: all;
    ``skill_scores`` among them); ``resolved``: the request's skills, when the caller has them. Ask for one row more
    than a page shows to know whether a next page exists."""
    backend = search_backend()
    if isinstance(backend, SqlBackend):
        # Its ranking reads the values as it ranks: one statement for the ids and the values.
        rows, _ = ranking_page(backend.ranked_queryset(request, queryset=queryset, resolved=resolved), request.page)
        return rows
    resolved = resolved or resolve(request)  # once, for the backend and for the rows' missing counts
    shown = Candidate.objects.all() if queryset is None else queryset
    answer = backend.rank(replace(request, rows=shown), resolved=resolved)
    if not answer.ids:
        return []
    found = answer.rows if answer.rows is not None else shown.in_bulk(answer.ids)
    rows = []
    for misses_any, match, pk in answer.keys:
        if (row := found.get(pk)) is not None:
            row.misses_any, row.match = int(misses_any), int(match)
            row.missing_count = RequiredSkills.missing_count(row, resolved)
            rows.append(row)
    return rows
