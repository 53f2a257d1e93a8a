"""The admin index's figures (``talentdb.dashboard``) and the geometry of its bar charts."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.utils import timezone

from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from jobs import services as job_services
from jobs.models import Job
from profiles.models import Shortlist, ShortlistEntry, Skill
from talentdb.dashboard import IMPORT_DAYS, dashboard
from talentdb.templatetags.talentdb_dashboard import (
    BAR_AREA,
    COLUMN_WIDTH,
    PLOT_HEIGHT,
    PLOT_LEFT,
    PLOT_TOP,
    ROW_HEIGHT,
    bar_chart,
    stacked_day_chart,
)
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ImportBatchFactory,
    RepositoryFactory,
    SkillFactory,
    SourceFileFactory,
    UserFactory,
)
from tests.fixtures import PROGAI_DIR


@pytest.mark.django_db
def test_the_dashboard_counts_candidates_imports_and_failed_files():
    python, go = SkillFactory(slug="python", name="Python"), SkillFactory(slug="go", name="Go")
    for country, skills in [("DE", [python, go]), ("DE", [python]), ("FR", [python])]:
        candidate = CandidateFactory(country_code=country)
        for skill in skills:
            CandidateSkillFactory(candidate=candidate, skill=skill)
    RepositoryFactory()
    reader = UserFactory()
    Shortlist.objects.create(owner=reader, name="Backend")
    batch = services.batch_create(origin="cli")
    services.batch_receive(
        batch=batch,
        files=[services.IncomingFile("broken.txt", b"\x00\x01"), services.IncomingFile("later.txt", b"\x00\x02")],
        enqueue=False,
    )
    broken = batch.files.get(original_name="broken.txt")
    services.source_files_import(file_ids=[broken.pk], token="t")

    figures = dashboard(user=reader)

    assert (figures.candidates, figures.candidates_estimated) == (3, False)
    assert (figures.skills, figures.repositories, figures.shortlists) == (Skill.objects.count(), 1, 1)
    assert figures.batches_last_day == 1
    assert figures.files_last_day == dict.fromkeys(SourceFile.Status.values, 0) | {"failed": 1, "pending": 1}
    assert [f.original_name for f in figures.failed_files] == ["broken.txt"]
    assert figures.failed_count == 1
    assert figures.top_skills == [("Python", 3), ("Go", 1)]
    assert figures.countries == [("DE", 2), ("FR", 1)]
    assert figures.estimated is False


@pytest.mark.django_db
def test_the_dashboard_counts_only_the_shortlists_its_reader_may_open():
    """Issue 15, hole 8: another recruiter's private shortlists are not even counted."""
    reader, colleague = UserFactory(), UserFactory()
    Shortlist.objects.create(owner=reader, name="Mine")
    Shortlist.objects.create(owner=colleague, name="Shared", shared=True)
    Shortlist.objects.create(owner=colleague, name="Private")

    assert dashboard(user=reader).shortlists == 2


@pytest.mark.django_db
def test_the_shortlist_count_leaves_out_the_jobs_pipelines():
    """A job's pipeline is a shortlist the job owns: it is counted under "My jobs", not as a shortlist too."""
    reader = _jobs_reader()
    Shortlist.objects.create(owner=reader, name="Backend")
    _job(reader, sourced=2)
    _job(UserFactory(), shared=True)

    assert dashboard(user=reader).shortlists == 1


@pytest.mark.django_db
def test_files_sent_again_count_as_unchanged_or_failed_as_their_batch_page_counts_them():
    """Identical bytes sent again get no row of their own: their batch counts them, unchanged (or failed when the
    stored copy had failed), and so does the desk."""
    profile = (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()
    first = services.batch_create(origin="cli")
    services.batch_receive(
        batch=first,
        files=[services.IncomingFile("ingrid.txt", profile), services.IncomingFile("broken.txt", b"\x00\x01")],
        enqueue=False,
    )
    services.source_files_import(file_ids=list(first.files.values_list("pk", flat=True)), token="t")
    again = services.batch_create(origin="cli")
    services.batch_receive(
        batch=again,
        files=[services.IncomingFile("ingrid-2.txt", profile), services.IncomingFile("broken-2.txt", b"\x00\x01")],
        enqueue=False,
    )

    figures = dashboard(user=UserFactory())

    assert figures.batches_last_day == 2
    assert figures.files_last_day == dict.fromkeys(SourceFile.Status.values, 0) | {
        "imported": 1,
        "unchanged": 1,
        "failed": 2,
    }


def test_a_bar_chart_scales_the_longest_bar_to_the_whole_area():
    chart = bar_chart([("Python", 10), ("Go", 5), ("Zig", 0)])

    assert [(bar["label"], bar["width"], bar["y"]) for bar in chart["bars"]] == [
        ("Python", BAR_AREA, 0),
        ("Go", BAR_AREA // 2, ROW_HEIGHT),
        ("Zig", 1, 2 * ROW_HEIGHT),  # an empty row still shows a sliver
    ]
    assert chart["height"] == 3 * ROW_HEIGHT


def test_an_empty_bar_chart_keeps_one_row_of_height():
    chart = bar_chart([])

    assert (chart["bars"], chart["height"], chart["row"]) == ([], ROW_HEIGHT, ROW_HEIGHT)


# --- The charts of issue 17: imports per day, candidates by years of coding, the pipeline by stage -----------------


def _batch_at(when, **statuses: int):
    """A batch received at ``when`` holding files in these statuses (a failed file has an error, as the table asks)."""
    batch = ImportBatchFactory()
    ImportBatch.objects.filter(pk=batch.pk).update(created_at=when)
    for status, n in statuses.items():
        for _ in range(n):
            SourceFileFactory(batch=batch, status=status, error="unreadable" if status == "failed" else "")
    return batch


@pytest.mark.django_db
def test_imports_per_day_cover_thirty_days_with_failed_files_apart_and_empty_days_as_zero():
    now = timezone.now()
    _batch_at(now, imported=2, unchanged=1, failed=1, pending=4)  # pending files are not an outcome yet
    _batch_at(now - dt.timedelta(days=3), failed=2)
    _batch_at(now - dt.timedelta(days=29), imported=1)
    _batch_at(now - dt.timedelta(days=31), imported=5)  # before the window

    days = dashboard(user=UserFactory()).imports_by_day

    today = timezone.localdate()
    assert [day for day, _, _ in days] == [today - dt.timedelta(days=n) for n in range(IMPORT_DAYS - 1, -1, -1)]
    assert days[-1] == (today, 3, 1)
    assert days[-4] == (today - dt.timedelta(days=3), 0, 2)
    assert days[0] == (today - dt.timedelta(days=29), 1, 0)
    assert sum(done + failed for _, done, failed in days) == 7


@pytest.mark.django_db
def test_candidates_are_counted_by_years_of_coding_in_buckets_with_the_unstated_apart():
    for years in [0, 2, 3, 5, 6, 10, 11, 15, 16, 40, None, None]:
        CandidateFactory(years_coding=years)

    assert dashboard(user=UserFactory()).years_coding == [
        ("0-2", 2),
        ("3-5", 2),
        ("6-10", 2),
        ("11-15", 2),
        ("16+", 2),
        ("Not stated", 2),
    ]


def _jobs_reader():
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(content_type__app_label="jobs", codename="view_job"))
    return get_user_model().objects.get(pk=user.pk)  # a fresh object: permissions are cached on the instance


def _job(owner, *, shared=False, **stages: int):
    job = job_services.job_create(user=owner, title=f"Job {Job.objects.count()}", description="Go", shared=shared).job
    for status, n in stages.items():
        for _ in range(n):
            ShortlistEntry.objects.create(shortlist=job.pipeline, candidate=CandidateFactory(), status=status)
    return job


@pytest.mark.django_db
def test_the_pipeline_counts_entries_by_stage_over_the_jobs_its_reader_may_see():
    reader, colleague = _jobs_reader(), UserFactory()
    _job(reader, sourced=2, interviewing=1)
    _job(colleague, shared=True, sourced=1, hired=1)
    _job(colleague, sourced=5, rejected=5)  # private to the colleague: not even counted
    plain = Shortlist.objects.create(owner=reader, name="Not a job")
    ShortlistEntry.objects.create(shortlist=plain, candidate=CandidateFactory(), status="offer")

    assert dashboard(user=reader).pipeline == [
        ("Sourced", 3),
        ("Contacted", 0),
        ("Replied", 0),
        ("Interviewing", 1),
        ("Offer", 0),
        ("Hired", 1),
        ("Rejected", 0),
    ]


@pytest.mark.django_db
def test_the_pipeline_is_left_out_until_a_job_exists_and_for_readers_who_may_not_view_jobs():
    reader = _jobs_reader()
    assert dashboard(user=reader).pipeline is None

    _job(reader)  # an empty pipeline: every stage at zero
    assert dashboard(user=reader).pipeline == [(label, 0) for label in ShortlistEntry.Status.labels]

    no_jobs_permission = UserFactory()
    _job(no_jobs_permission, sourced=1)
    assert dashboard(user=no_jobs_permission).pipeline is None


@pytest.mark.django_db
def test_the_pipeline_of_a_colleagues_private_job_is_left_out():
    reader = _jobs_reader()
    _job(UserFactory(), sourced=3)

    assert dashboard(user=reader).pipeline is None


def test_a_stacked_day_chart_puts_failed_files_on_top_and_scales_the_fullest_day_to_the_plot():
    first = dt.date(2026, 11, 1)
    days = [(first + dt.timedelta(days=n), 0, 0) for n in range(15)]
    days[0], days[7], days[14] = (first, 300, 100), (days[7][0], 0, 1), (days[14][0], 200, 0)

    chart = stacked_day_chart(days)

    baseline = PLOT_TOP + PLOT_HEIGHT
    fullest, one_failed, half, empty = (chart["columns"][i] for i in (0, 7, 14, 1))
    assert (fullest["done_y"], fullest["done_height"]) == (baseline - 105, 105)
    assert (fullest["failed_y"], fullest["failed_height"]) == (PLOT_TOP, 35)  # on top, reaching the plot's top
    assert (one_failed["done_height"], one_failed["failed_height"]) == (0, 1)  # one file among hundreds still shows
    assert (half["done_height"], half["failed_height"]) == (PLOT_HEIGHT // 2, 0)
    assert (empty["done_height"], empty["failed_height"]) == (0, 0)
    assert [c["x"] for c in chart["columns"][:2]] == [PLOT_LEFT, PLOT_LEFT + COLUMN_WIDTH]
    assert [c["day"] for c in chart["columns"] if c["labelled"]] == [first, days[7][0], days[14][0]]  # back from today
    assert (chart["top"], chart["total_done"], chart["total_failed"]) == (400, 500, 101)


def test_an_empty_stacked_day_chart_draws_no_bars():
    chart = stacked_day_chart([(dt.date(2026, 11, 1), 0, 0)])

    assert chart["top"] == 1
    assert [(c["done_height"], c["failed_height"]) for c in chart["columns"]] == [(0, 0)]
