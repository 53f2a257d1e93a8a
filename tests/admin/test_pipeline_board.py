"""The pipeline board's cards: the latest note, how the candidate got to their stage, and the cards the owner may
drag (or move by keyboard) to another stage."""

import re

import pytest
from django.urls import reverse

from jobs import services
from tests.admin.test_jobs import person
from tests.jobs.stored import DESCRIPTION, make_skills

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(recruiter):
    make_skills()
    return services.job_create(user=recruiter, title="Backend", description=DESCRIPTION, shared=True).job


@pytest.fixture
def entry(job, recruiter):
    entry, _ = services.pipeline_add(job=job, candidate=person("Nell Notes", {"go": 8}), user=recruiter)
    services.pipeline_note(entry=entry, text="First call went well.", user=recruiter)
    services.pipeline_move(entry=entry, stage="contacted", user=recruiter)
    services.pipeline_note(entry=entry, text="Wants a <b>remote</b> day each week.", user=recruiter)
    return entry


def board(job) -> str:
    return reverse("admin:jobs_job_pipeline_board", args=[job.pk])


def test_a_card_shows_its_latest_note_and_its_stage_history(recruiter_client, job, entry, recruiter):
    html = recruiter_client.get(board(job)).content.decode()

    assert "Wants a &lt;b&gt;remote&lt;/b&gt; day each week." in html, "the latest note, escaped"
    assert "First call went well." not in html
    assert "Sourced → Contacted" in html
    assert f"by {recruiter.get_username()}" in html
    assert "1 move" in html


def test_the_owner_may_drag_cards_and_a_viewer_may_not(recruiter_client, job, entry):
    html = recruiter_client.get(board(job)).content.decode()

    assert 'draggable="true"' in html
    assert "jobs/pipeline_board.js" in html
    assert 'aria-keyshortcuts="Alt+ArrowLeft Alt+ArrowRight"' in html


def test_a_viewer_sees_the_cards_but_drags_none(viewer_client, job, entry):
    html = viewer_client.get(board(job)).content.decode()

    assert "Nell Notes" in html
    assert 'draggable="true"' not in html
    assert "jobs/pipeline_board.js" not in html


def test_a_card_says_when_it_was_added_as_the_desk_and_the_jobs_list_do(recruiter_client, job, entry):
    html = recruiter_client.get(board(job)).content.decode()

    assert re.search(r"added \d{1,2} [A-Z][a-z]{2} \d{4}", html)
    assert not re.search(r"\d{4}-\d{2}-\d{2}", html.split('id="pipeline-board"')[1])
