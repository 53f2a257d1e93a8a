"""``GET /candidates/`` and ``GET /candidates/{id}/``: the filtered, ordered list and one candidate's profile.

Every endpoint needs a login (DEFAULT_PERMISSION_CLASSES is IsAuthenticated; views only add to it); these implement
GET only, so any other method is a 405."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics

from api.candidates.serializers import CandidateDetailSerializer, CandidateListSerializer
from api.filters import SelectorFilterBackend
from api.pagination import KeysetPagination
from ingestion.selectors import candidate_sources_prefetch
from profiles.contacts import identifiers_prefetch, may_see_contact_details
from profiles.models import Candidate
from profiles.search.filtersets import CandidateFilterSet
from profiles.search.skills import MATCH_FORMULA
from profiles.selectors import candidate_detail, candidate_search, candidates_attach_skills, candidates_for_listing

_MATCH_PARAMETERS = [
    OpenApiParameter(
        "skill",
        OpenApiTypes.STR,
        many=True,
        description="Repeatable `slug` or `slug:min_score`: skills to compute `match` for (not a filter here).",
    ),
    OpenApiParameter("any_skill", OpenApiTypes.STR, description="Comma-separated skills, counted in `match` too."),
]


class CandidateSearchMixin:
    """Candidates through ``profiles.selectors.candidate_search``: the filters of the admin and the exports."""

    filter_backends = [SelectorFilterBackend]
    filterset_class = CandidateFilterSet
    search = staticmethod(candidate_search)

    def get_queryset(self):
        return candidates_for_listing()


@extend_schema_view(
    get=extend_schema(
        summary="Filtered, ranked candidates",
        description=(
            "All filters combine with AND; unknown parameters and bad values are a 400. "
            f"With skill filters each result has `match`, the skill match: {MATCH_FORMULA} Default ordering: `-match` "
            "with skill filters, `-rank` with `q`, else `-updated_at`. Cursor-paginated: follow `next`."
        ),
    )
)
class CandidateListView(CandidateSearchMixin, generics.ListAPIView):
    serializer_class = CandidateListSerializer
    pagination_class = KeysetPagination

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        candidates_attach_skills(page)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


@extend_schema_view(
    get=extend_schema(
        summary="One candidate's profile",
        description=(
            "The profile with its sources; for users with the contact details permission (the Recruiter group), "
            "`email`, `phone` and `links` (the public pages: accounts, profile URLs, the site) too. With `skill` / "
            f"`any_skill`, `match` too, the skill match: {MATCH_FORMULA}"
        ),
        parameters=_MATCH_PARAMETERS,
    )
)
class CandidateDetailView(generics.RetrieveAPIView):
    serializer_class = CandidateDetailSerializer
    queryset = Candidate.objects.none()  # for the schema; rows come from the selector

    def get_object(self) -> Candidate:
        try:
            return candidate_detail(
                candidate_id=self.kwargs["pk"],
                params=self.request.query_params,
                prefetch=[
                    candidate_sources_prefetch(user=self.request.user),
                    *([identifiers_prefetch()] if may_see_contact_details(self.request.user) else []),
                ],
            )
        except Candidate.DoesNotExist as exc:
            raise Http404("No candidate with this id.") from exc
