"""DRF glue for the shared filters: run them through the selectors, document them from the FilterSets."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ValidationError as DjangoValidationError
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework.exceptions import ValidationError


def as_api_error(exc: DjangoValidationError) -> ValidationError:
    """A Django ValidationError (one message list per parameter) as DRF's, for the shared error shape."""
    if hasattr(exc, "error_dict"):
        return ValidationError(
            {("non_field_errors" if key == "__all__" else key): messages for key, messages in exc.message_dict.items()}
        )
    return ValidationError(exc.messages)


class SelectorFilterBackend(DjangoFilterBackend):
    """Filters through the view's ``search`` selector (the one path the admin and exports share).

    The view names its FilterSet in ``filterset_class`` for the OpenAPI schema, and a selector in ``search``:
    ``search(params=..., user=..., queryset=...)``, which validates and filters with that same FilterSet.
    """

    def filter_queryset(self, request, queryset, view):
        search: Callable = view.search
        try:
            return search(params=request.query_params, user=request.user, queryset=queryset)
        except DjangoValidationError as exc:
            raise as_api_error(exc) from exc
