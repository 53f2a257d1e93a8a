"""The admin index's dashboard: figures of both apps (candidates and imports) on one page.

It lives in the project package, above ``profiles`` and ``ingestion``, because it reads both: the domain never
imports the pipeline that feeds it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Count
from django.utils import timezone

from ingestion.models import ImportBatch, SourceFile
from profiles.models import Candidate, CandidateSkill, Repository, Shortlist, Skill
from profiles.selectors import (
    EXACT_GROUPS_BELOW,
    common_values,
    queryset_count,
    table_row_estimate,
    working_lists_for,
)


@dataclass
class Dashboard:
    candidates: int
    candidates_estimated: bool
    skills: int
    repositories: int
    shortlists: int
    batches_last_day: int
    files_last_day: dict[str, int]
    failed_files: list
    failed_count: int
    top_skills: list[tuple[str, int]]
    countries: list[tuple[str, int]]
    estimated: bool


def dashboard(*, user, limit: int = 10) -> Dashboard:
    """The admin index's numbers: totals, the last day's imports, failed files, top skills, candidates by country;
    of the shortlists, those ``user`` may open."""
    candidates, estimated = queryset_count(Candidate.objects.all())
    since = timezone.now() - timezone.timedelta(days=1)
    recent_batches = ImportBatch.objects.filter(created_at__gte=since)
    files_last_day = Counter(
        dict(
            SourceFile.objects.filter(batch__in=recent_batches)
            .values_list("status")
            .annotate(n=Count("id"))
            .values_list("status", "n")
        )
    )
    failed = SourceFile.objects.filter(status=SourceFile.Status.FAILED)
    top_skills = common_values(CandidateSkill, "skill_id", limit=limit)
    names = dict(Skill.objects.filter(pk__in=[int(pk) for pk, _ in top_skills]).values_list("pk", "name"))
    return Dashboard(
        candidates=candidates,
        candidates_estimated=estimated,
        skills=queryset_count(Skill.objects.all())[0],
        repositories=queryset_count(Repository.objects.all())[0],
        shortlists=working_lists_for(user=user, queryset=Shortlist.objects.all()).count(),
        batches_last_day=recent_batches.count(),
        files_last_day={status: files_last_day[status] for status in SourceFile.Status.values},
        failed_files=list(failed.defer("content").select_related("batch").order_by("-processed_at", "-id")[:limit]),
        failed_count=queryset_count(failed, budget_ms=100)[0],
        top_skills=[(names.get(int(pk), pk), n) for pk, n in top_skills],
        countries=common_values(Candidate, "country_code", limit=limit),
        estimated=table_row_estimate(CandidateSkill) >= EXACT_GROUPS_BELOW,
    )
