"""The admin index's dashboard: figures of the apps (candidates, imports and jobs) on one page.

It lives in the project package, above ``profiles``, ``ingestion`` and ``jobs``, because it reads all three: the
domain never imports the pipeline that feeds it, nor the jobs built on it.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Case, Count, Q, Sum, When
from django.db.models.functions import TruncDate
from django.utils import timezone

from db.counting import EXACT_GROUPS_BELOW, common_values, queryset_count, table_row_estimate
from ingestion.models import ImportBatch, SourceFile
from ingestion.selectors import failed_files_to_look_at
from jobs.models import Job
from jobs.selectors import PIPELINE_STAGES, jobs_for
from privacy.notices import notices_overdue_count
from profiles.models import Candidate, CandidateSkill, Repository, Shortlist, ShortlistEntry, Skill
from profiles.selectors import working_lists_for


@dataclass
class Dashboard:
    candidates: int
    candidates_estimated: bool
    skills: int
    repositories: int
    shortlists: int  # the recruiters' own lists, not the jobs' pipelines (those are under "My jobs")
    batches_last_day: int
    files_last_day: dict[str, int]  # by status; "unchanged" and "failed" count the identical bytes sent again too
    failed_files: list
    failed_count: int
    top_skills: list[tuple[str, int]]
    countries: list[tuple[str, int]]
    estimated: bool
    imports_by_day: list[tuple[dt.date, int, int]]  # (day, imported or unchanged, failed), oldest first
    years_coding: list[tuple[str, int]]
    pipeline: list[tuple[str, int]] | None  # None: no job this user may see, or no permission to view jobs
    notices_overdue: int | None = None  # None: no permission to view sourcing records
    my_jobs: list[MyJob] | None = None  # None: no permission to view jobs
    recent_candidates: list[Candidate] = field(default_factory=list)


@dataclass
class MyJob:
    job: Job
    stages: list[tuple[str, str, int]]  # (stage value, label, entries), in the stages' order

    @property
    def total(self) -> int:
        return sum(n for _, _, n in self.stages)


IMPORT_DAYS = 30
# (label, lowest, highest) of each bucket of years of coding; None: no upper end.
YEARS_CODING_BUCKETS: tuple[tuple[str, int, int | None], ...] = (
    ("0-2", 0, 2),
    ("3-5", 3, 5),
    ("6-10", 6, 10),
    ("11-15", 11, 15),
    ("16+", 16, None),
)
YEARS_NOT_STATED = "Not stated"


def imports_by_day(*, days: int = IMPORT_DAYS) -> list[tuple[dt.date, int, int]]:
    """Files that reached an outcome, by the day their batch arrived over the last ``days`` days (today included):
    imported or unchanged, and failed; a day without any is there with zeros.

    By the batch's day, not the file's ``processed_at``: batches are few and the (batch, status) index answers for
    their files without reading a row of the (large) file table, where processed_at has no index.
    """
    today = timezone.localdate()
    first = today - dt.timedelta(days=days - 1)
    since = timezone.make_aware(dt.datetime.combine(first, dt.time.min))
    failed = Q(status=SourceFile.Status.FAILED)
    rows = (
        SourceFile.objects.filter(
            batch__created_at__gte=since,
            status__in=[SourceFile.Status.IMPORTED, SourceFile.Status.UNCHANGED, SourceFile.Status.FAILED],
        )
        .order_by()
        .values(day=TruncDate("batch__created_at"))
        .annotate(done=Count("status", filter=~failed), failed=Count("status", filter=failed))
        .values_list("day", "done", "failed")
    )
    by_day = {day: (done, failed) for day, done, failed in rows}
    return [(day, *by_day.get(day, (0, 0))) for day in (first + dt.timedelta(days=n) for n in range(days))]


def candidates_by_years_coding() -> list[tuple[str, int]]:
    """Candidates in each bucket of years of coding, and those who did not state it: one pass, each bucket a
    filtered count. Every count reads ``years_coding`` alone (those not stated are all rows less the stated), so at a
    million candidates Postgres may answer from that column's index (an index-only scan) instead of reading the wide
    candidate rows."""
    buckets = {
        f"bucket_{i}": Count(
            "years_coding", filter=Q(years_coding__gte=low) & (Q(years_coding__lte=high) if high is not None else Q())
        )
        for i, (_, low, high) in enumerate(YEARS_CODING_BUCKETS)
    }
    counts = Candidate.objects.order_by().aggregate(all=Count("*"), stated=Count("years_coding"), **buckets)
    return [(label, counts[f"bucket_{i}"]) for i, (label, _, _) in enumerate(YEARS_CODING_BUCKETS)] + [
        (YEARS_NOT_STATED, counts["all"] - counts["stated"])
    ]


def pipeline_by_stage(*, user) -> list[tuple[str, int]] | None:
    """The entries of the pipelines of the jobs ``user`` may read, by stage in the stages' order; None when there is
    no such job, or the user may not view jobs at all (then not even whether jobs exist is told). One query: the
    jobs counted alongside their entries."""
    if not user.has_perm("jobs.view_job"):
        return None
    stage = "pipeline__entries__status"
    counts = (
        jobs_for(user=user)
        .order_by()
        .aggregate(
            jobs=Count("pk", distinct=True),
            **{f"stage_{value}": Count("pipeline__entries", filter=Q(**{stage: value})) for value in PIPELINE_STAGES},
        )
    )
    if not counts["jobs"]:
        return None
    labels = dict(ShortlistEntry.Status.choices)
    return [(labels[value], counts[f"stage_{value}"]) for value in PIPELINE_STAGES]


MY_JOBS_SHOWN = 6
RECENT_CANDIDATES_SHOWN = 8


def my_jobs(*, user, limit: int = MY_JOBS_SHOWN) -> list[MyJob] | None:
    """The user's own jobs, open ones first and then the newest, each with its pipeline's entries by stage: one
    query (a filtered count per stage). None when the user may not view jobs."""
    if not user.has_perm("jobs.view_job"):
        return None
    counts = {
        f"stage_{value}": Count("pipeline__entries", filter=Q(pipeline__entries__status=value))
        for value in PIPELINE_STAGES
    }
    jobs = (
        Job.objects.filter(owner=user)
        .select_related("pipeline")
        .annotate(**counts)
        .order_by(Case(When(status=Job.Status.OPEN, then=0), default=1), "-created_at", "-id")[:limit]
    )
    labels = dict(ShortlistEntry.Status.choices)
    return [
        MyJob(job=job, stages=[(value, labels[value], getattr(job, f"stage_{value}")) for value in PIPELINE_STAGES])
        for job in jobs
    ]


def recent_candidates(*, limit: int = RECENT_CANDIDATES_SHOWN) -> list[Candidate]:
    """The candidates added last (by id, the primary key's index: no sort of the table)."""
    return list(
        Candidate.objects.only("id", "name", "title", "company", "city", "country_code", "created_at").order_by("-id")[
            :limit
        ]
    )


def _files_last_day() -> tuple[dict[str, int], int]:
    """The files of the batches received in the last day by status, and how many batches. A file whose identical
    bytes were stored already has no row of its own: its batch counts it (``duplicates``), as unchanged, or as failed
    when the stored copy had failed, the batch page's figures (``ingestion.selectors.progress_from_counts``)."""
    since = timezone.now() - timezone.timedelta(days=1)
    recent_batches = ImportBatch.objects.filter(created_at__gte=since)
    by_status = Counter(
        dict(
            SourceFile.objects.filter(batch__in=recent_batches)
            .values_list("status")
            .annotate(n=Count("id"))
            .values_list("status", "n")
        )
    )
    batches = recent_batches.aggregate(
        n=Count("id"), duplicates=Sum("duplicates", default=0), duplicates_failed=Sum("duplicates_failed", default=0)
    )
    by_status[SourceFile.Status.UNCHANGED] += batches["duplicates"] - batches["duplicates_failed"]
    by_status[SourceFile.Status.FAILED] += batches["duplicates_failed"]
    return {status: by_status[status] for status in SourceFile.Status.values}, batches["n"]


def dashboard(*, user, limit: int = 10) -> Dashboard:
    """The admin index's numbers: totals, the last day's imports, failed files, top skills, candidates by country,
    imports per day, candidates by years of coding; of the shortlists and the jobs' pipelines, those ``user`` may
    open."""
    candidates, estimated = queryset_count(Candidate.objects.all())
    files_last_day, batches_last_day = _files_last_day()
    failed = failed_files_to_look_at()
    top_skills = common_values(CandidateSkill, "skill_id", limit=limit)
    names = dict(Skill.objects.filter(pk__in=[int(pk) for pk, _ in top_skills]).values_list("pk", "name"))
    return Dashboard(
        candidates=candidates,
        candidates_estimated=estimated,
        skills=queryset_count(Skill.objects.all())[0],
        repositories=queryset_count(Repository.objects.all())[0],
        shortlists=working_lists_for(user=user, queryset=Shortlist.objects.filter(job__isnull=True)).count(),
        batches_last_day=batches_last_day,
        files_last_day=files_last_day,
        failed_files=list(failed.defer("content").select_related("batch").order_by("-processed_at", "-id")[:limit]),
        failed_count=queryset_count(failed, budget_ms=100)[0],
        top_skills=[(names.get(int(pk), pk), n) for pk, n in top_skills],
        countries=common_values(Candidate, "country_code", limit=limit),
        estimated=table_row_estimate(CandidateSkill) >= EXACT_GROUPS_BELOW,
        imports_by_day=imports_by_day(),
        years_coding=candidates_by_years_coding(),
        pipeline=pipeline_by_stage(user=user),
        # Privacy notices past their due date (GDPR Art. 14: a month after sourcing), for those who keep the records.
        notices_overdue=notices_overdue_count() if user.has_perm("privacy.view_sourcingrecord") else None,
        my_jobs=my_jobs(user=user),
        recent_candidates=recent_candidates(),
    )
