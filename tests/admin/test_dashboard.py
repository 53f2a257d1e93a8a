"""The admin index: totals, the last day's imports, failed files, and SVG charts with escaped labels."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from ingestion import services
from jobs import services as job_services
from profiles.models import Shortlist, ShortlistEntry
from tests.factories import CandidateFactory, CandidateSkillFactory, RepositoryFactory, SkillFactory, UserFactory
from tests.fixtures import PROGAI_DIR

pytestmark = pytest.mark.django_db
INDEX = reverse("admin:index")


@pytest.fixture
def data():
    python = SkillFactory(slug="python", name="Python")
    evil = SkillFactory(slug="evil", name="<script>alert('x')</script>")
    for country in ["DE", "DE", "FR"]:
        candidate = CandidateFactory(country_code=country)
        CandidateSkillFactory(candidate=candidate, skill=python, score=8)
    CandidateSkillFactory(skill=evil, score=1, candidate=CandidateFactory(country_code="DE"))
    batch = services.batch_create(origin="cli")
    services.batch_receive(batch=batch, files=[services.IncomingFile("broken.txt", b"\x00\x01")], enqueue=False)
    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="t")


def test_the_index_shows_totals_imports_and_failed_files(recruiter_client, data):
    html = recruiter_client.get(INDEX).content.decode()

    assert 'id="dashboard"' in html
    assert "4 candidates" in html
    assert "1 batch" in html
    assert "1 failed" in html
    assert "Failed files that need a look (1)" in html
    assert "broken.txt" in html


def test_the_charts_are_svg_with_bars_proportional_to_the_counts_and_escaped_labels(recruiter_client, data):
    html = recruiter_client.get(INDEX).content.decode()
    skills = html[html.index('id="chart-skills"') : html.index('id="chart-countries"')]
    countries = html[html.index('id="chart-countries"') :]

    assert "<svg" in skills
    assert ">Python</text>" in skills
    assert 'data-share="100"' in skills  # the most common skill has the longest bar
    assert "&lt;script&gt;" in skills
    assert "<script>alert" not in html
    assert ">DE</text>" in countries
    assert ">3</text>" in countries


def test_users_without_candidate_access_see_no_dashboard(client, django_user_model, data):
    staff = django_user_model.objects.create_user("nobody", password="x", is_staff=True)
    client.force_login(staff)

    assert 'id="dashboard"' not in client.get(INDEX).content.decode()


def _chart(html: str, chart_id: str) -> str:
    """The markup of one chart's block: from its id to the end of its SVG."""
    start = html.index(f'id="{chart_id}"')
    return html[start : html.index("</svg>", start)]


def _job(owner, *, title="Backend", shared=False, **stages: int):
    job = job_services.job_create(user=owner, title=title, description="Go", shared=shared).job
    for status, n in stages.items():
        for _ in range(n):
            ShortlistEntry.objects.create(shortlist=job.pipeline, candidate=CandidateFactory(), status=status)
    return job


def test_the_imports_chart_stacks_failed_files_on_thirty_days(recruiter_client, data):
    chart = _chart(recruiter_client.get(INDEX).content.decode(), "chart-imports")
    today = timezone.localdate()

    assert 'role="img"' in chart
    assert "<title>Imports per day: 0 imported or up to date, 1 failed</title>" in chart
    assert chart.count('<g class="day"') == 30
    day = chart[chart.index(f'data-day="{today:%Y-%m-%d}"') :]
    assert day.index('class="failed"') < day.index("</g>")  # today's column has the failed file
    assert 'class="done"' not in chart  # and nothing imported anywhere: no bar of that colour
    assert 'height="140"' in day  # the only file of the window is the tallest bar


def test_the_years_chart_buckets_the_candidates(recruiter_client, data):
    CandidateFactory(years_coding=1)
    chart = _chart(recruiter_client.get(INDEX).content.decode(), "chart-years")

    assert "<title>Candidates by years of coding</title>" in chart
    labels = re.findall(r'text-anchor="end" font-size="12" fill="currentColor">([^<]+)</text>', chart)
    assert labels == ["0-2", "3-5", "6-10", "11-15", "16+", "Not stated"]
    assert 'data-share="100"' in chart  # 6-10: the four candidates of eight years
    assert ">4</text>" in chart
    assert ">1</text>" in chart


def test_the_pipeline_chart_shows_once_a_job_exists_counting_the_jobs_the_reader_may_see(
    recruiter_client, recruiter, data
):
    assert 'id="chart-pipeline"' not in recruiter_client.get(INDEX).content.decode()

    _job(recruiter, sourced=2, hired=1)
    _job(UserFactory(), title="Theirs", sourced=7)  # a colleague's private job
    chart = _chart(recruiter_client.get(INDEX).content.decode(), "chart-pipeline")

    assert "<title>Pipeline by stage</title>" in chart
    assert "<title>Sourced: 2</title>" in chart  # each bar names its stage and count on hover
    assert ">Sourced</text>" in chart
    assert ">Rejected</text>" in chart
    assert ">2</text>" in chart
    assert ">7</text>" not in chart


def test_staff_who_may_not_view_jobs_or_imports_see_neither_chart(client, recruiter, data):
    _job(recruiter, shared=True, sourced=1)
    staff = UserFactory(username="candidates-only", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(content_type__app_label="profiles", codename="view_candidate"))
    client.force_login(staff)

    html = client.get(INDEX).content.decode()

    assert html.count('id="chart-years"') == 1
    assert 'id="chart-pipeline"' not in html
    assert 'id="chart-imports"' not in html
    assert 'id="dashboard-failed"' not in html


def test_a_viewer_sees_the_pipeline_of_a_shared_job(viewer_client, recruiter, data):
    _job(recruiter, shared=True, interviewing=3)

    chart = _chart(viewer_client.get(INDEX).content.decode(), "chart-pipeline")

    assert ">Interviewing</text>" in chart
    assert ">3</text>" in chart


# Pinned: the session and user (2), the permissions, the user's and their groups' (2), the dashboard's figures, each a
# bounded aggregate or a planner estimate (25: issue 17's charts added three, one aggregate each for imports per day,
# years of coding and the pipeline; then the user's jobs by stage and the recent candidates, one query each), and the
# admin's recent actions (1). A change here is a decision: say why.
INDEX_QUERIES = 32


def test_the_index_takes_a_fixed_number_of_queries_whatever_the_data(
    recruiter_client, recruiter, data, django_assert_num_queries
):
    _job(recruiter, sourced=1)
    with django_assert_num_queries(INDEX_QUERIES):
        recruiter_client.get(INDEX)

    for n in range(3):
        _job(recruiter, title=f"More {n}", contacted=2)
        batch = services.batch_create(origin="cli")
        services.batch_receive(batch=batch, files=[services.IncomingFile(f"more{n}.txt", b"\x00")], enqueue=False)
    CandidateFactory.create_batch(3, years_coding=20)
    with django_assert_num_queries(INDEX_QUERIES):
        recruiter_client.get(INDEX)


def test_my_jobs_lists_the_users_own_jobs_with_their_pipeline_by_stage(recruiter_client, recruiter, data):
    mine = _job(recruiter, title="Go <b>engineer</b>", sourced=2, interviewing=1)
    _job(UserFactory(), title="Someone else's", shared=True, sourced=5)

    html = recruiter_client.get(INDEX).content.decode()
    block = html[html.index('id="dashboard-my-jobs"') : html.index('id="dashboard-recent"')]

    assert "Go &lt;b&gt;engineer&lt;/b&gt;" in block
    assert "Someone else" not in block
    assert reverse("admin:jobs_job_pipeline_board", args=[mine.pk]) in block
    assert re.search(r'class="stage stage-sourced" title="Sourced">Sourced <b>2</b></li>', block)
    assert re.search(r'class="stage stage-interviewing" title="[^"]+">[^<]+<b>1</b></li>', block)
    assert "3 in the pipeline" in block


def test_the_desk_has_a_search_box_and_the_recent_candidates(recruiter_client, data):
    newest = CandidateFactory(name="Zoe <Newest>")

    html = recruiter_client.get(INDEX).content.decode()

    assert 'id="dashboard-search"' in html
    assert f'action="{reverse("admin:profiles_candidate_changelist")}"' in html
    recent = html[html.index('id="dashboard-recent"') :]
    assert "Zoe &lt;Newest&gt;" in recent
    assert reverse("admin:profiles_candidate_change", args=[newest.pk]) in recent


def _text(html: str, element_id: str) -> str:
    """The words of the element with this id (its tags dropped, its spaces collapsed)."""
    block = html[html.index(f'id="{element_id}"') :]
    block = block[block.index(">") + 1 : block.index("</ul>")]
    return " ".join(re.sub(r"<[^>]+>", " ", block).split())


def test_the_totals_say_one_candidate_and_one_shortlist_in_the_singular(recruiter_client, recruiter):
    CandidateFactory()
    RepositoryFactory()
    Shortlist.objects.create(owner=recruiter, name="Backend")
    _job(recruiter)  # its pipeline is no shortlist of the totals

    totals = _text(recruiter_client.get(INDEX).content.decode(), "dashboard-totals")

    assert "1 candidate " in totals
    assert "1 repository " in totals
    assert "1 shortlist besides the jobs' pipelines" in totals
    assert "candidates" not in totals.replace("candidates contributed", "")
    assert "shortlists" not in totals


def test_zero_totals_read_as_words_not_as_zeros(recruiter_client):
    totals = _text(recruiter_client.get(INDEX).content.decode(), "dashboard-totals")

    assert "No candidates yet" in totals
    assert "No repositories yet" in totals
    assert "No shortlists yet" in totals
    assert " 0 " not in f" {totals} "


def test_the_last_days_imports_leave_out_the_outcomes_no_file_had(recruiter_client, data):
    imports = _text(recruiter_client.get(INDEX).content.decode(), "dashboard-imports")

    assert imports == "1 batch 0 files imported (new or updated candidates) 1 failed"


def test_files_already_up_to_date_and_those_waiting_are_counted_in_words(recruiter_client):
    profile = (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()
    first = services.batch_create(origin="cli")
    services.batch_receive(batch=first, files=[services.IncomingFile("ingrid.txt", profile)], enqueue=False)
    services.source_files_import(file_ids=list(first.files.values_list("pk", flat=True)), token="t")
    again = services.batch_create(origin="cli")
    services.batch_receive(
        batch=again,
        files=[services.IncomingFile("ingrid-2.txt", profile), services.IncomingFile("later.txt", b"\x00\x02")],
        enqueue=False,
    )

    imports = _text(recruiter_client.get(INDEX).content.decode(), "dashboard-imports")

    assert imports == (
        "2 batches 1 file imported (new or updated candidates) 1 already up to date 1 waiting or being read"
    )


def test_a_day_without_imports_says_so(recruiter_client):
    imports = _text(recruiter_client.get(INDEX).content.decode(), "dashboard-imports")

    assert imports == "No files received in the last day."
