"""``GET /candidates/`` and ``GET /candidates/{id}/``: the filtered, ordered list and one candidate's profile.

Every endpoint needs a login (DEFAULT_PERMISSION_CLASSES is IsAuthenticated; views only add to it); these implement
GET only, so any other method is a 405."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics
from rest_framework.exceptions import ValidationError

from api.candidates.serializers import CandidateDetailSerializer, CandidateListSerializer
from api.filters import SelectorFilterBackend
from api.pagination import TextPagination
from ingestion.selectors import candidate_sources_prefetch
from profiles.contacts import identifiers_prefetch, may_see_contact_details
from profiles.models import Candidate
from profiles.search.filtersets import CandidateFilterSet
from profiles.search.skills import MATCH_FORMULA
from profiles.search.text_pages import UnreadableKey, text_page, text_relevance_orders
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
            "with skill filters, `-rank` with `q`, else `-updated_at`. Cursor-paginated: follow `next`. Ordered by "
            "`q`'s relevance, the search backend cuts the page (BM25 in the ranking index, `ts_rank` in SQL; "
            "`X-Search-Backend` says which) and `previous` leads to the first page."
        ),
    )
)
class CandidateListView(CandidateSearchMixin, generics.ListAPIView):
    serializer_class = CandidateListSerializer
    pagination_class = TextPagination

    def list(self, request, *args, **kwargs):
        page = None
        if text_relevance_orders(request.query_params):
            page = self._text_page(request)
        if page is None:
            page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        candidates_attach_skills(page)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def _text_page(self, request) -> list | None:
        """The page of an order by ``q``'s relevance, cut by the search backend in use; None for a backwards cursor,
        which the keyset over the filters answers."""
        paginator: TextPagination = self.paginator
        wanted = paginator.text_page_wanted(request)
        if wanted is None:
            return None
        try:
            found = text_page(params=request.query_params, page=wanted, user=request.user)
        except UnreadableKey as exc:
            raise ValidationError({paginator.cursor_query_param: ["not a cursor this API gave out"]}) from exc
        return paginator.keep_text_page(found.rows, page=wanted, last_key=found.last_key, has_more=found.has_more)


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
