"""A page of the index's ranking, checked against PostgreSQL: the index orders, the database decides who is shown.

The index may hold a candidate erased or merged a moment ago, and it holds none of the candidate filters a request
may add (``country``, ``repository``, ``updated_since`` and the rest of the query language). So the ranked ids are
read from PostgreSQL in order, a stretch at a time, through the same filters as the SQL ranking
(``profiles.selectors.candidate_search``); a row the database no longer has, or that the filters leave out, is
dropped and the next ranked one takes its place. When the filters leave out too many (a very narrow filter over a
wide pool), the walk gives up and the caller ranks in SQL instead (``HandOff``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from profiles.models import Candidate
from profiles.selectors import candidate_search
from searchindex.rank import Cut, Ranked

# Ranked rows read per stretch (at least): a page and its look-ahead row, with room for rows the filters drop.
_STRETCH = 64
# Ranked rows read at most before handing the request to SQL, which reads the filters' rows through their own indexes.
MAX_CHECKED = 20_000


class HandOff(Exception):
    """The index cannot answer this request exactly at a fair cost; rank it in SQL. The message says why."""


@dataclass(frozen=True, slots=True)
class Row:
    id: int
    match: int
    missing_count: int

    @property
    def misses_any(self) -> int:
        return int(self.missing_count > 0)


def _walk(rank: Callable[[Cut], Ranked], cut: Cut, wanted: int, keep: Callable[[list[int]], set[int]]) -> list[Row]:
    kept: list[Row] = []
    after, checked = cut.after, 0
    stretch = max(_STRETCH, 2 * wanted)
    while len(kept) < wanted:
        ranked = rank(Cut(limit=stretch, after=after, before=cut.before))
        ids = ranked.ids.tolist()
        if not ids:
            break
        present = keep(ids)
        order = range(len(ids) - 1, -1, -1) if cut.before else range(len(ids))
        for index in order:
            if ids[index] in present:
                kept.append(Row(ids[index], int(ranked.match[index]), int(ranked.missing[index])))
        last = 0 if cut.before else len(ids) - 1
        after = (int(ranked.missing[last] > 0), int(ranked.match[last]), ids[last])
        checked += len(ids)
        if len(ids) < stretch:
            break
        if checked >= MAX_CHECKED:
            raise HandOff(f"the filters kept {len(kept)} of {checked} ranked candidates")
        stretch *= 2
    return kept


def page_rows(
    rank: Callable[[Cut], Ranked], cut: Cut, keep: Callable[[list[int]], set[int]], *, filtered: bool
) -> list[Row]:
    """The rows of ``cut`` that ``keep`` keeps (the ids PostgreSQL has and the filters pass), in ranking order.

    Unfiltered, a page of rows is ranked and checked once, and only rows gone since the index read them are walked
    past. Filtered, a page at an offset needs every kept row before it: walked from the start."""
    wanted = cut.offset + cut.limit
    if not filtered:
        ranked = rank(cut)
        ids = ranked.ids.tolist()
        present = keep(ids)
        rows = [Row(pk, int(m), int(x)) for pk, m, x in zip(ids, ranked.match, ranked.missing, strict=True)]
        kept = [row for row in rows if row.id in present]
        if len(kept) == len(rows) or len(ids) < cut.limit:
            return kept
    rows = _walk(rank, Cut(limit=wanted, after=cut.after, before=cut.before), wanted, keep)
    if cut.before:  # a previous page: keyset only, no offset
        rows.reverse()
        return rows[-cut.limit :]
    return rows[cut.offset : wanted]


def present_ids(ids: list[int], *, params: Mapping | None, user=None, queryset=None) -> set[int]:
    """Which of ``ids`` PostgreSQL has, within ``queryset`` and passing the candidate filters ``params``."""
    base = (Candidate.objects.all() if queryset is None else queryset).filter(id__in=ids)
    if params:
        base = candidate_search(params=params, user=user, queryset=base)
    return set(base.order_by().values_list("id", flat=True))


def as_array(ids) -> np.ndarray:
    return np.fromiter(ids, dtype=np.int64)


def keywords_ids(keywords: tuple[str, ...], ids: np.ndarray) -> list[np.ndarray]:
    """For each of ``keywords``, which of ``ids`` have a search vector that matches it as the ranking's keyword part
    reads it (``plainto_tsquery('english')``), on this process's database connection."""
    from django.db import connection

    with connection.cursor() as cursor:
        return keywords_matched(cursor, keywords, ids)


def keywords_matched(cursor, keywords: tuple[str, ...], ids: np.ndarray) -> list[np.ndarray]:
    """``keywords_ids`` on ``cursor`` (Django's or psycopg's): one statement for every keyword."""
    if not keywords or not len(ids):
        return [np.zeros(0, dtype=np.int64) for _ in keywords]
    tests = ", ".join("search_vector @@ plainto_tsquery('english', %s)" for _ in keywords)
    cursor.execute(
        f"SELECT id, {tests} FROM profiles_candidate WHERE id = ANY(%s::int8[])",  # noqa: S608 (placeholders only)
        [*keywords, ids.tolist()],
    )
    rows = cursor.fetchall()
    return [np.array([row[0] for row in rows if row[1 + n]], dtype=np.int64) for n in range(len(keywords))]
