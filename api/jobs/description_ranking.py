"""``POST /api/v1/jobs/match/``: paste a job description, get the candidates ranked for it by their job fit, each
fit explained.

Nothing is stored: the description's criteria are extracted (``jobs.selectors.description_criteria``), the
recruiter's overrides replace what they name, and ``jobs.ranking.ranked_page`` ranks and explains a page, as for a
stored job and on the admin's matches page. A POST because a
description does not fit a URL; it reads only, so it needs a login and the candidate view permission, not a write
permission (session clients send the CSRF token, as for every POST: DRF's SessionAuthentication checks it).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from api.jobs.criteria import CriteriaOverridesSerializer, CriteriaSerializer, DescriptionField, StrictSerializer
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
from jobs.ranking import rank_options
from jobs.selectors import NO_SKILL_WARNING, criteria_overridden, description_criteria


class JobMatchRequestSerializer(StrictSerializer):
    description = DescriptionField(
        help_text="The job description as pasted (plain text), at most JOB_DESCRIPTION_MAX_CHARS (100,000) characters."
    )
    criteria = CriteriaOverridesSerializer(required=False)


class JobMatchResponseSerializer(serializers.Serializer):
    criteria = CriteriaSerializer()
    results = MatchResultSerializer(many=True)
    next = serializers.URLField(allow_null=True, help_text="POST the same body to this URL for the next page.")
    warnings = serializers.ListField(child=serializers.CharField(), help_text="What was not understood.")


class JobMatchView(generics.GenericAPIView):
    permission_classes = [IsAuthenticated, CanViewCandidates]
    serializer_class = JobMatchRequestSerializer
    pagination_class = RankedPagination
    filter_backends: list = []

    @extend_schema(
        summary="Candidates ranked for a job description",
        description=(
            "The description's criteria (skills required with a minimum score, preferred, excluded; years; "
            "countries; remote; keywords), with `criteria` overriding what it names, rank the candidates who hold at "
            "least one of the skills (in the criteria's countries, unless `anywhere=1`). Nothing is stored. "
            + JOB_FIT_FORMULA
            + " Candidate filters (`country`, `location`, `title`...) may be added as query parameters to narrow the "
            "pool. A description in which no skill is found answers no results and a warning."
        ),
        request=JobMatchRequestSerializer,
        responses={200: JobMatchResponseSerializer},
        parameters=[*RANKED_PAGE_PARAMETERS, WIDEN_PARAMETER, ANYWHERE_PARAMETER],
    )
    def post(self, request, *args, **kwargs):
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        criteria = description_criteria(body.validated_data["description"])
        criteria = criteria_overridden(criteria, body.validated_data.get("criteria", {}))
        options, params = rank_options(request.query_params)
        warnings = list(criteria.warnings)
        if not criteria.skills:
            warnings.append(NO_SKILL_WARNING)
        results, next_link = ranked_results(self, request, criteria, options=options, params=params)
        return Response(
            {
                "criteria": criteria.to_dict(),
                "results": results,
                "next": next_link,
                "warnings": warnings,
            }
        )
