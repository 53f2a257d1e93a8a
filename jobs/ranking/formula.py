"""A job's criteria as a ranking request, and the candidates ranked for them by the SQL reference.

The formula, its weights and its signals are ``profiles.search.signals``'; the request's skills are resolved by
``profiles.search.ranking``; the statement is ``profiles.search.backends.sql``'s. This module maps the job's
``Criteria`` onto the neutral ``RankRequest`` (the domain never imports jobs).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

from django.db.models import QuerySet

from jobs.criteria import Criteria
from profiles.models import Candidate
from profiles.search.backends.base import Page, RankRequest
from profiles.search.backends.sql import SqlBackend
from profiles.search.ranking import Resolved
from profiles.search.ranking import resolve as resolve_request

__all__ = ["RESULT_FIELDS", "candidates_ranked", "place_applies", "rank_request", "resolve"]

# The columns a ranked row shows (id, name, title, company, location) and its explanation reads (the scores).
RESULT_FIELDS = ("id", "name", "title", "company", "city", "region", "country", "country_code", "skill_scores")


def rank_request(
    criteria: Criteria,
    *,
    params: Mapping | None = None,
    strict: bool = False,
    widen: bool = False,
    anywhere: bool = False,
    user=None,
    today: dt.date | None = None,
    exclude_ids: Iterable[int] = (),
    page: Page | None = None,
) -> RankRequest:
    """``criteria`` with the switches, the candidate filters (``params``) and the page, as the search backend takes
    them. ``remote`` and what the criteria left out (``ignored``, ``unrecognised``) do not rank."""
    return RankRequest(
        required=tuple(criteria.required),
        preferred=tuple(criteria.preferred),
        excluded=tuple(criteria.excluded),
        min_years_coding=criteria.min_years_coding,
        countries=tuple(criteria.countries),
        keywords=tuple(criteria.keywords),
        strict=strict,
        widen=widen,
        anywhere=anywhere,
        filters=params or None,
        exclude_ids=frozenset(exclude_ids),
        today=today,
        page=page or Page(),
        user=user,
    )


def resolve(criteria: Criteria, *, widen: bool = False) -> Resolved:
    """The criteria's skills looked up (one query; widened, two)."""
    return resolve_request(rank_request(criteria, widen=widen))


def place_applies(criteria: Criteria, *, anywhere: bool, params: Mapping | None) -> bool:
    """Whether the pool is kept to the criteria's countries: they name some, the recruiter did not ask for everyone
    (``anywhere``), and no ``country`` filter names the place instead."""
    return rank_request(criteria, anywhere=anywhere, params=params).place_applies


def candidates_ranked(
    criteria: Criteria,
    *,
    params: Mapping | None = None,
    strict: bool = False,
    widen: bool = False,
    anywhere: bool = False,
    user=None,
    today: dt.date | None = None,
    queryset: QuerySet[Candidate] | None = None,
    resolved: Resolved | None = None,
) -> QuerySet[Candidate]:
    """The pool of ``criteria`` annotated with ``match`` (0-100), ``missing_count`` and ``misses_any`` (0 or 1), in
    ``ORDERING``, by the SQL reference (``SqlBackend.ranked_queryset``; ``profiles.search.signals`` gives the rule).
    ``params`` are candidate filters (query-string form) that narrow the pool; those that would rank (``skill``,
    ``any_skill``, ``q``, ``ordering``) are a ValidationError, as is any the filters refuse. ``strict``: only whoever
    meets every requirement. ``widen``: related skills join the pool and stand in for the skills they go with, at a
    lower weight. ``anywhere``: candidates in every country, not only the criteria's (``place_applies``). ``today``
    dates the evidence (default: today, UTC). ``resolved``: the criteria's skills as ``resolve`` gave them for this
    ``widen``, when the caller has them already (a page explains with them)."""
    request = rank_request(
        criteria, params=params, strict=strict, widen=widen, anywhere=anywhere, user=user, today=today
    )
    return SqlBackend().ranked_queryset(request, queryset=queryset, resolved=resolved)
