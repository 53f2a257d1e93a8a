"""``POST /api/v1/jobs/match/``: paste a job description, get the candidates ranked for it, each match explained.

Nothing is stored: the description's criteria are extracted (``jobs.selectors.description_criteria``), the
recruiter's overrides replace what they name, and ``jobs.ranking.ranked_page`` ranks and explains a page, as for a
stored job and on the admin's matches page. A POST because a
description does not fit a URL; it reads only, so it needs a login and the candidate view permission, not a write
permission (session clients send the CSRF token, as for every POST: DRF's SessionAuthentication checks it).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.reverse import reverse

from api.job_reading import ignored_field, unrecognised_field
from api.pagination import KeysetPagination
from api.serializers import LocationSerializer, candidate_location
from core.countries import country_code
from jobs.criteria import DEFAULT_MIN_SCORE
from jobs.ranking import (
    RELATED_WEIGHT,
    WEIGHT_EVIDENCE,
    WEIGHT_KEYWORDS,
    WEIGHT_LOCATION,
    WEIGHT_PREFERRED,
    WEIGHT_REQUIRED,
    WEIGHT_YEARS,
    WIDEN_MIN_LIFT,
    WIDEN_PER_SKILL,
    rank_options,
    ranked_page,
)
from jobs.selectors import NO_SKILL_WARNING, criteria_overridden, description_criteria
from profiles.models import Candidate

VIEW_CANDIDATE_PERMISSION = "profiles.view_candidate"
MAX_LIST_ITEMS = 100  # per criteria list; the selector also caps the skills at SEARCH_MAX_TERMS

JOB_MATCH_FORMULA = (
    f"match (0-100) = round({WEIGHT_REQUIRED} × required fit + {WEIGHT_PREFERRED} × preferred fit + "
    f"{WEIGHT_EVIDENCE} × contribution evidence + {WEIGHT_KEYWORDS} × keyword fit + {WEIGHT_YEARS} × years fit + "
    f"{WEIGHT_LOCATION} × location fit), each fit 0-1; the required fit is how much of the requirement the "
    'candidate covers, the mean of min(score / min_score, 1) over the required skills (docs/jobs.md, "Ranking"). '
    "Whoever meets every required skill (an empty `missing`) comes first, then `-match`, then id."
)


class CanViewCandidates(BasePermission):
    message = f"Matching candidates needs the candidate view permission ({VIEW_CANDIDATE_PERMISSION})."

    def has_permission(self, request, view) -> bool:
        return request.user.has_perm(VIEW_CANDIDATE_PERMISSION)


# --- Request ------------------------------------------------------------------------------------------------------


class StrictSerializer(serializers.Serializer):
    """Refuses keys it does not declare: a misspelt override must not be silently ignored."""

    def to_internal_value(self, data):
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, dict) else []
        if unknown:
            raise serializers.ValidationError(
                {
                    "non_field_errors": [
                        f"Unknown field(s): {', '.join(unknown)}. Known: {', '.join(sorted(self.fields))}."
                    ]
                }
            )
        return super().to_internal_value(data)


class RequiredSkillSerializer(StrictSerializer):
    skill = serializers.CharField(max_length=200, help_text="A skill's slug or alias.")
    min_score = serializers.IntegerField(min_value=0, max_value=10, default=DEFAULT_MIN_SCORE)


class PreferredSkillSerializer(StrictSerializer):
    skill = serializers.CharField(max_length=200, help_text="A skill's slug or alias.")


class CountryField(serializers.CharField):
    def to_internal_value(self, data) -> str:
        code = country_code(super().to_internal_value(data))
        if not code:
            raise serializers.ValidationError(f"{data!r} is not a country name or ISO code.")
        return code


class CriteriaOverridesSerializer(StrictSerializer):
    """Each field given replaces what the description gave; the others stay as extracted."""

    required = RequiredSkillSerializer(many=True, required=False, max_length=MAX_LIST_ITEMS)
    preferred = PreferredSkillSerializer(many=True, required=False, max_length=MAX_LIST_ITEMS)
    excluded = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False, max_length=MAX_LIST_ITEMS
    )
    min_years_coding = serializers.IntegerField(min_value=0, max_value=80, allow_null=True, required=False)
    countries = serializers.ListField(
        child=CountryField(max_length=80), required=False, max_length=MAX_LIST_ITEMS, help_text="Names or ISO codes."
    )
    remote = serializers.BooleanField(allow_null=True, required=False)
    keywords = serializers.ListField(
        child=serializers.CharField(max_length=100), required=False, max_length=MAX_LIST_ITEMS
    )


_JSON_KINDS = {bool: "a boolean", int: "a number", float: "a number", list: "an array", dict: "an object"}


def _string_or_refused(data):
    """``data`` when it is a string; else a ValidationError saying what came instead, so that no service is handed
    a number, a list or an object where it reads text (DRF's CharField turns numbers into strings)."""
    if not isinstance(data, str):
        raise serializers.ValidationError(
            f"This field must be text (a JSON string), not {_JSON_KINDS.get(type(data), type(data).__name__)}.",
            code="invalid",
        )
    return data


class StrictCharField(serializers.CharField):
    """A CharField that takes strings only: ``5`` is refused, not read as ``"5"``."""

    def to_internal_value(self, data):
        return super().to_internal_value(_string_or_refused(data))


class DescriptionField(serializers.Field):
    """The text as sent, if it is a string: the extractor judges it (empty, too long, binary, control characters) and
    says why."""

    def to_internal_value(self, data):
        return _string_or_refused(data)


extend_schema_field({"type": "string"})(DescriptionField)


class JobMatchRequestSerializer(StrictSerializer):
    description = DescriptionField(
        help_text="The job description as pasted (plain text), at most JOB_DESCRIPTION_MAX_CHARS (100,000) characters."
    )
    criteria = CriteriaOverridesSerializer(required=False)


# --- Answer (the schema; the view writes the same dicts) -----------------------------------------------------------


class _RequiredOut(serializers.Serializer):
    skill = serializers.CharField()
    min_score = serializers.IntegerField(min_value=0, max_value=10)


class _PreferredOut(serializers.Serializer):
    skill = serializers.CharField()


class CriteriaSerializer(serializers.Serializer):
    required = _RequiredOut(many=True)
    preferred = _PreferredOut(many=True)
    excluded = serializers.ListField(child=serializers.CharField())
    min_years_coding = serializers.IntegerField(allow_null=True)
    countries = serializers.ListField(child=serializers.CharField(), help_text="ISO 3166-1 alpha-2.")
    remote = serializers.BooleanField(allow_null=True)
    keywords = serializers.ListField(child=serializers.CharField())
    ignored = ignored_field()
    unrecognised = unrecognised_field()


class MatchedSkillSerializer(serializers.Serializer):
    skill = serializers.CharField()
    score = serializers.IntegerField(min_value=0, max_value=10)
    required = serializers.BooleanField()
    related_to = serializers.CharField(
        required=False,
        help_text="Only with `widen=1`, on a skill the criteria do not name: the criteria's skill it is related to.",
    )


class EvidenceSerializer(serializers.Serializer):
    repository = serializers.CharField(help_text="owner/name")
    commits = serializers.IntegerField()
    last_active = serializers.CharField(allow_null=True, help_text="YYYY-MM; this month while the work goes on.")
    topics = serializers.ListField(child=serializers.CharField(), help_text="The repository's topics the job asks for.")


class MatchResultSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    name = serializers.CharField()
    title = serializers.CharField()
    company = serializers.CharField()
    location = LocationSerializer()
    match = serializers.IntegerField(min_value=0, max_value=100, help_text=JOB_MATCH_FORMULA)
    matched = MatchedSkillSerializer(many=True)
    missing = serializers.ListField(child=serializers.CharField(), help_text="Required skills lacked or below minimum.")
    evidence = EvidenceSerializer(many=True)


class JobMatchResponseSerializer(serializers.Serializer):
    criteria = CriteriaSerializer()
    results = MatchResultSerializer(many=True)
    next = serializers.URLField(allow_null=True, help_text="POST the same body to this URL for the next page.")
    warnings = serializers.ListField(child=serializers.CharField(), help_text="What was not understood.")


# The query parameters of every ranked endpoint (jobs/match/, jobs/{id}/matches/, candidates/{id}/similar/).
RANKED_PAGE_PARAMETERS = [
    OpenApiParameter(
        "strict",
        OpenApiTypes.STR,
        enum=["0", "1", "true", "false"],
        description="1: leave out candidates missing a required skill (default 0: rank them after whoever meets "
        "every requirement).",
    ),
    OpenApiParameter("cursor", OpenApiTypes.STR, description="Opaque position from a `next` link."),
    OpenApiParameter("page_size", OpenApiTypes.INT, description="Results per page (default 50, at most 500)."),
]


WIDEN_PARAMETER = OpenApiParameter(
    "widen",
    OpenApiTypes.STR,
    enum=["0", "1", "true", "false"],
    description="1: widen the match with related skills (default 0: off). Each required and preferred skill brings "
    f"its {WIDEN_PER_SKILL} related skills of highest lift (at least {WIDEN_MIN_LIFT}; "
    "`GET /skills/{slug}/related/`), those the criteria name or exclude left out: their holders join the pool, and "
    f"a related skill stands in for the skill it goes with at {RELATED_WEIGHT} of its credit (the best one held "
    "counts; widening never lowers a match). A related skill never meets a required one. Each shows in `matched` with "
    "`related_to`, the criteria's skill it goes with.",
)

ANYWHERE_PARAMETER = OpenApiParameter(
    "anywhere",
    OpenApiTypes.STR,
    enum=["0", "1", "true", "false"],
    description="1: rank candidates in every country (those outside the criteria's countries lose the location "
    "fit). Default 0: when the criteria name countries (an on-site or hybrid job, or a remote one open to some "
    "countries), only candidates in them are ranked. A `country` filter names the place itself and wins over both.",
)


class JobMatchView(generics.GenericAPIView):
    permission_classes = [IsAuthenticated, CanViewCandidates]
    serializer_class = JobMatchRequestSerializer
    pagination_class = KeysetPagination
    filter_backends: list = []

    @extend_schema(
        summary="Candidates ranked for a job description",
        description=(
            "The description's criteria (skills required with a minimum score, preferred, excluded; years; "
            "countries; remote; keywords), with `criteria` overriding what it names, rank the candidates who hold at "
            "least one of the skills (in the criteria's countries, unless `anywhere=1`). Nothing is stored. "
            + JOB_MATCH_FORMULA
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
        page = ranked_page(
            criteria,
            options=options,
            params=params,
            user=request.user,
            take=lambda ranked: self.paginator.paginate_queryset(ranked, request, view=self),
        )
        return Response(
            {
                "criteria": criteria.to_dict(),
                "results": [match_row(candidate, request) for candidate in page],
                "next": self.paginator.get_next_link(),
                "warnings": warnings,
            }
        )


def match_row(candidate: Candidate, request) -> dict:
    """One ranked result (``MatchResultSerializer``'s shape), as every ranked endpoint writes it."""
    return {
        "id": candidate.pk,
        "url": reverse("api:candidate-detail", kwargs={"pk": candidate.pk}, request=request),
        "name": candidate.name,
        "title": candidate.title,
        "company": candidate.company,
        "location": candidate_location(candidate),
        "match": candidate.match,
        "matched": candidate.matched,
        "missing": candidate.missing,
        "evidence": candidate.evidence,
    }
