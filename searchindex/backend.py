"""The ranking index as a search backend (``SEARCH_BACKEND = "searchindex.backend.IndexBackend"``).

``rank`` asks the host's index process for the order and reads the page's rows from PostgreSQL (searchindex.pages):
the same ids, keys and ``has_more`` as ``SqlBackend``, which the property test holds it to. Requests go to the SQL
backend instead, with the reason in the log and in the ``X-Search-Backend`` response header
(searchindex.middleware), when:

- the index is not running, still building, or further behind the database than ``SEARCH_INDEX_MAX_LAG_SECONDS``;
- the page asks for a count of the whole order (the index's pool may still hold an erased person; a count reads
  the filtered pool, which is SQL's work);
- the candidate filters leave out so many ranked candidates that walking the order would cost more than SQL
  (``searchindex.pages.MAX_CHECKED``).

``search_text`` asks the index's BM25 text index (searchindex.text) for the order, PostgreSQL parsing the query
(``websearch_to_tsquery('english')``, as the candidate filter ``q`` does, so both match the same candidates) and
deciding, as for a ranking, who is shown: a row gone or left out by the filters is dropped and the next hit takes its
place. It goes to SQL (``ts_rank``) with the same codes, and with ``query`` for a query the index does not evaluate.
A text search's key is ``("bm25", score, id)``: a cursor of SQL's order (``(ts_rank, id)``) goes on in SQL
(``cursor``), and one of the index's order that SQL must answer starts SQL's order again.

``index`` and ``remove`` have nothing to do: the outbox's triggers record every change in the writing transaction,
and the index process reads them (searchindex.freshness).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable, Mapping

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from profiles.models import Candidate
from profiles.search.backends.base import Page, RankedIds, RankRequest, SearchBackend, TextHits, TextRequest
from profiles.search.backends.sql import SqlBackend
from profiles.search.ranking import RELATED_WEIGHT, Resolved, check_filters, resolve
from profiles.search.signals import (
    COMMITS_PER_ACTIVE_MONTH,
    EVIDENCE_HALF_LIFE_MONTHS,
    EVIDENCE_SATURATION,
    WEIGHT_EVIDENCE,
    WEIGHT_KEYWORDS,
    WEIGHT_LOCATION,
    WEIGHT_PREFERRED,
    WEIGHT_REQUIRED,
    WEIGHT_YEARS,
    short_credit,
)
from profiles.selectors import candidate_search
from searchindex import client
from searchindex.client import IndexUnavailable
from searchindex.middleware import answered_by
from searchindex.pages import MAX_CHECKED, HandOff, page_rows, present_ids
from searchindex.rank import Cut, Formula, Preferred, Ranked, RankQuery, Required

logger = logging.getLogger(__name__)

FORMULA = Formula(
    weight_required=WEIGHT_REQUIRED,
    weight_preferred=WEIGHT_PREFERRED,
    weight_evidence=WEIGHT_EVIDENCE,
    weight_keywords=WEIGHT_KEYWORDS,
    weight_years=WEIGHT_YEARS,
    weight_location=WEIGHT_LOCATION,
    evidence_half_life_months=EVIDENCE_HALF_LIFE_MONTHS,
    evidence_saturation=EVIDENCE_SATURATION,
    commits_per_active_month=COMMITS_PER_ACTIVE_MONTH,
    related_weight=RELATED_WEIGHT,
)


def rank_query(request: RankRequest, resolved: Resolved) -> RankQuery:
    """The index's request for ``request``, its skills resolved as every backend resolves them."""

    def stand_ins(slug: str) -> tuple[int, ...]:
        return tuple(pk for _, pk, origin in resolved.related if origin == slug)

    return RankQuery(
        formula=FORMULA,
        required=tuple(
            # The credit as the SQL statement writes it, to six decimals.
            Required(pk, int(min_score), stand_ins(slug), float(f"{short_credit(int(min_score)):.6f}"))
            for slug, pk, min_score in resolved.required
        ),
        preferred=tuple(Preferred(pk, stand_ins(slug)) for slug, pk in resolved.preferred),
        excluded=tuple(resolved.excluded),
        topics=tuple(resolved.topics),
        keywords=tuple(request.keywords),
        min_years=request.min_years_coding,
        countries=tuple(request.countries),
        place=tuple(request.countries) if request.place_applies else (),
        strict=request.strict,
        today=request.today or timezone.now().date(),
        exclude_ids=tuple(sorted(request.exclude_ids)),
    )


TextHit = tuple[float, int]  # (score, id)
BM25 = "bm25"  # the first item of the index's text keys: a cursor says which order it continues


def text_rows(ask: Callable[..., list[TextHit]], page: Page, keep: Callable[[list[int]], set[int]]) -> list[TextHit]:
    """The hits of ``page`` and its look-ahead row that ``keep`` keeps, in order: stretches of hits are asked for
    (``ask(limit=, after=)``) until enough are kept. ``HandOff`` when the filters leave out too many."""
    wanted = page.offset + page.limit + 1
    after = tuple(page.after) if page.after is not None else None
    kept: list[TextHit] = []
    stretch, checked = wanted, 0
    while True:
        hits = ask(limit=stretch, after=after)
        present = keep([pk for _, pk in hits])
        kept += [hit for hit in hits if hit[1] in present]
        checked += len(hits)
        if len(kept) >= wanted or len(hits) < stretch:
            return kept[page.offset : wanted]
        if checked >= MAX_CHECKED:
            raise HandOff(f"the filters kept {len(kept)} of {checked} text hits")
        after, stretch = hits[-1], max(64, stretch * 2)


def checker(
    filters: Mapping | None, user, rows: QuerySet[Candidate] | None
) -> tuple[Callable[[list[int]], set[int]], dict[int, Candidate] | None]:
    """How a page checks its ids against PostgreSQL, and the rows it read doing so. Filtered, through the filters,
    reading ids only. Unfiltered with the caller's ``rows`` (a queryset), by reading the rows the page shows: once,
    where reading the ids and then the rows took two statements."""
    if filters or rows is None:
        return (lambda ids: present_ids(ids, params=filters, user=user)), None
    read: dict[int, Candidate] = {}

    def keep(ids: list[int]) -> set[int]:
        found = rows.in_bulk(ids)
        read.update(found)
        return set(found)

    return keep, read


def websearch_tsquery(query: str) -> str:
    """``q`` as the candidate filter reads it, in tsquery's text: the one parser of the query language."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT websearch_to_tsquery('english', %s)::text", [query])
        return cursor.fetchone()[0]


class IndexBackend(SearchBackend):
    name = "index"

    def __init__(
        self,
        ranker: Callable[[RankQuery, Cut], Ranked] = client.rank,
        texter: Callable[..., list[TextHit]] = client.text,
    ):
        self.ranker = ranker
        self.texter = texter
        self.sql = SqlBackend()

    def _on_sql(self, request, code: str, detail: str, resolved: Resolved | None = None):
        """Rank in SQL. The header carries only ``code`` (the response goes to any API client); the log has
        ``detail`` (socket paths, errors)."""
        logger.info("ranking in SQL (%s): %s", code, detail)
        answered_by.set(f"sql; index={code}")
        return self.sql.rank(request, resolved=resolved)

    def rank(self, request: RankRequest, *, resolved: Resolved | None = None) -> RankedIds:
        check_filters(request.filters)
        if request.filters:  # refused filters are a ValidationError whatever the pool holds, as in SQL
            candidate_search(params=request.filters, user=request.user, queryset=Candidate.objects.none())
        if request.page.count:
            return self._on_sql(request, "count", "the page asks for a count", resolved)
        if request.strict:  # SQL reads only the holders of every required skill, through its index: faster than ours
            return self._on_sql(request, "strict", "a strict request", resolved)
        if resolved is None:
            resolved = resolve(request)
        query = rank_query(request, resolved)
        page = request.page
        after = tuple(int(value) for value in page.after) if page.after is not None else None
        keep, read = checker(request.filters, request.user, request.rows)
        try:
            rows = page_rows(
                lambda cut: self.ranker(query, cut),
                Cut(limit=page.limit + 1, offset=page.offset, after=after),
                keep,
                filtered=bool(request.filters),
            )
        except IndexUnavailable as exc:
            return self._on_sql(request, exc.code, str(exc), resolved)
        except HandOff as exc:
            return self._on_sql(request, "filtered", str(exc), resolved)
        answered_by.set(self.name)
        shown = rows[: page.limit]
        return RankedIds(
            ids=tuple(row.id for row in shown),
            keys=tuple((row.misses_any, row.match, row.id) for row in shown),
            has_more=len(rows) > page.limit,
            backend=self.name,
            rows=None if read is None else {row.id: read[row.id] for row in shown},
        )

    def search_text(self, request: TextRequest) -> TextHits:
        filters = dict(request.filters or {})
        if ranking := sorted({"q", "ordering"} & set(filters)):
            raise ValidationError({name: ["the text search orders the candidates"] for name in ranking})
        if filters:  # refused filters are a ValidationError whatever the index holds, as in SQL
            candidate_search(params=filters, user=request.user, queryset=Candidate.objects.none())
        if request.page.count:
            return self._text_on_sql(request, "count", "the page asks for a count")
        page = request.page
        if page.after is not None:
            if len(page.after) != 3 or page.after[0] != BM25:
                return self._text_on_sql(request, "cursor", "a cursor of the SQL order")
            page = dataclasses.replace(page, after=(float(page.after[1]), int(page.after[2])))
        tsquery = websearch_tsquery(request.query)
        keep, read = checker(filters, request.user, request.rows)
        try:
            rows = text_rows(
                lambda limit, after: self.texter(tsquery, limit=limit, after=after) if tsquery else [], page, keep
            )
        except IndexUnavailable as exc:
            return self._text_on_sql(request, exc.code, str(exc))
        except HandOff as exc:
            return self._text_on_sql(request, "filtered", str(exc))
        answered_by.set(self.name)
        shown = rows[: request.page.limit]
        return TextHits(
            ids=tuple(pk for _, pk in shown),
            keys=tuple((BM25, score, pk) for score, pk in shown),
            has_more=len(rows) > request.page.limit,
            backend=self.name,
            rows=None if read is None else {pk: read[pk] for _, pk in shown},
        )

    def _text_on_sql(self, request: TextRequest, code: str, detail: str) -> TextHits:
        logger.info("text search in SQL (%s): %s", code, detail)
        answered_by.set(f"sql; index={code}")
        after = request.page.after
        if after is not None and len(after) == 3 and after[0] == BM25:  # no place in SQL's order: start it again
            request = dataclasses.replace(request, page=dataclasses.replace(request.page, after=None))
        return self.sql.search_text(request)

    def index(self, candidate_ids: Iterable[int]) -> None:
        """Nothing to do: the outbox's triggers recorded the change in its transaction."""

    def remove(self, candidate_ids: Iterable[int]) -> None:
        """Nothing to do: the outbox's triggers recorded the deletion, and pages drop rows the database lacks."""
