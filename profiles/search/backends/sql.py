"""PostgreSQL as a search backend: the reference every other backend is compared with, row for row.

A ranking is one statement: the pool, the formula of ``profiles.search.signals`` over every candidate of it, and the
order. At scale the formula runs only over a bounded pool: the candidates holding at least one of the request's skills
(``skill_tokens && ARRAY[...]``, one GIN index scan over the skills' posting lists, scoped to the countries when the
place applies), narrowed by the candidate filters and, with ``strict``, by each required skill at its minimum (a GIN
condition each); holders of an excluded skill are left out. Widened, the holders of the related skills join the pool.

A text search is the candidate list's ``q`` ordered by ``-rank`` (``ts_rank`` over the weighted vector).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db.models import FloatField, IntegerField, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast

from profiles.models import Candidate
from profiles.search.backends.base import Page, RankedIds, RankRequest, SearchBackend, TextHits, TextRequest
from profiles.search.columns import skill_tokens
from profiles.search.ranking import Resolved, check_filters, resolve
from profiles.search.signals import ORDERING, RequiredSkills, Scoring, match_sql, positional
from profiles.selectors import candidate_search


def _nobody(queryset: QuerySet[Candidate]) -> QuerySet[Candidate]:
    """No candidate, with the annotations and the ordering of a ranking (a paginator reads them)."""
    zero = {name: RawSQL("0", [], output_field=IntegerField()) for name in ("match", "missing_count", "misses_any")}
    return queryset.none().annotate(**zero).order_by(*ORDERING)


def _tokens(pk: int, min_score: int | None, countries: tuple[str, ...]) -> list[int]:
    if not countries:
        return skill_tokens(pk, min_score)
    return [token for code in countries for token in skill_tokens(pk, min_score, country_code=code)]


def _cut(queryset: QuerySet, page: Page, after: Q | None) -> tuple[list, bool]:
    """The rows of ``page`` (``after`` already spelled as a condition) and whether one follows."""
    if after is not None:
        queryset = queryset.filter(after)
    rows = list(queryset[page.offset : page.offset + page.limit + 1])
    return rows[: page.limit], len(rows) > page.limit


def ranking_page(ranked: QuerySet, page: Page) -> tuple[list, bool]:
    """The rows of ``page`` of a QuerySet in ``ORDERING`` (``SqlBackend.ranked_queryset``, or its ``values_list``),
    and whether a row follows: ``page.after`` is a ``RankKey``, (misses_any, match, id)."""
    after = None
    if page.after is not None:
        misses_any, match, pk = (int(value) for value in page.after)
        after = (
            Q(misses_any__gt=misses_any)
            | Q(misses_any=misses_any, match__lt=match)
            | Q(misses_any=misses_any, match=match, pk__gt=pk)
        )
    return _cut(ranked, page, after)


class SqlBackend(SearchBackend):
    name = "sql"

    def ranked_queryset(
        self,
        request: RankRequest,
        *,
        queryset: QuerySet[Candidate] | None = None,
        resolved: Resolved | None = None,
    ) -> QuerySet[Candidate]:
        """The pool of ``request`` annotated with ``match`` (0-100), ``missing_count`` and ``misses_any`` (0 or 1),
        in ``ORDERING`` (``request.page`` is not applied: a caller cuts the QuerySet as it pages). ``queryset``: where
        the pool starts (default: every candidate); ``resolved``: the request's skills as ``resolve`` gave them, when
        the caller has them already (a page explains with them). ValidationError for filters that would rank or that
        the candidate filters refuse."""
        check_filters(request.filters)
        resolved = resolved or resolve(request)
        # In the request's countries only: the pool's index scan reads the skills' tokens scoped to those countries.
        countries = tuple(request.countries) if request.place_applies else ()
        pool_tokens = [
            token
            for pk in (*resolved.slugs, *(pk for _, pk, _ in resolved.related))
            for token in _tokens(pk, None, countries)
        ]
        base = Candidate.objects.all() if queryset is None else queryset
        if request.exclude_ids:
            base = base.exclude(pk__in=sorted(request.exclude_ids))
        if not pool_tokens:
            return _nobody(base)
        pool = base.filter(skill_tokens__overlap=pool_tokens)
        if resolved.excluded:
            pool = pool.exclude(skill_tokens__overlap=[t for pk in resolved.excluded for t in skill_tokens(pk)])
        if request.strict:
            for _, pk, min_score in resolved.required:
                if pk is None:
                    return _nobody(base)
                pool = pool.filter(skill_tokens__overlap=_tokens(pk, min_score, countries))
        if request.filters:
            pool = candidate_search(params=request.filters, user=request.user, queryset=pool)
        scoring = Scoring(request, resolved)
        match, values = positional(match_sql(scoring), scoring.params)
        missing = RequiredSkills.missing_sql(resolved)
        return pool.annotate(
            match=RawSQL(match, values, output_field=IntegerField()),  # noqa: S611 (constants, ints, parameters)
            missing_count=RawSQL(missing, [], output_field=IntegerField()),  # noqa: S611
            misses_any=RawSQL(f"({missing} > 0)::integer", [], output_field=IntegerField()),  # noqa: S611
        ).order_by(*ORDERING)

    def rank(self, request: RankRequest, *, resolved: Resolved | None = None) -> RankedIds:
        ranked = self.ranked_queryset(request, resolved=resolved)
        rows, has_more = ranking_page(ranked.values_list("misses_any", "match", "id"), request.page)
        total = ranked.count() if request.page.count else None
        return RankedIds(
            ids=tuple(pk for _, _, pk in rows), keys=tuple(rows), has_more=has_more, total=total, backend=self.name
        )

    def search_text(self, request: TextRequest) -> TextHits:
        filters = dict(request.filters or {})
        if ranking := sorted({"q", "ordering"} & set(filters)):
            raise ValidationError({name: ["the text search orders the candidates"] for name in ranking})
        found = candidate_search(params={**filters, "q": request.query, "ordering": "-rank"}, user=request.user)
        # The key's relevance in double precision: ``ts_rank`` is a real, whose value a Python float read from its
        # text does not equal exactly, so a page's last row would compare below itself and come again.
        found = found.annotate(relevance=Cast("rank", FloatField()))
        after = None
        if request.page.after is not None:
            relevance, pk = request.page.after
            after = Q(relevance__lt=relevance) | Q(relevance=relevance, pk__lt=pk)
        rows, has_more = _cut(found.values_list("relevance", "id"), request.page, after)
        total = found.count() if request.page.count else None
        return TextHits(
            ids=tuple(pk for _, pk in rows), keys=tuple(rows), has_more=has_more, total=total, backend=self.name
        )

    def index(self, candidate_ids: Iterable[int]) -> None:
        """Nothing to do: every request reads the candidate rows themselves."""

    def remove(self, candidate_ids: Iterable[int]) -> None:
        """Nothing to do: every request reads the candidate rows themselves."""
