"""The contributions' own admin: no bulk delete, and a single delete or edit there goes through
the services, so the candidate's history records it and search reads the candidate as it now is."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from profiles.models import Candidate, Contribution
from profiles.search import candidates_refresh_search_columns
from profiles.selectors import candidate_search
from tests.factories import CandidateFactory, ContributionFactory, RepositoryFactory

pytestmark = pytest.mark.django_db
CHANGELIST = reverse("admin:profiles_contribution_changelist")


def found_by(words: str) -> list[int]:
    return [c.pk for c in candidate_search(params={"q": words})]


@pytest.fixture
def contribution():
    candidate = CandidateFactory(name="Ada Quill", summary="Backend work.")
    row = ContributionFactory(
        candidate=candidate, repository=RepositoryFactory(full_name="zanzibar/quokkadb"), summary="Storage engine."
    )
    candidates_refresh_search_columns(candidate_ids=[candidate.pk])  # as an import leaves it
    candidate.history.all().delete()
    return row


def test_the_contribution_list_offers_no_action(recruiter_client, contribution):
    response = recruiter_client.get(CHANGELIST)

    assert response.status_code == 200
    assert response.context["cl"].model_admin.get_actions(response.wsgi_request) == {}
    assert response.context["action_form"] is None
    assert "delete_selected" not in response.content.decode()


def test_a_posted_delete_selected_deletes_nothing(recruiter_client, contribution):
    others = ContributionFactory.create_batch(3)

    response = recruiter_client.post(
        CHANGELIST,
        {
            "action": "delete_selected",
            "post": "yes",
            "select_across": "1",
            "index": "0",
            ACTION_CHECKBOX_NAME: [contribution.pk, *(c.pk for c in others)],
        },
    )

    assert response.status_code in (200, 302)
    assert Contribution.objects.count() == 4


def test_deleting_one_contribution_records_it_in_the_history_and_search_forgets_it(
    recruiter_client, recruiter, contribution
):
    candidate = contribution.candidate
    assert found_by("quokkadb") == [candidate.pk]

    response = recruiter_client.post(
        reverse("admin:profiles_contribution_delete", args=[contribution.pk]), {"post": "yes"}
    )

    assert response.status_code == 302
    assert not Contribution.objects.filter(pk=contribution.pk).exists()
    latest = Candidate.history.filter(id=candidate.pk).order_by("-history_date", "-history_id").first()
    assert latest.history_user == recruiter
    assert latest.history_change_reason == "Removed the contribution to zanzibar/quokkadb"
    assert latest.skills == []  # the skills as they were after the edit, as the candidate's form stores them
    # The state before the edit (the import's) is recorded first, so the history shows what the delete changed.
    assert Candidate.history.filter(id=candidate.pk).count() == 2
    assert found_by("quokkadb") == []
    assert found_by("Quill") == [candidate.pk]


def test_editing_a_contribution_there_refreshes_search_and_the_history(recruiter_client, recruiter, contribution):
    candidate = contribution.candidate
    url = reverse("admin:profiles_contribution_change", args=[contribution.pk])
    page = recruiter_client.get(url)
    data = {k: v for k, v in page.context["adminform"].form.initial.items() if v is not None}
    data.update(candidate=candidate.pk, repository=contribution.repository_id, summary="Wrote the flibbertigibbet.")

    response = recruiter_client.post(url, data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert found_by("flibbertigibbet") == [candidate.pk]
    latest = Candidate.history.filter(id=candidate.pk).order_by("-history_date", "-history_id").first()
    assert (latest.history_user, latest.history_change_reason) == (
        recruiter,
        "Changed the contribution to zanzibar/quokkadb",
    )


def test_adding_a_contribution_there_makes_the_candidate_findable_by_it(recruiter_client, contribution):
    candidate = contribution.candidate
    repository = RepositoryFactory(full_name="gallimaufry/wombatql")

    response = recruiter_client.post(
        reverse("admin:profiles_contribution_add"),
        {"candidate": candidate.pk, "repository": repository.pk, "position": 1, "commits": 3, "comments": 0},
    )

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert found_by("wombatql") == [candidate.pk]
    latest = Candidate.history.filter(id=candidate.pk).order_by("-history_date", "-history_id").first()
    assert latest.history_change_reason == "Added the contribution to gallimaufry/wombatql"
