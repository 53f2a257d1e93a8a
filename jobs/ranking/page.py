"""One page of ranked candidates, explained: the single path that ``POST jobs/match/``, ``GET jobs/{id}/matches/``,
``GET candidates/{id}/similar/`` and the admin's matches page all take, each with its own way of cutting a page
(a cursor or a page number): passed in as ``take``, or named as a ``Page`` for the search backend in use."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from jobs.criteria import Criteria
from jobs.ranking.formula import RESULT_FIELDS, rank_request
from profiles.models import Candidate
from profiles.search.backends.base import Page
from profiles.search.backends.sql import SqlBackend
from profiles.search.pages import ranked_rows
from profiles.search.ranking import resolve as resolve_request
from profiles.search.signals import Scoring, explain_page

# The switches of a ranking as query parameters, and what "1" does: shown in errors and in the API's schema.
SWITCHES = {
    "strict": "leave out candidates who miss a required skill",
    "widen": "widen the match with related skills",
    "anywhere": "rank candidates in every country, not only the job's",
}
_TRUE, _FALSE = ("1", "true"), ("0", "false")


@dataclass(frozen=True, slots=True)
class RankOptions:
    """How a ranking runs (the package docstring): ``strict`` drops whoever misses a requirement, ``widen`` adds
    related skills, ``anywhere`` ranks every country when the criteria name some."""

    strict: bool = False
    widen: bool = False
    anywhere: bool = False

    def query(self) -> dict[str, str]:
        """The switches that are on, as query parameters (what a page's links keep)."""
        return {name: "1" for name in SWITCHES if getattr(self, name)}


def rank_options(params: Mapping, *, lenient: bool = False) -> tuple[RankOptions, dict]:
    """The switches read from query parameters ("1"/"true" on, "0"/"false" or absent off), and the other parameters
    (the candidate filters that narrow the pool). Any other value is a ValidationError naming the switch; ``lenient``
    (a page's links, which a person may have edited) reads it as off."""
    values, errors = {}, {}
    for name in SWITCHES:
        raw = params.get(name)
        if raw is None:
            continue
        if raw not in (*_TRUE, *_FALSE) and not lenient:
            errors[name] = [f"1 (or true) to {SWITCHES[name]}, or 0"]
        values[name] = raw in _TRUE
    if errors:
        raise ValidationError(errors)
    rest = params.copy()  # a QueryDict's copy is mutable, and keeps a filter given twice
    for name in SWITCHES:
        rest.pop(name, None)
    return RankOptions(**values), rest


def ranked_page(
    criteria: Criteria,
    *,
    options: RankOptions,
    take: Callable[[QuerySet[Candidate]], Sequence[Candidate]] | None = None,
    params: Mapping | None = None,
    user=None,
    queryset: QuerySet[Candidate] | None = None,
    today: dt.date | None = None,
    page: Page | None = None,
    exclude_ids: Iterable[int] = (),
) -> list[Candidate]:
    """The candidates ranked by ``criteria`` with ``options`` and the filters in ``params``, one page of them, each
    explained (``candidates_explain``: ``matched``, ``missing``, ``evidence``). ``queryset``: the columns a row reads
    (default: those a row shows); ``exclude_ids``: candidates left out whatever they score (the subject of "more like
    this"). A backend other than SQL ranks every candidate, so leave people out by ``exclude_ids`` or ``params``,
    never by narrowing ``queryset``: a row it drops would leave a hole in a page the backend cut.

    The page is cut one of two ways. ``take`` cuts it from the ranked QuerySet (a keyset paginator, the admin's page
    numbers): that QuerySet is the SQL reference's ranking (``candidates_ranked``). ``page`` names it (``Page``: a
    limit, an offset, the key of the row before): the search backend in use ranks the ids and PostgreSQL reads their
    values (``profiles.search.pages.ranked_rows``): ask for one row more than a page shows to know whether a next one
    exists. Exactly one of the two is given."""
    if (take is None) == (page is None):
        raise TypeError("ranked_page cuts its page by take or by page: give one of them")
    request = rank_request(
        criteria,
        params=params,
        strict=options.strict,
        widen=options.widen,
        anywhere=options.anywhere,
        user=user,
        today=today,
        page=page,
        exclude_ids=exclude_ids,
    )
    resolved = resolve_request(request)  # once for the ranking and the explanation
    base = Candidate.objects.only(*RESULT_FIELDS) if queryset is None else queryset
    if take is not None:
        rows = list(take(SqlBackend().ranked_queryset(request, queryset=base, resolved=resolved)))
    else:
        rows = ranked_rows(request, queryset=base, resolved=resolved)
    return list(explain_page(rows, Scoring(request, resolved)))
