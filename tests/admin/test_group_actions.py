"""The candidate changelist's group actions, merge and "different people", over a selection past their cap: refused
with a message, nothing done, and the selection read no further than the cap."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.messages import get_messages
from django.urls import reverse

from profiles.models import Candidate, MergeRecord, NotDuplicate
from profiles.services import MAX_GROUP_SIZE

pytestmark = pytest.mark.django_db
URL = reverse("admin:profiles_candidate_changelist")


@pytest.fixture
def crowd():
    return Candidate.objects.bulk_create(Candidate(name=f"Ana Lima {i}") for i in range(MAX_GROUP_SIZE + 20))


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.parametrize("action", ["mark_not_duplicates", "merge_candidates"])
def test_select_all_past_the_cap_is_refused_with_a_message(recruiter_client, crowd, action):
    response = recruiter_client.post(
        URL, {"action": action, "select_across": "1", "index": "0", ACTION_CHECKBOX_NAME: [crowd[0].pk]}
    )

    assert response.status_code == 302
    assert messages_of(response) == [
        f"Choose at most {MAX_GROUP_SIZE} candidates at a time; more than {MAX_GROUP_SIZE} were selected."
    ]
    assert not NotDuplicate.objects.exists()
    assert not MergeRecord.objects.exists()
    assert Candidate.objects.count() == len(crowd)


def test_ticked_candidates_past_the_cap_are_refused_too(recruiter_client, crowd):
    response = recruiter_client.post(
        URL, {"action": "mark_not_duplicates", ACTION_CHECKBOX_NAME: [c.pk for c in crowd]}
    )

    assert messages_of(response) == [
        f"Choose at most {MAX_GROUP_SIZE} candidates at a time; more than {MAX_GROUP_SIZE} were selected."
    ]
    assert not NotDuplicate.objects.exists()


def test_a_group_at_the_cap_is_recorded(recruiter_client, crowd):
    group = crowd[:MAX_GROUP_SIZE]

    response = recruiter_client.post(
        URL, {"action": "mark_not_duplicates", ACTION_CHECKBOX_NAME: [c.pk for c in group]}
    )

    pairs = MAX_GROUP_SIZE * (MAX_GROUP_SIZE - 1) // 2
    assert messages_of(response) == [f"Recorded {pairs} pair(s) as different people."]
    assert NotDuplicate.objects.count() == pairs


def test_the_merge_page_of_a_group_past_the_cap_is_never_drawn(recruiter_client, crowd):
    response = recruiter_client.post(URL, {"action": "merge_candidates", ACTION_CHECKBOX_NAME: [c.pk for c in crowd]})

    assert response.status_code == 302  # back to the list with the message, not a page listing every candidate
    assert Candidate.objects.count() == len(crowd)


def test_the_possible_duplicates_page_refuses_a_posted_group_past_the_cap(recruiter_client, crowd):
    response = recruiter_client.post(
        reverse("admin:profiles_candidate_duplicates"), {"decision": "different", "ids": [c.pk for c in crowd]}
    )

    assert response.status_code == 302
    assert messages_of(response) == [
        f"Choose at most {MAX_GROUP_SIZE} candidates at a time; {len(crowd)} were selected."
    ]
    assert not NotDuplicate.objects.exists()
