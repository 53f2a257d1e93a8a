"""Reads of export jobs. An export is its owner's alone, superusers included: the file holds a search someone ran, and
nobody else's work needs it."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import QueryDict

from exports.models import Export
from profiles.models import Candidate
from profiles.selectors import candidate_search, candidates_for_listing, candidates_for_profiles


def exports_for(*, user) -> QuerySet[Export]:
    """The user's exports, newest first."""
    return Export.objects.filter(owner=user).order_by("-created_at", "-id")


def export_detail(*, export_id: int, user) -> Export:
    """One of the user's exports; ``Export.DoesNotExist`` for another user's, as for one that does not exist."""
    return exports_for(user=user).get(pk=export_id)


def exports_active_count(*, user) -> int:
    """The user's queued and running export jobs."""
    return Export.objects.filter(owner=user, status__in=Export.ACTIVE).count()


def export_candidates(*, format: str, query: str, user) -> QuerySet[Candidate]:
    """The candidates of an export in its order: the API's filters (``candidate_search``) over the columns the format
    writes. Raises Django's ValidationError for a bad query, naming the parameter, as the list does."""
    base = candidates_for_profiles() if format == Export.Format.JSONL else candidates_for_listing()
    return candidate_search(params=QueryDict(query), user=user, queryset=base)
