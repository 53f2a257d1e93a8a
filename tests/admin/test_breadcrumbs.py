"""A list's breadcrumbs name it once: "Home › Candidates", not the app and then the model of the same name."""

import pytest
from django.urls import reverse

from tests.admin.test_jobs_page import breadcrumbs

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "trail"),
    [("admin:profiles_candidate_changelist", "Home › Candidates"), ("admin:jobs_job_changelist", "Home › Jobs")],
)
def test_a_list_named_as_its_section_is_named_once(recruiter_client, url, trail):
    assert breadcrumbs(recruiter_client.get(reverse(url)).content.decode()) == trail
