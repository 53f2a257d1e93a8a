"""A shortlist's page is named by the list; a job's pipeline (a shortlist the job owns) is named as the job's pipeline,
shows the job's tabs with this page, its notes and CSV, as the current one, and links to the board that moves its
candidates on."""

import re

import pytest
from django.urls import reverse
from django.utils.timezone import localtime

from jobs import services
from profiles.models import Shortlist, ShortlistEntry
from tests.factories import CandidateFactory
from tests.jobs.stored import DESCRIPTION, make_skills

pytestmark = pytest.mark.django_db


def shortlist_page(client, shortlist) -> str:
    return client.get(reverse("admin:profiles_shortlist_change", args=[shortlist.pk])).content.decode()


def test_a_jobs_pipeline_page_shows_the_jobs_tabs_and_its_board(recruiter_client, recruiter):
    make_skills()
    job = services.job_create(user=recruiter, title="Go <b>lead</b>", description=DESCRIPTION).job

    html = shortlist_page(recruiter_client, job.pipeline)

    assert "<h1>Pipeline of Go &lt;b&gt;lead&lt;/b&gt;</h1>" in html
    assert "Change shortlist" not in html.split("</title>")[1]
    assert re.search(r'<li class="current"><a href="[^"]+" id="tab-notes" aria-current="page">', html)
    pipeline_note = html.split('id="pipeline-of-job"')[1].split("</p>")[0]
    assert reverse("admin:jobs_job_pipeline_board", args=[job.pk]) in pipeline_note
    assert "Go &lt;b&gt;lead&lt;/b&gt;" in pipeline_note


def test_a_plain_shortlist_is_named_by_itself_without_a_jobs_tabs(recruiter_client, recruiter):
    shortlist = Shortlist.objects.create(owner=recruiter, name="Backend <i>people</i>")

    html = shortlist_page(recruiter_client, shortlist)

    assert "<h1>Backend &lt;i&gt;people&lt;/i&gt;</h1>" in html
    assert "job-tabs" not in html
    assert 'id="pipeline-of-job"' not in html


def test_an_entry_says_when_it_was_added_as_the_desk_writes_dates(recruiter_client, recruiter):
    shortlist = Shortlist.objects.create(owner=recruiter, name="Backend")
    entry = ShortlistEntry.objects.create(shortlist=shortlist, candidate=CandidateFactory(name="Ada Quill"))

    html = shortlist_page(recruiter_client, shortlist)

    cell = re.search(r'<td class="field-added">\s*<p>(.*?)</p>', html, re.S).group(1).strip()
    assert cell == localtime(entry.added_at).strftime("%-d %b %Y")
