"""A post's heading block when its title stands alone: the company and the place after a blank line are still the
job's own (a post pasted that way, or a job whose short title the service puts above its description)."""

from __future__ import annotations

import pytest

from jobs import services
from jobs.criteria import extract_criteria
from jobs.models import Job
from tests.factories import UserFactory
from tests.fixtures import FIXTURES_DIR
from tests.jobs.helpers import CITIES, fixture_vocabulary

POST = (FIXTURES_DIR / "jobs_shipped" / "jd-titled-briefly.txt").read_text(encoding="utf-8")


def countries(text: str) -> list[str]:
    return list(extract_criteria(text, fixture_vocabulary(), cities=CITIES).countries)


def test_a_title_alone_above_the_company_and_place_keeps_the_place():
    assert countries(POST) == ["PT"]


def test_a_short_title_above_a_post_with_its_own_title_and_place_keeps_the_place():
    assert countries("Developer\n\n" + POST) == ["PT"]


@pytest.mark.parametrize(
    "text",
    [
        "Data Engineer\n\nAbout us\nWe are a Berlin company with customers in Spain.\n\nRequirements\n- Python\n",
        "Data Engineer\n\nOur offices\nLondon, Paris and Lisbon\n\nRequirements\n- Python\n",
        "Data Engineer\n\nWe sell to shops in Spain and Portugal\n- and Berlin\n\nRequirements\n- Python\n",
    ],
)
def test_a_block_after_the_title_that_is_text_a_list_or_others_places_is_no_heading(text):
    assert countries(text) == []


@pytest.mark.django_db
def test_a_job_with_a_short_title_keeps_the_place_of_its_description(skills):
    saved = services.job_create(user=UserFactory(), title="Mobile", description=POST)

    job = Job.objects.get(pk=saved.job.pk)
    assert (job.countries, job.remote, job.min_years_coding) == (["PT"], False, 3)
