"""Changelists at scale: a paginator that does not count a large table, and the candidate changelist, which runs the
shared filters (``candidate_search``) once and leaves ordering and pagination to Django."""

from __future__ import annotations

from django.contrib.admin.views.main import ORDER_VAR, SEARCH_VAR, ChangeList
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.utils.functional import cached_property

from db.counting import queryset_count
from profiles.admin.chips import active_filter_chips
from profiles.admin.sidebar import SHARED_PARAMS, SIDEBAR_PARAMS
from profiles.workspace import FACET_EXACT_ROWS, FacetCounts, facet_counts

# Parameters whose search has an order of its own (``candidate_search``: best match first), kept until a column
# header is clicked.
ORDERED_BY_SEARCH = ("ordering", "skill", "any_skill")


class EstimatedCountPaginator(Paginator):
    """A paginator that never runs COUNT(*) over a large table: PostgreSQL's estimate stands in above 10,000 rows,
    and for a smaller result whose count the planner prices above ``COUNT_MAX_COST`` or that overruns
    ``COUNT_BUDGET_MS`` (the cost bound and the budget were measured together at 1M candidates: docs/benchmarks.md)."""

    COUNT_BUDGET_MS = 40
    COUNT_MAX_COST = 40_000
    is_estimate = False

    @cached_property
    def count(self) -> int:
        count, self.is_estimate = queryset_count(
            self.object_list, budget_ms=self.COUNT_BUDGET_MS, max_cost=self.COUNT_MAX_COST
        )
        return count


class CandidateChangeList(ChangeList):
    """Runs the shared filters once on the root queryset; the admin then adds its ordering and pagination."""

    def get_filters_params(self, params=None):
        lookup_params = super().get_filters_params(params)
        for name in SHARED_PARAMS - SIDEBAR_PARAMS:
            lookup_params.pop(name, None)
        return lookup_params

    def get_queryset(self, request, exclude_parameters=None):
        self.request = request
        if not getattr(self, "_shared_filters_applied", False):
            self.root_queryset = self.model_admin.shared_filtered_queryset(request, self.root_queryset)
            self._shared_filters_applied = True
        queryset = super().get_queryset(request, exclude_parameters)
        shared = self.model_admin.shared_params(request)
        if set(shared) - {SEARCH_VAR, "ordering"}:
            self.has_active_filters = True
        self.clear_all_filters_qs = self.get_query_string(remove=sorted(SHARED_PARAMS - {SEARCH_VAR, "ordering"}))
        return queryset

    def get_ordering(self, request, queryset):
        # A search's own order (a saved search's `ordering`, or best match first when skills are asked for) holds
        # until a column header is clicked.
        if ORDER_VAR not in self.params and any(self.params.get(name) for name in ORDERED_BY_SEARCH):
            return list(queryset.query.order_by)
        return super().get_ordering(request, queryset)

    @cached_property
    def chips(self):
        return active_filter_chips(self.request.GET, path=self.request.path)

    @cached_property
    def facet_counts(self) -> FacetCounts:
        """Counts for the sidebar's facets: the whole database's (cached) on an unfiltered page; a search's own when
        its count was exact and small; none for a large search (counting it would scan the table)."""
        if not self.model_admin.shared_params(self.request):
            return facet_counts(queryset=None)
        if self.result_count_is_estimate or self.result_count > FACET_EXACT_ROWS:
            return FacetCounts()
        return facet_counts(queryset=self.queryset)

    def get_results(self, request):
        super().get_results(request)
        self.result_count_is_estimate = getattr(self.paginator, "is_estimate", False)
        if self.result_count_is_estimate:
            # The planner's guess can be off: a short page tells the true size.
            shown = len(self.result_list)
            if shown < self.list_per_page:
                self.result_count = (self.page_num - 1) * self.list_per_page + shown
                self.result_count_is_estimate = False


def plain_messages(exc: ValidationError) -> list[str]:
    """One line per parameter of the shared filters: ``skill: 'python:11' is not slug or slug:min_score with a score
    0-10``."""
    if not hasattr(exc, "error_dict"):
        return exc.messages
    return [
        " ".join(m for error in errors for m in error.messages)
        if name == "__all__"
        else f"{name}: {' '.join(m for error in errors for m in error.messages)}"
        for name, errors in exc.error_dict.items()
    ]
