"""Ranked candidates from stored criteria: ``GET /jobs/{id}/matches/`` and ``GET /candidates/{id}/similar/``.

Both answer as ``POST /jobs/match/`` does (its result shape, job fit, ``strict`` and keyset pagination) with the
criteria read from the database instead of a pasted description: a job's stored criteria
(``jobs.selectors.job_criteria``) or one candidate's strongest skills and topics (``jobs.ranking.similar_criteria``),
ranked and explained by ``jobs.ranking.ranked_page``.
The candidate filters of ``GET /candidates/`` narrow the ranked pool, except those that would rank (``skill``,
``any_skill``, ``q``, ``ordering``): the criteria rank here. Both need the candidate view permission; a job's matches
need ``jobs.view_job`` too, and only a job the user may read (their own, one shared with them, any for a superuser)
answers; another's private job is a 404, as in ``api.jobs.stored_jobs``.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.reverse import reverse

from api.filters import SelectorFilterBackend
from api.jobs.criteria import CriteriaSerializer
from api.jobs.ranked_pages import (
    ANYWHERE_PARAMETER,
    JOB_FIT_FORMULA,
    RANKED_PAGE_PARAMETERS,
    WIDEN_PARAMETER,
    CanViewCandidates,
    MatchResultSerializer,
    RankedPagination,
    ranked_results,
)
from api.jobs.stored_jobs import JobMixin, JobPermission
from jobs.ranking import (
    SIMILAR_MARGIN,
    SIMILAR_PREFERRED,
    SIMILAR_REQUIRED,
    SIMILAR_TOPICS,
    RankOptions,
    rank_options,
    similar_criteria,
)
from jobs.selectors import NO_SKILL_WARNING, job_criteria
from profiles.models import Candidate
from profiles.search.filtersets import CandidateFilterSet


class RankedCandidateFilterSet(CandidateFilterSet):
    """The candidate filters these endpoints accept, for the schema: the list's, less those that would rank (the
    selector refuses them with a 400 naming each)."""

    skill = any_skill = q = ordering = None


_FILTERS = (
    " The candidate filters of `GET /candidates/` (`country`, `location`, `title`, ...; not `skill`, `any_skill`, "
    "`q` or `ordering`, which would rank) narrow the ranked pool. Cursor-paginated: follow `next`."
)


class JobMatchesResponseSerializer(serializers.Serializer):
    job = serializers.URLField()
    criteria = CriteriaSerializer(help_text="The job's stored criteria, as `GET /jobs/{id}/` shows them.")
    results = MatchResultSerializer(many=True)
    next = serializers.URLField(allow_null=True)
    warnings = serializers.ListField(child=serializers.CharField(), help_text="Why no one can be ranked, if so.")


class SimilarCandidatesResponseSerializer(serializers.Serializer):
    candidate = serializers.URLField()
    criteria = CriteriaSerializer(help_text="What was read from the candidate and ranked by.")
    results = MatchResultSerializer(many=True)
    next = serializers.URLField(allow_null=True)


class RankedPageMixin:
    pagination_class = RankedPagination
    # Only for the schema, which documents the filters from it; the selectors apply them (candidates_ranked).
    filter_backends = [SelectorFilterBackend]
    filterset_class = RankedCandidateFilterSet
    queryset = Candidate.objects.none()

    def ranked_results(
        self, request, criteria, *, options: RankOptions, params, exclude_ids=()
    ) -> tuple[list[dict], str | None]:
        """One page of ``jobs.ranking.ranked_page`` as result rows, and the link to the next."""
        return ranked_results(self, request, criteria, options=options, params=params, exclude_ids=exclude_ids)


class JobMatchesView(RankedPageMixin, JobMixin, generics.GenericAPIView):
    permission_classes = [IsAuthenticated, CanViewCandidates, JobPermission]
    serializer_class = JobMatchesResponseSerializer

    @extend_schema(
        summary="Candidates ranked for a stored job",
        description="The job's stored criteria (`GET /jobs/{id}/`) rank the candidates who hold at least one of its "
        "skills, exactly as `POST /jobs/match/` ranks a description's. "
        + JOB_FIT_FORMULA
        + _FILTERS
        + " Needs profiles.view_candidate and jobs.view_job; a job you may not read is a 404.",
        parameters=[*RANKED_PAGE_PARAMETERS, WIDEN_PARAMETER, ANYWHERE_PARAMETER],
        responses={200: JobMatchesResponseSerializer},
        filters=True,
    )
    def get(self, request, *args, **kwargs):
        job = self.get_object()
        options, params = rank_options(request.query_params)
        criteria = job_criteria(job)
        results, next_link = self.ranked_results(request, criteria, options=options, params=params)
        return Response(
            {
                "job": reverse("api:job-detail", kwargs={"pk": job.pk}, request=request),
                "criteria": criteria.to_dict(),
                "results": results,
                "next": next_link,
                "warnings": [] if criteria.skills else [NO_SKILL_WARNING],
            }
        )


SIMILAR_RULE = (
    f"The criteria are read from the candidate: their {SIMILAR_REQUIRED} strongest skills required, each at their "
    f"score minus {SIMILAR_MARGIN}; the next {SIMILAR_PREFERRED} preferred; the {SIMILAR_TOPICS} heaviest topics of "
    "their repositories (commits and active months, decayed by age) preferred too when a skill, else keywords. No "
    "years or countries. The candidate is left out."
)


class CandidateSimilarView(RankedPageMixin, generics.GenericAPIView):
    permission_classes = [IsAuthenticated, CanViewCandidates]
    serializer_class = SimilarCandidatesResponseSerializer

    @extend_schema(
        summary="More like this: candidates similar to one",
        description=SIMILAR_RULE + " They rank as in `POST /jobs/match/`. " + JOB_FIT_FORMULA + _FILTERS,
        parameters=RANKED_PAGE_PARAMETERS,
        responses={200: SimilarCandidatesResponseSerializer},
        filters=True,
    )
    def get(self, request, *args, **kwargs):
        # Only ``strict``: the criteria read from a candidate name no countries, and a related skill makes no peer.
        if unknown := sorted({"widen", "anywhere"} & set(request.query_params)):
            raise DjangoValidationError(
                {name: ["not a switch of similar candidates (only strict is)"] for name in unknown}
            )
        options, params = rank_options(request.query_params)
        try:
            criteria = similar_criteria(candidate_id=self.kwargs["pk"])
        except Candidate.DoesNotExist as exc:
            raise Http404("No candidate with this id.") from exc
        results, next_link = self.ranked_results(
            request, criteria, options=options, params=params, exclude_ids=(self.kwargs["pk"],)
        )
        return Response(
            {
                "candidate": reverse("api:candidate-detail", kwargs={"pk": self.kwargs["pk"]}, request=request),
                "criteria": criteria.to_dict(),
                "results": results,
                "next": next_link,
            }
        )
