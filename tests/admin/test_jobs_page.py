"""A job's page reads as the recruiter's job, not as a database row: named by its title with the job's tabs, its
criteria skills in the order they count and without links that would change the shared skill itself, plain labels;
adding a job is pasting a post, with one button that says what happens next."""

import re

import pytest
from django.urls import reverse

from jobs import services
from jobs.models import JobSkill
from tests.factories import CandidateFactory, SkillFactory
from tests.jobs.stored import DESCRIPTION, make_skills

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(recruiter):
    make_skills()
    job = services.job_create(user=recruiter, title="Backend <Go>", description=DESCRIPTION).job
    services.pipeline_add(job=job, candidate=CandidateFactory(), user=recruiter)
    return job


def breadcrumbs(html: str) -> str:
    crumbs = html.split('class="breadcrumbs">')[1].split("</div>")[0].replace("&rsaquo;", "›")
    return " ".join(re.sub(r"<[^>]+>", " ", crumbs).split())


def page(client, job) -> str:
    return client.get(reverse("admin:jobs_job_change", args=[job.pk])).content.decode()


def test_the_job_page_is_named_by_the_job_and_shows_its_tabs(recruiter_client, job):
    html = page(recruiter_client, job)

    assert "<h1>Backend &lt;Go&gt;</h1>" in html
    assert "Change job" not in html
    assert breadcrumbs(html) == "Home › Jobs › Backend &lt;Go&gt;"
    assert "<title>Backend &lt;Go&gt; | " in html
    assert re.search(r'<li class="current"><a href="[^"]+" id="tab-job" aria-current="page">Job</a></li>', html)
    assert f'href="{reverse("admin:jobs_job_matches", args=[job.pk])}"' in html
    assert f'href="{reverse("admin:jobs_job_pipeline_board", args=[job.pk])}"' in html


def test_the_job_page_says_its_fields_in_plain_words(recruiter_client, job):
    html = page(recruiter_client, job)

    assert "Years of coding, at least" in html
    assert "Min years coding" not in html
    assert "1 candidate: notes and CSV export</a>" in html
    assert "Editing it does not read the criteria again" in html
    assert "Created at" not in html


def test_criteria_skills_come_required_first_and_offer_no_link_that_changes_the_skill_itself(recruiter_client, job):
    JobSkill.objects.create(job=job, skill=SkillFactory(slug="php"), kind="excluded")

    html = page(recruiter_client, job)

    kinds = re.findall(r'<select name="skills-\d+-kind"[^>]*>.*?<option value="(\w+)" selected>', html, re.S)
    assert kinds == ["required"] * 3 + ["preferred", "excluded"]
    assert "related-widget-wrapper-link" not in html.split('id="skills-group"')[1]
    assert "MINIMUM SCORE" in html.upper()


def test_adding_a_job_is_pasting_a_post_with_one_button(recruiter_client):
    html = recruiter_client.get(reverse("admin:jobs_job_add")).content.decode()

    assert "<h1>Paste a job</h1>" in html
    assert '<input type="submit" value="Read the post and rank candidates" class="default" name="_save">' in html
    assert "_addanother" not in html
    assert "_continue" not in html


def test_the_jobs_list_offers_to_paste_a_job(recruiter_client):
    html = recruiter_client.get(reverse("admin:jobs_job_changelist")).content.decode()

    assert re.search(r'class="addlink" id="paste-a-job">Paste a job</a>', html)
    assert breadcrumbs(html) == "Home › Jobs"


def test_adding_a_candidate_to_a_job_before_any_job_exists_links_to_pasting_one(recruiter_client):
    candidate = CandidateFactory()

    html = recruiter_client.get(reverse("admin:profiles_candidate_add_to_job", args=[candidate.pk])).content.decode()

    note = html.split('class="errornote">')[1].split("</p>")[0]
    assert note.startswith("You have no job to add to yet.")
    assert f'<a href="{reverse("admin:jobs_job_add")}">Paste a job</a>' in note
