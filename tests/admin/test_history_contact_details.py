"""The candidate's history pages (the list of versions with their changes, and an old version's page, from which a
revert starts) show contact details (e-mail, phone, the site) only to users who may see them: a Viewer reads who
changed what else, and when."""

import pytest
from django.urls import reverse

from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db

OLD = ("ada.old@example.com", "+44 20 7946 0001", "https://old.ada.example.org")
NEW = ("ada.new@example.com", "+44 20 7946 0002", "https://new.ada.example.org")
FIELDS = ("email", "phone", "website")


@pytest.fixture
def ada():
    """Ada with two versions in her history: her contact details, then new ones and a new title."""
    candidate = CandidateFactory(name="Ada Quill", title="Engineer", **dict(zip(FIELDS, OLD, strict=True)))
    candidate.save()  # a version holding the old details
    for field, value in zip(FIELDS, NEW, strict=True):
        setattr(candidate, field, value)
    candidate.title = "Staff Engineer"
    candidate.save()
    return candidate


def pages(client, candidate) -> list[str]:
    """The history list and the page of each version."""
    urls = [reverse("admin:profiles_candidate_history", args=[candidate.pk])]
    urls += [
        reverse("admin:profiles_candidate_simple_history", args=[candidate.pk, version.history_id])
        for version in candidate.history.all()
    ]
    answers = [client.get(url) for url in urls]
    assert [answer.status_code for answer in answers] == [200] * len(urls)
    return [answer.content.decode() for answer in answers]


def test_a_viewer_sees_no_contact_detail_in_the_history_list_or_a_version(viewer_client, ada):
    list_page, *versions = pages(viewer_client, ada)

    for html in (list_page, *versions):
        for value in (*OLD, *NEW):
            assert value not in html
    assert "Staff Engineer" in list_page  # the other changes are still listed
    assert "Ada Quill" in versions[0]


def test_a_viewer_is_not_told_a_contact_detail_changed(viewer_client, ada):
    list_page, *_ = pages(viewer_client, ada)

    changes = list_page.split('<th scope="col">Changes</th>', 1)[1]
    for field in ("E-mail", "Email", "Phone", "Website"):
        assert f"<strong>{field}:" not in changes
        assert f"<strong>{field.lower()}:" not in changes


def test_a_recruiter_sees_the_contact_details_in_the_history(recruiter_client, ada):
    list_page, *versions = pages(recruiter_client, ada)

    for value in NEW:
        assert value in list_page
    old_email, _, old_site = OLD
    assert any(old_email in html and old_site in html for html in versions)
