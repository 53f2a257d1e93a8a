"""The profile's "Similar candidates" (``jobs.ranking.similar_candidates``), through a panel of the admin site
(``similar_candidates_panel``, which the site lists in ``talentdb.admin``): the profile (``profiles``) shows the site's
panels and never imports ``jobs``."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse

from jobs.admin.common import VIEW_CANDIDATE_PERMISSION
from jobs.ranking import SIMILAR_MARGIN, similar_candidates
from profiles.models import Candidate, Skill

SIMILAR_SHOWN = 5  # a glance: the API's /similar/ has the rest


def similar_candidates_panel(request, candidate: Candidate) -> str | None:
    """The profile's "Similar candidates", as a placeholder the page fills in once it has loaded (from
    ``similar_candidates_view``): ranking everyone who shares the candidate's strongest skills takes a moment on a
    large database (docs/benchmarks.md), and the profile must not wait for it. No query; None without the
    permission."""
    if not request.user.has_perm(VIEW_CANDIDATE_PERMISSION):
        return None
    return render_to_string(
        "admin/jobs/similar_candidates_placeholder.html",
        {"url": reverse("admin:jobs_job_similar", args=[candidate.pk])},
        request=request,
    )


def similar_candidates_view(request, candidate_id: int):
    """The panel's content: the SIMILAR_SHOWN best others by ``jobs.ranking.similar_candidates`` (the candidate's
    strongest skills and topics as criteria), each with its match and the skills it shares by their display names; a
    fixed number of queries whatever the pool (the candidate, the criteria, the page, its explanation, the names)."""
    if not request.user.has_perm(VIEW_CANDIDATE_PERMISSION):
        raise PermissionDenied
    try:
        candidate = Candidate.objects.only("pk", "name").get(pk=candidate_id)
        # Those with all of the candidate's strongest skills first: ranking them is quick at any size; the whole pool
        # (everyone with any of those skills) only when they are too few.
        criteria, rows = similar_candidates(
            candidate_id=candidate.pk, user=request.user, limit=SIMILAR_SHOWN, strict_first=True
        )
    except Candidate.DoesNotExist:
        raise Http404("No such candidate.") from None
    slugs = {item["skill"] for row in rows for item in row.matched} | {slug for slug, _ in criteria.required}
    names = dict(Skill.objects.filter(slug__in=slugs).values_list("slug", "name")) if slugs else {}
    for row in rows:
        row.shared = [(names.get(item["skill"], item["skill"]), item["score"]) for item in row.matched]
    context = {
        "candidate": candidate,
        "criteria": criteria,
        "rows": rows,
        "strongest": [names.get(slug, slug) for slug, _ in criteria.required],
        "margin": SIMILAR_MARGIN,
    }
    return TemplateResponse(request, "admin/jobs/similar_candidates.html", context)
