"""What the jobs pages share: who may read or change a job, reading a posted id, and a job's skills in a few words."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme

from jobs.models import Job, JobSkill
from profiles.selectors import working_list_permits

VIEW_CANDIDATE_PERMISSION = "profiles.view_candidate"
# Skills a list names before "+N more": three names stay on two lines of a narrow column.
SKILLS_SHOWN = 3
KIND_ORDER = (JobSkill.Kind.REQUIRED, JobSkill.Kind.PREFERRED, JobSkill.Kind.EXCLUDED)


@dataclass(frozen=True)
class SkillsSummary:
    shown: str  # "Go, PostgreSQL, Rust (preferred)"
    more: int  # the skills left out of ``shown``
    details: str  # every skill by kind, with the minimum scores: "Required: Go ≥ 5, ... Preferred: Rust."


def criteria_skills_summary(rows: Iterable[JobSkill], *, shown: int = SKILLS_SHOWN) -> SkillsSummary | None:
    """A job's criteria skills in a few words, in the order they count: the required ones (as read from the post),
    then the preferred, then the excluded. None for a job without any. Plain text: the caller escapes it."""
    ordered = sorted(rows, key=lambda row: (KIND_ORDER.index(row.kind), row.pk))
    if not ordered:
        return None
    short = {
        JobSkill.Kind.REQUIRED: "{}",
        JobSkill.Kind.PREFERRED: "{} (preferred)",
        JobSkill.Kind.EXCLUDED: "not {}",
    }
    details = []
    for kind in KIND_ORDER:
        names = [
            f"{row.skill.name} ≥ {row.min_score}" if row.min_score is not None else row.skill.name
            for row in ordered
            if row.kind == kind
        ]
        if names:
            details.append(f"{kind.label}: {', '.join(names)}.")
    return SkillsSummary(
        shown=", ".join(short[row.kind].format(row.skill.name) for row in ordered[:shown]),
        more=max(0, len(ordered) - shown),
        details=" ".join(details),
    )


def writable(request, job: Job | None) -> bool:
    return job is None or working_list_permits(user=request.user, working_list=job, for_writing=True)


def posted_id(raw: str | None) -> int | None:
    """A posted primary key, or None for anything a bigint column cannot hold (a query would fail, not miss)."""
    try:
        value = int(raw or "")
    except ValueError:
        return None
    return value if 0 < value < 2**63 else None


class JobPages:
    """The lookups of every page of one job (a mixin of ``JobAdmin``): the job the user may read or change, after
    the permission checks, and the context the pages' templates share."""

    def page_job(self, request, object_id: int, *, candidates: bool = False) -> Job:
        """The job, if this user may read it (404 for one they may not see: a private job of a colleague), after the
        permission checks (403): the job view permission, and ``candidates``: the candidate view permission."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        if candidates and not request.user.has_perm(VIEW_CANDIDATE_PERMISSION):
            raise PermissionDenied
        job = self.get_queryset(request).filter(pk=object_id).first()
        if job is None:
            raise Http404(f"No job with the id “{object_id}” that you may see.")
        return job

    def writable_job(self, request, object_id: int) -> Job:
        # Who may change no job (a Viewer) is refused before the job is looked up, whichever job it is.
        if not self.has_change_permission(request):
            raise PermissionDenied
        job = self.page_job(request, object_id)
        if not self.has_change_permission(request, job):
            raise PermissionDenied
        return job

    def page_context(self, request, job: Job, title: str) -> dict:
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "job": job,
            "title": title,
            "subtitle": None,
            "may_change": self.has_change_permission(request, job),
            "has_view_permission": True,
        }

    @staticmethod
    def back(request, default: str) -> HttpResponseRedirect:
        """To the page the form came from (``next``, when it is on this site), else to ``default``."""
        target = request.POST.get("next", "")
        safe = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False)
        return HttpResponseRedirect(target if target.startswith("/") and safe else default)

    @staticmethod
    def message_warnings(request, saved) -> None:
        for warning in saved.warnings:
            messages.warning(request, warning)
