"""What the reading of a stored job's description left out: ``criteria.ignored`` and ``criteria.unrecognised`` in
``GET /api/v1/jobs/{id}/`` and the OpenAPI schema, and an ignored skill added back by a PATCH."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from jobs import services
from tests.api.conftest import _client_for
from tests.api.test_schema import schema as schema  # module-scoped: the schema is generated once
from tests.factories import UserFactory
from tests.jobs.stored import make_skills

pytestmark = pytest.mark.django_db

DESCRIPTION = """Backend Engineer

Berlin, Germany

Requirements
- Go and PostgreSQL
- We are moving off PHP this year.
"""


@pytest.fixture
def owner(db):
    make_skills()
    user = UserFactory(username="owner")
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="jobs", codename__endswith="_job"))
    return user


def test_a_stored_job_serves_the_mentions_its_reading_left_out(owner):
    job = services.job_create(user=owner, title="Backend Engineer", description=DESCRIPTION).job

    job.refresh_from_db()
    assert job.ignored == [{"label": "PHP", "skill": "php", "reason": "migrated-off"}]
    criteria = _client_for(owner).get(reverse("api:job-detail", kwargs={"pk": job.pk})).json()["criteria"]
    assert criteria["ignored"] == [{"label": "PHP", "skill": "php", "reason": "migrated-off"}]
    assert criteria["unrecognised"] == []


def test_a_skill_added_back_is_no_longer_ignored(owner):
    job = services.job_create(user=owner, title="Backend Engineer", description=DESCRIPTION).job
    url = reverse("api:job-detail", kwargs={"pk": job.pk})

    response = _client_for(owner).patch(url, {"criteria": {"preferred": [{"skill": "php"}]}}, format="json")

    assert response.json()["criteria"]["preferred"] == [{"skill": "php"}]
    assert response.json()["criteria"]["ignored"] == []
    job.refresh_from_db()
    assert job.ignored == []


def test_the_schema_documents_both_lists_on_a_job(schema):
    criteria = schema["components"]["schemas"]["JobCriteria"]["properties"]
    ignored = schema["components"]["schemas"]["IgnoredMention"]["properties"]

    assert criteria["unrecognised"]["items"]["type"] == "string"
    assert set(ignored) == {"label", "skill", "reason"}
    assert "not-a-skill" in str(schema["components"]["schemas"])
