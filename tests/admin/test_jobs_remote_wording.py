"""A job's remote switch reads the same on the job's page and on its matches page, in the API documentation's terms
(true: fully remote; false: on-site or hybrid; null: not stated), and its values stay the API's booleans."""

import re

import pytest
from django.urls import reverse

from jobs import services
from jobs.admin.forms import REMOTE_LABELS
from tests.jobs.stored import DESCRIPTION, make_skills

pytestmark = pytest.mark.django_db

WORDING = ["Not stated", "Fully remote", "On-site or hybrid"]


@pytest.fixture
def job(recruiter):
    make_skills()
    return services.job_create(user=recruiter, title="Backend", description=DESCRIPTION).job


def options(html: str, select_name: str) -> list[tuple[str, str, bool]]:
    """(value, label, selected) of each option of the select with this name."""
    select = re.search(rf'<select name="{select_name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return [
        (value, label.strip(), bool(selected))
        for value, selected, label in re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select)
    ]


@pytest.mark.parametrize("remote", [None, True, False])
def test_the_job_page_and_the_matches_page_say_remote_in_the_same_words(recruiter_client, job, remote):
    services.job_update(job=job, user=job.owner, criteria={"remote": remote})

    page = recruiter_client.get(reverse("admin:jobs_job_change", args=[job.pk])).content.decode()
    matches = recruiter_client.get(reverse("admin:jobs_job_matches", args=[job.pk])).content.decode()

    on_page = options(page, "remote")
    assert [label for _, label, _ in on_page] == WORDING
    assert [label for _, label, selected in on_page if selected] == [REMOTE_LABELS[remote]]
    chip = re.search(r'id="criteria-remote">.*?<span class="chip chip-criterion">(.*?)</span>', matches, re.S)
    assert chip.group(1).strip() == REMOTE_LABELS[remote]
    assert [label for _, label, _ in options(matches, "remote")] == WORDING
    for old in ["Either", "Not remote", "Unknown"]:
        assert f">{old}<" not in page + matches


def test_the_switch_saves_the_apis_booleans(recruiter_client, job):
    url = reverse("admin:jobs_job_change", args=[job.pk])
    form = {
        "title": job.title,
        "status": job.status,
        "description": job.description,
        "countries": ",".join(job.countries),
        "min_years_coding": job.min_years_coding or "",
        "keywords": ",".join(job.keywords),
        "skills-TOTAL_FORMS": "0",
        "skills-INITIAL_FORMS": "0",
        "skills-MIN_NUM_FORMS": "0",
        "skills-MAX_NUM_FORMS": "1000",
    }
    saved = []
    for value in ["true", "false", "unknown"]:
        response = recruiter_client.post(url, {**form, "remote": value})
        assert response.status_code == 302
        job.refresh_from_db()
        saved.append(job.remote)

    assert saved == [True, False, None]
    criteria = recruiter_client.post(
        reverse("admin:jobs_job_criteria", args=[job.pk]), {"op": "set_remote", "remote": "true"}
    )
    job.refresh_from_db()
    assert criteria.status_code == 302
    assert job.remote is True
