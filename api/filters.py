"""DRF glue for the shared filters: run them through the selectors, document them from the FilterSets."""

from __future__ import annotations

from collections.abc import Callable

from django_filters.rest_framework import DjangoFilterBackend


class SelectorFilterBackend(DjangoFilterBackend):
    """Filters through the view's ``search`` selector (the one path the admin and exports share).

    The view names its FilterSet in ``filterset_class`` for the OpenAPI schema, and a selector in ``search``:
    ``search(params=..., user=..., queryset=...)``, which validates and filters with that same FilterSet. A bad
    parameter is the selector's Django ValidationError, which ``api.exceptions`` answers as a 400 naming it.
    """

    def filter_queryset(self, request, queryset, view):
        search: Callable = view.search
        return search(params=request.query_params, user=request.user, queryset=queryset)
