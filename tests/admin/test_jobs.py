"""Jobs in the admin (issue 16): "Add job" reads the criteria from the pasted description; a job's page edits them and
links to its pipeline; colleagues and viewers read, only the owner changes."""

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from jobs import services
from jobs.models import Job
from tests.factories import UserFactory
from tests.jobs.stored import DESCRIPTION, make_skills

pytestmark = pytest.mark.django_db

ADD = reverse("admin:jobs_job_add")
CHANGELIST = reverse("admin:jobs_job_changelist")


@pytest.fixture
def skills(db):
    return make_skills()


@pytest.fixture
def job(recruiter, skills):
    return services.job_create(user=recruiter, title="Backend", description=DESCRIPTION).job


def change(job) -> str:
    return reverse("admin:jobs_job_change", args=[job.pk])


def _rows(job):
    return sorted(job.skills.values_list("skill__slug", "kind", "min_score"))


def inline(job, **rows) -> dict:
    data = {
        "skills-TOTAL_FORMS": str(job.skills.count()),
        "skills-INITIAL_FORMS": str(job.skills.count()),
        "skills-MIN_NUM_FORMS": "0",
        "skills-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(job.skills.order_by("kind", "id")):
        data |= {
            f"skills-{i}-id": row.pk,
            f"skills-{i}-job": job.pk,
            f"skills-{i}-skill": row.skill_id,
            f"skills-{i}-kind": row.kind,
            f"skills-{i}-min_score": "" if row.min_score is None else row.min_score,
        }
        data |= {f"skills-{i}-{k}": v for k, v in rows.get(row.skill.slug, {}).items()}
    return data


def _form(job, **fields) -> dict:
    return {
        "title": job.title,
        "status": job.status,
        "description": job.description,
        "countries": ",".join(job.countries),
        "remote": {None: "unknown", True: "true", False: "false"}[job.remote],
        "min_years_coding": job.min_years_coding or "",
        "keywords": ",".join(job.keywords),
        **fields,
    }


def test_adding_a_job_from_a_description_extracts_its_criteria(recruiter_client, recruiter, skills):
    form = recruiter_client.get(ADD)
    response = recruiter_client.post(ADD, {"title": "Backend Engineer", "description": DESCRIPTION, "_save": "Save"})

    assert form.status_code == 200
    assert 'name="description"' in form.content.decode()
    assert response.status_code == 302, response.context["adminform"].form.errors
    job = Job.objects.get()
    assert (job.title, job.owner, job.pipeline.owner) == ("Backend Engineer", recruiter, recruiter)
    assert _rows(job) == [
        ("go", "required", 5), ("kafka", "required", 5), ("postgresql", "required", 5), ("rust", "preferred", None)
    ]  # fmt: skip
    assert job.min_years_coding == 5


def test_a_description_that_cannot_be_read_is_a_form_error(recruiter_client, skills):
    response = recruiter_client.post(ADD, {"title": "B", "description": "bin\x01ary", "_save": "Save"})

    assert response.status_code == 200
    assert "control character" in str(response.context["adminform"].form.errors["description"])
    assert not Job.objects.exists()


def test_the_job_page_shows_its_skills_and_links_to_its_pipeline(recruiter_client, job):
    page = recruiter_client.get(change(job)).content.decode()
    listing = recruiter_client.get(CHANGELIST).content.decode()

    assert reverse("admin:profiles_shortlist_change", args=[job.pipeline_id]) in page
    assert "Kafka" in page
    assert "go ≥ 5" in listing
    assert reverse("admin:profiles_shortlist_change", args=[job.pipeline_id]) in listing


def test_the_owner_edits_fields_criteria_and_skill_rows(recruiter_client, job):
    response = recruiter_client.post(
        change(job),
        {
            **_form(job, title="Platform", countries="Poland, DE", min_years_coding="3"),
            **inline(job, go={"min_score": "8"}, rust={"DELETE": "on"}),
            "_save": "Save",
        },
    )

    assert response.status_code == 302, (
        response.context["adminform"].form.errors,
        response.context["inline_admin_formsets"][0].formset.errors,
    )
    job.refresh_from_db()
    assert (job.title, job.countries, job.min_years_coding, job.pipeline.name) == (
        "Platform",
        ["PL", "DE"],
        3,
        "Platform",
    )
    assert _rows(job) == [("go", "required", 8), ("kafka", "required", 5), ("postgresql", "required", 5)]


def test_a_colleague_reads_a_shared_job_and_changes_nothing(client, groups, job):
    services.job_update(job=job, user=job.owner, shared=True)
    colleague = UserFactory(username="carla", is_staff=True)
    colleague.groups.add(groups["Recruiter"])
    client.force_login(colleague)

    page = client.get(change(job))
    post = client.post(change(job), {**_form(job, title="Mine"), **inline(job), "_save": "Save"})

    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert post.status_code == 403
    assert Job.objects.get().title == "Backend"


def test_a_private_job_is_not_shown_to_a_colleague(client, groups, job):
    colleague = UserFactory(username="carla", is_staff=True)
    colleague.groups.add(groups["Recruiter"])
    client.force_login(colleague)

    assert "Backend" not in client.get(CHANGELIST).content.decode()
    assert client.get(change(job)).status_code == 302  # "no such job": the admin sends them to the index


def test_a_viewer_reads_jobs_but_may_not_add_or_change(viewer_client, job):
    assert viewer_client.get(CHANGELIST).status_code == 200
    assert viewer_client.get(ADD).status_code == 403
    assert viewer_client.post(change(job), {**_form(job, title="X"), **inline(job), "_save": "Save"}).status_code == 403
    assert Job.objects.get().title == "Backend"


def test_the_groups_get_the_job_permissions(groups):
    importlib.import_module("jobs.migrations.0002_recruiter_and_viewer_permissions").grant(apps, None)
    recruiter = set(Group.objects.get(name="Recruiter").permissions.values_list("codename", flat=True))
    viewer = set(Group.objects.get(name="Viewer").permissions.values_list("codename", flat=True))

    assert {"view_job", "add_job", "change_job", "add_jobskill", "add_shortlistentryevent"} <= recruiter
    assert "delete_job" not in recruiter
    assert {"view_job", "view_jobskill", "view_shortlistentryevent"} <= viewer
    assert not {"add_job", "change_job", "add_shortlistentryevent"} & viewer


def test_anonymous_visitors_are_sent_to_log_in():
    response = Client().get(CHANGELIST)

    assert response.status_code == 302
