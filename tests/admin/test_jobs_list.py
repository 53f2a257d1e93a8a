"""The jobs list fits a laptop's window: a job read from a long post names a dozen skills, and its row names the first
few ("Python, Django, PostgreSQL, +9 more") with the whole criteria in the cell's tooltip; each row says how many
candidates its pipeline holds."""

import re

import pytest
from django.urls import reverse

from jobs import services
from jobs.admin.common import criteria_skills_summary
from jobs.models import JobSkill
from tests.factories import CandidateFactory, SkillFactory
from tests.jobs.stored import DESCRIPTION, make_skills

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:jobs_job_changelist")
MANY = ["python", "django", "postgresql-x", "redis", "celery", "docker", "kubernetes-x", "terraform", "aws", "react"]


def job_asking_for(owner, *, required: list[str], preferred: list[str] = (), excluded: list[str] = (), title="Big"):
    """A job whose criteria skills are exactly these (the reading of its post is not what is tested here)."""
    make_skills()
    job = services.job_create(user=owner, title=title, description=DESCRIPTION).job
    job.skills.all().delete()
    for kind, slugs in [("required", required), ("preferred", preferred), ("excluded", excluded)]:
        for slug in slugs:
            skill = SkillFactory(slug=slug, name=slug.removesuffix("-x").title().replace("Aws", "AWS"))
            JobSkill.objects.create(job=job, skill=skill, kind=kind, min_score=7 if kind == "required" else None)
    return job


def skills_cell(html: str) -> str:
    return re.search(r'<td class="field-skills_summary">(.*?)</td>', html, re.S).group(1)


def test_a_job_with_many_skills_names_the_first_few_and_counts_the_rest(recruiter_client, recruiter):
    job_asking_for(recruiter, required=MANY, preferred=["rust", "go"], excluded=["php"])

    cell = skills_cell(recruiter_client.get(CHANGELIST).content.decode())

    assert ">Python, Django, Postgresql, <span class='more'>+10 more</span></span>" in cell
    # The whole criteria stay one hover away, minimums included.
    assert "Required: Python ≥ 7, Django ≥ 7," in cell
    assert "Preferred: Rust, Go. Excluded: PHP." in cell


def test_required_skills_come_first_whatever_order_the_rows_were_written_in(recruiter):
    job = job_asking_for(recruiter, required=[], preferred=["rust"], excluded=["php"])
    JobSkill.objects.create(job=job, skill=SkillFactory(slug="go"), kind="required", min_score=5)

    summary = criteria_skills_summary(job.skills.select_related("skill"))

    assert (summary.shown, summary.more) == ("Go, Rust (preferred), not PHP", 0)
    assert summary.details == "Required: Go ≥ 5. Preferred: Rust. Excluded: PHP."


def test_a_job_without_skills_shows_a_dash(recruiter_client, recruiter):
    job_asking_for(recruiter, required=[])

    assert skills_cell(recruiter_client.get(CHANGELIST).content.decode()) == "—"


def test_skill_names_are_escaped_in_the_list_and_its_tooltip(recruiter_client, recruiter):
    job = job_asking_for(recruiter, required=[])
    evil = SkillFactory(slug="evil", name="<b>x</b>' onmouseover='alert(1)")
    JobSkill.objects.create(job=job, skill=evil, kind="required", min_score=5)

    cell = skills_cell(recruiter_client.get(CHANGELIST).content.decode())

    assert "<b>" not in cell
    assert "onmouseover='" not in cell
    assert "&lt;b&gt;x&lt;/b&gt;&#x27; onmouseover=&#x27;alert(1)" in cell


def test_each_row_says_how_many_candidates_its_pipeline_holds(recruiter_client, recruiter):
    full = job_asking_for(recruiter, required=["python"], title="Full")
    job_asking_for(recruiter, required=["python"], title="Empty")
    for candidate in CandidateFactory.create_batch(3):
        services.pipeline_add(job=full, candidate=candidate, user=recruiter)

    html = recruiter_client.get(CHANGELIST).content.decode()

    pipelines = re.findall(r"<td class=\"field-pipeline_size\"><a href='([^']+)'>([^<]+)</a>", html)
    assert sorted(text for _, text in pipelines) == ["3 candidates", "empty"]
    assert reverse("admin:profiles_shortlist_change", args=[full.pipeline_id]) in {url for url, _ in pipelines}


def test_the_list_is_called_jobs(recruiter_client):
    html = recruiter_client.get(CHANGELIST).content.decode()

    assert "<h1>Jobs</h1>" in html
    assert "Select job to change" not in html
