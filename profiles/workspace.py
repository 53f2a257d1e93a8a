"""Reads of the recruiter's workspace: how many candidates of a search share each value of a facet (country, badge,
spoken language), and which lists a candidate may be added to (shortlists, and the pipelines of jobs).

Facet counts are bounded: a search with an exact count of at most ``FACET_EXACT_ROWS`` candidates (the changelist
counts it anyway) is grouped in one query over at most that many rows; the whole database's counts come from
``common_values`` (exact on a small table, the planner's statistics on a large one), cached for
``FACET_CACHE_SECONDS``; a large filtered search shows no counts rather than scan a million rows per page.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.cache import cache
from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet

from db.counting import EXACT_COUNT_BELOW, EXACT_GROUPS_BELOW, common_values, table_row_estimate
from profiles.models import Candidate, Shortlist
from profiles.selectors import owned_by_another_model, pipeline_owner_relations, working_lists_for

FACET_EXACT_ROWS = EXACT_COUNT_BELOW
FACET_CACHE_SECONDS = 120
FACET_CACHE_KEY = "candidate-facets"
FACET_LIMIT = 30
# (facet, column, whether the column is an array whose elements are the values)
FACETS = (("country", "country_code", False), ("badge", "badges", True), ("language", "spoken_languages", True))


@dataclass(frozen=True)
class FacetCounts:
    by_facet: dict[str, dict[str, int]] = field(default_factory=dict)  # "country" → {"FI": 3, ...}
    estimated: bool = False  # the planner's estimates of a large database

    def of(self, facet: str, value: str) -> int | None:
        return self.by_facet.get(facet, {}).get(value)


def facet_counts(*, queryset: QuerySet[Candidate] | None, limit: int = FACET_LIMIT) -> FacetCounts:
    """Counts by value of each facet, by the facet's parameter name.

    ``queryset`` None: the whole database (cached). Otherwise a search whose size is known to be at most
    ``FACET_EXACT_ROWS``: its rows are grouped, at most that many read whatever the search."""
    if queryset is None:
        return cache.get_or_set(FACET_CACHE_KEY, _database_facet_counts, timeout=FACET_CACHE_SECONDS)
    try:
        found, params = queryset.order_by().values("pk")[: FACET_EXACT_ROWS + 1].query.sql_with_params()
    except EmptyResultSet:  # a search known to find nobody (.none())
        return FacetCounts(by_facet={name: {} for name, _, _ in FACETS})
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(_FACETS_OF_SEARCH_SQL.format(found=found), params)
        rows = cursor.fetchall()
    if any(facet == "" and n > FACET_EXACT_ROWS for facet, _, n in rows):
        return FacetCounts()
    counts: dict[str, dict[str, int]] = {name: {} for name, _, _ in FACETS}
    for facet, value, n in rows:
        if facet and value and len(counts[facet]) < limit:
            counts[facet][value] = n
    return FacetCounts(by_facet=counts)


# One query for the three facets of a search: its candidates (at most FACET_EXACT_ROWS + 1, the first row tells how
# many there were) grouped by each facet's values, most common first.
_FACETS_OF_SEARCH_SQL = """
WITH found AS MATERIALIZED (
    SELECT c.id, c.country_code, c.badges, c.spoken_languages FROM profiles_candidate c WHERE c.id IN ({found})
)
SELECT '', '', count(*) FROM found
UNION ALL (SELECT 'country', country_code, count(*) FROM found WHERE country_code <> '' GROUP BY 2 ORDER BY 3 DESC, 2)
UNION ALL (SELECT 'badge', v, count(*) FROM found, unnest(badges) AS v WHERE v <> '' GROUP BY 2 ORDER BY 3 DESC, 2)
UNION ALL (SELECT 'language', v, count(*) FROM found, unnest(spoken_languages) AS v WHERE v <> ''
    GROUP BY 2 ORDER BY 3 DESC, 2)
"""


def _database_facet_counts(*, limit: int = FACET_LIMIT) -> FacetCounts:
    return FacetCounts(
        by_facet={
            name: dict(common_values(Candidate, column, limit=limit, elements=elements))
            for name, column, elements in FACETS
        },
        estimated=table_row_estimate(Candidate) >= EXACT_GROUPS_BELOW,
    )


def facet_counts_forget() -> None:
    cache.delete(FACET_CACHE_KEY)


# --- Where a candidate can be added ---------------------------------------------------------------------------------


def shortlists_to_add_to(*, user) -> QuerySet[Shortlist]:
    """The shortlists ``user`` may add candidates to, by name, leaving out the jobs' pipelines."""
    writable = working_lists_for(user=user, queryset=Shortlist.objects.all(), for_writing=True)
    return writable.exclude(owned_by_another_model()).order_by("name", "id")


def pipelines_to_add_to(*, user) -> QuerySet[Shortlist]:
    """The pipelines (shortlists a job owns) ``user`` may add candidates to, newest job first; none without jobs."""
    if not pipeline_owner_relations():
        return Shortlist.objects.none()
    writable = working_lists_for(user=user, queryset=Shortlist.objects.all(), for_writing=True)
    return writable.filter(owned_by_another_model()).order_by("-created_at", "-id")
