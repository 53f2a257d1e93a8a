"""A ranked page's rows, shared by every endpoint that ranks candidates for criteria (``POST /jobs/match/``,
``GET /jobs/{id}/matches/``, ``GET /candidates/{id}/similar/``): the result shape, the query parameters, the permission,
and the job fit (``JOB_FIT_FORMULA``), which these rows answer as ``match``. It is not the candidate list's skill
match (``api.candidates.serializers.SKILL_MATCH_HELP``)."""

from __future__ import annotations

from django.db.models import IntegerField, QuerySet, Value
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.reverse import reverse

from api.candidates.fields import LocationSerializer, candidate_location
from api.pagination import KeysetPagination, OrderKey
from jobs.criteria import Criteria
from jobs.ranking import RankOptions, ranked_page
from profiles.models import Candidate
from profiles.search.backends.base import Page
from profiles.search.ranking import RELATED_WEIGHT, WIDEN_MIN_LIFT, WIDEN_PER_SKILL
from profiles.search.signals import (
    WEIGHT_EVIDENCE,
    WEIGHT_KEYWORDS,
    WEIGHT_LOCATION,
    WEIGHT_PREFERRED,
    WEIGHT_REQUIRED,
    WEIGHT_YEARS,
)

VIEW_CANDIDATE_PERMISSION = "profiles.view_candidate"


# The `match` of a ranked row. The candidate list answers a different formula under the same name, the skill match
# (api.candidates.serializers.SKILL_MATCH_HELP): every text says which one it means.
JOB_FIT_FORMULA = (
    "The job fit (not the candidate list's skill match): "
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
    match = serializers.IntegerField(min_value=0, max_value=100, help_text=JOB_FIT_FORMULA)
    matched = MatchedSkillSerializer(many=True)
    missing = serializers.ListField(child=serializers.CharField(), help_text="Required skills lacked or below minimum.")
    evidence = EvidenceSerializer(many=True)


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


_URL_MARK = 918273645546372819  # an id no candidate has, marking where each row's id goes in the detail URL


def match_rows(candidates: list[Candidate], request) -> list[dict]:
    """Ranked results (``MatchResultSerializer``'s shape), as every ranked endpoint writes them. The detail URL is
    reversed once a page, each row's id put in its place: reversing it (and making it absolute) for each of fifty
    rows cost some milliseconds a page."""
    head, _, tail = reverse("api:candidate-detail", kwargs={"pk": _URL_MARK}, request=request).rpartition(
        str(_URL_MARK)
    )
    return [
        {
            "id": candidate.pk,
            "url": f"{head}{candidate.pk}{tail}",
            "name": candidate.name,
            "title": candidate.title,
            "company": candidate.company,
            "location": candidate_location(candidate),
            "match": candidate.match,
            "matched": candidate.matched,
            "missing": candidate.missing,
            "evidence": candidate.evidence,
        }
        for candidate in candidates
    ]


# A ranking's order (``profiles.search.signals.ORDERING``) as the keyset paginator's keys: a cursor names a row's key.
RANK_KEYS = (OrderKey("misses_any", False, False), OrderKey("match", True, False), OrderKey("id", False, False))


def _rank_key_fields() -> QuerySet[Candidate]:
    """A QuerySet (never run) whose fields type the keys as the ranking's do, for reading a cursor's values."""
    zero = Value(0, output_field=IntegerField())
    return Candidate.objects.none().annotate(misses_any=zero, match=zero)


class RankedPagination(KeysetPagination):
    """The keyset paginator's cursors and links over a ranking whose page the search backend in use cuts: the
    request's cursor and ``page_size`` become a ``Page`` (the row after the cursor's key, one row more than the page
    shows), and the next link names the page's last row, exactly as ``KeysetPagination`` over the SQL ranking does,
    so a cursor from either path reads on the other."""

    def page_wanted(self, request) -> Page | None:
        """The ``Page`` the request asks for, or None for a cursor that walks backwards (no ranked endpoint gives one
        out; the SQL ranking's ``paginate_queryset`` answers it). A 400 for a cursor the API did not give."""
        self.request = request
        self.base_url = request.build_absolute_uri()
        self.keys = list(RANK_KEYS)
        size = self.get_page_size(request)
        cursor = self._decode_cursor(request, self.keys, _rank_key_fields())
        if cursor and cursor[1]:
            return None
        return Page(limit=size + 1, after=tuple(cursor[0]) if cursor else None)

    def keep(self, rows: list[Candidate], page: Page) -> list[Candidate]:
        """The rows the page shows of those ``page_wanted``'s ``Page`` ranked; the one more says a next page exists."""
        self.page = rows[: page.limit - 1]
        self.has_next = len(rows) >= page.limit
        self.has_previous = page.after is not None
        return self.page


def ranked_results(
    view, request, criteria: Criteria, *, options: RankOptions, params, exclude_ids=()
) -> tuple[list[dict], str | None]:
    """One page of ``jobs.ranking.ranked_page`` for a ranked endpoint (``view``, paginated by ``RankedPagination``)
    as result rows, and the link to the next page. The search backend in use cuts the page (the ranking index when it
    runs); a backwards cursor is cut from the SQL ranking."""
    paginator: RankedPagination = view.paginator
    page = paginator.page_wanted(request)
    ranking = {"options": options, "params": params, "user": request.user, "exclude_ids": exclude_ids}
    if page is None:
        rows = ranked_page(
            criteria, take=lambda ranked: paginator.paginate_queryset(ranked, request, view=view), **ranking
        )
    else:
        rows = paginator.keep(ranked_page(criteria, page=page, **ranking), page)
    return match_rows(rows, request), paginator.get_next_link()
