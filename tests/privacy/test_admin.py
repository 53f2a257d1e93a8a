"""Roles (issue 18): privacy officers and superusers erase, recruiters request, and officers see the requests."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from privacy.models import ErasureRequest, PrivacyEvent
from profiles.models import Candidate
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:profiles_candidate_changelist"


def _post_action(client, action: str, candidates, url=CHANGELIST, **extra):
    data = {"action": action, ACTION_CHECKBOX_NAME: [c.pk for c in candidates], "index": 0, **extra}
    return client.post(reverse(url), data)


def _actions(client) -> list[str]:
    response = client.get(reverse(CHANGELIST))
    assert response.status_code == 200
    return [name for name, _ in response.context["action_form"].fields["action"].choices]


def test_a_recruiter_may_request_an_erasure_but_not_erase(client, recruiter):
    client.force_login(recruiter)
    actions = _actions(client)
    assert "request_erasure" in actions
    assert "erase_candidates" not in actions

    candidate = CandidateFactory(name="Pia Example")
    _post_action(client, "erase_candidates", [candidate], apply="1")

    assert Candidate.objects.filter(pk=candidate.pk).exists()
    assert not PrivacyEvent.objects.exists()


def test_a_recruiters_request_is_recorded_once_with_its_reason(client, recruiter):
    client.force_login(recruiter)
    candidate = CandidateFactory()

    page = _post_action(client, "request_erasure", [candidate])
    assert page.status_code == 200
    assert b"Request erasure" in page.content
    _post_action(client, "request_erasure", [candidate], apply="1", reason="Asked by e-mail")
    _post_action(client, "request_erasure", [candidate], apply="1", reason="Asked again")

    request = ErasureRequest.objects.get()
    assert (request.candidate, request.requested_by, request.reason) == (candidate, recruiter, "Asked by e-mail")
    assert request.status == ErasureRequest.Status.OPEN
    assert client.get(reverse("admin:privacy_erasurerequest_changelist")).status_code == 403


def test_an_officer_confirms_then_erases(client, officer):
    client.force_login(officer)
    assert "erase_candidates" in _actions(client)
    candidate = CandidateFactory(name="Pia Example")

    confirmation = _post_action(client, "erase_candidates", [candidate])
    assert confirmation.status_code == 200
    assert b"Pia Example" in confirmation.content
    assert Candidate.objects.filter(pk=candidate.pk).exists()

    done = _post_action(client, "erase_candidates", [candidate], apply="1")

    assert done.status_code == 302
    assert not Candidate.objects.filter(pk=candidate.pk).exists()
    assert PrivacyEvent.objects.get().by == officer


def test_a_superuser_may_erase(client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert "erase_candidates" in _actions(client)


def test_an_officer_erases_from_the_requests_list(client, officer, recruiter):
    candidate = CandidateFactory()
    ErasureRequest.objects.create(candidate=candidate, requested_by=recruiter, reason="Asked by phone")
    client.force_login(officer)
    listing = client.get(reverse("admin:privacy_erasurerequest_changelist"))
    assert listing.status_code == 200

    request = ErasureRequest.objects.get()
    _post_action(client, "erase_requested", [request], url="admin:privacy_erasurerequest_changelist", apply="1")

    request.refresh_from_db()
    assert request.candidate is None
    assert (request.status, request.decided_by) == (ErasureRequest.Status.DONE, officer)
    assert PrivacyEvent.objects.get().request == request


def test_an_officer_rejects_a_request(client, officer, recruiter):
    candidate = CandidateFactory()
    request = ErasureRequest.objects.create(candidate=candidate, requested_by=recruiter)
    client.force_login(officer)

    _post_action(client, "reject", [request], url="admin:privacy_erasurerequest_changelist")

    request.refresh_from_db()
    assert (request.status, request.decided_by) == (ErasureRequest.Status.REJECTED, officer)
    assert Candidate.objects.filter(pk=candidate.pk).exists()


def test_the_candidate_admin_keeps_the_exports_behaviour_it_extends():
    from django.contrib import admin

    from exports.admin import ExportingCandidateAdmin
    from privacy.admin import CandidatePrivacyActions

    registered = admin.site.get_model_admin(Candidate)
    assert isinstance(registered, ExportingCandidateAdmin)
    assert isinstance(registered, CandidatePrivacyActions)


def test_a_selection_of_more_than_a_hundred_is_refused_not_cut(client, officer, monkeypatch):
    monkeypatch.setattr("privacy.admin.ERASE_AT_ONCE", 2)
    client.force_login(officer)
    candidates = CandidateFactory.create_batch(3)

    response = _post_action(client, "erase_candidates", candidates, apply="1")

    assert response.status_code == 302
    assert Candidate.objects.count() == 3
    assert not PrivacyEvent.objects.exists()


def test_a_recruiter_gets_no_erasure_page_and_no_privacy_lists(client, recruiter):
    client.force_login(recruiter)
    candidate = CandidateFactory(name="Pia Example")
    ErasureRequest.objects.create(candidate=candidate, requested_by=recruiter)

    confirmation = _post_action(client, "erase_candidates", [candidate])  # the first step, before "apply"
    from_requests = _post_action(
        client, "erase_requested", [ErasureRequest.objects.get()], url="admin:privacy_erasurerequest_changelist"
    )
    confirmed = _post_action(
        client,
        "erase_requested",
        [ErasureRequest.objects.get()],
        url="admin:privacy_erasurerequest_changelist",
        apply="1",
    )

    assert b"Erase candidates" not in confirmation.content
    assert (from_requests.status_code, confirmed.status_code) == (403, 403)
    for name in ("erasurerequest", "suppression", "privacyevent", "sourcingrecord"):
        assert client.get(reverse(f"admin:privacy_{name}_changelist")).status_code == 403, name
    assert Candidate.objects.filter(pk=candidate.pk).exists()
    assert ErasureRequest.objects.get().status == ErasureRequest.Status.OPEN
    assert not PrivacyEvent.objects.exists()


@pytest.mark.parametrize("method", ["delete", "post", "put", "patch"])
def test_the_api_erases_nobody_a_recruiter_included(client, recruiter, method):
    """The API has no erasure: a candidate is erased in the admin or with manage.py erase, by a privacy officer."""
    client.force_login(recruiter)
    candidate = CandidateFactory(name="Pia Example")

    response = getattr(client, method)(f"/api/v1/candidates/{candidate.pk}/", content_type="application/json")

    assert response.status_code == 405
    assert Candidate.objects.filter(pk=candidate.pk).exists()
    assert not PrivacyEvent.objects.exists()


def test_no_one_deletes_a_candidate_the_admin_erases_them_instead(client):
    """A plain delete would keep the person in the history rows and the stored files, and let the next import bring
    them back: the candidate admin offers erasure alone, to superusers too."""
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    candidate = CandidateFactory(name="Pia Example")

    assert "delete_selected" not in _actions(client)
    page = client.get(reverse("admin:profiles_candidate_delete", args=[candidate.pk]))
    posted = client.post(reverse("admin:profiles_candidate_delete", args=[candidate.pk]), {"post": "yes"})
    _post_action(client, "delete_selected", [candidate], post="yes")

    assert page.status_code == posted.status_code == 403
    assert Candidate.objects.filter(pk=candidate.pk).exists()
