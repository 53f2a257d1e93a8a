"""Changelist actions (shortlist, CSV export, merge, not duplicates, release) and the possible-duplicates view."""

import csv
import io

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from profiles.models import Candidate, CandidateSkill, MergeRecord, NotDuplicate, Shortlist, ShortlistEntry
from profiles.services import candidate_save_by_hand, candidate_skills_edited
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory, UserFactory

pytestmark = pytest.mark.django_db
URL = reverse("admin:profiles_candidate_changelist")
DUPLICATES = reverse("admin:profiles_candidate_duplicates")


def act(client, action: str, candidates, **extra):
    return client.post(URL, {"action": action, ACTION_CHECKBOX_NAME: [c.pk for c in candidates], **extra})


def test_add_to_shortlist_asks_which_list_then_adds_the_selected_candidates(recruiter_client, recruiter):
    first, second = CandidateFactory(), CandidateFactory()
    mine = Shortlist.objects.create(owner=recruiter, name="Backend Berlin")
    Shortlist.objects.create(owner=UserFactory(), name="Someone else's")

    page = act(recruiter_client, "add_to_shortlist", [first, second])
    response = act(recruiter_client, "add_to_shortlist", [first, second], apply="1", shortlist=mine.pk)

    assert page.status_code == 200
    assert list(page.context["form"].fields["shortlist"].queryset) == [mine]
    assert response.status_code == 302
    assert set(mine.entries.values_list("candidate_id", "status")) == {(first.pk, "sourced"), (second.pk, "sourced")}


def test_add_to_shortlist_can_create_a_new_list_and_explains_a_missing_choice(recruiter_client, recruiter):
    candidate = CandidateFactory()

    missing = act(recruiter_client, "add_to_shortlist", [candidate], apply="1")
    created = act(recruiter_client, "add_to_shortlist", [candidate], apply="1", new_name="Rust folks")

    assert "Choose one of your shortlists or give a name for a new one." in missing.content.decode()
    assert created.status_code == 302
    assert ShortlistEntry.objects.get().shortlist.name == "Rust folks"
    assert Shortlist.objects.get().owner == recruiter


def test_export_selected_candidates_as_csv_neutralises_formulas(recruiter_client):
    risky = CandidateFactory(name='=HYPERLINK("http://evil")', company="+1 Corp")
    CandidateSkillFactory(candidate=risky, skill=SkillFactory(slug="python"), score=9)
    CandidateFactory(name="Not selected")

    response = act(recruiter_client, "export_csv", [risky])

    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert response["Content-Type"].startswith("text/csv")
    assert [(r["name"], r["company"], r["skills"]) for r in rows] == [
        ('\'=HYPERLINK("http://evil")', "'+1 Corp", "python:9")
    ]
    assert rows[0]["url"].endswith(reverse("admin:profiles_candidate_change", args=[risky.pk]))


def test_merge_action_keeps_the_chosen_candidate(recruiter_client, recruiter):
    keep, drop = CandidateFactory(name="Ana Lima"), CandidateFactory(name="Ana Lima")

    page = act(recruiter_client, "merge_candidates", [keep, drop])
    response = act(recruiter_client, "merge_candidates", [keep, drop], apply="1", survivor=keep.pk)

    assert "Choose the candidate to keep" in page.content.decode()
    assert response.status_code == 302
    assert list(Candidate.objects.values_list("pk", flat=True)) == [keep.pk]
    assert MergeRecord.objects.get().merged_by == recruiter


def test_a_viewer_has_no_write_actions(viewer_client):
    CandidateFactory()
    response = viewer_client.get(URL)
    actions = response.context["cl"].model_admin.get_actions(response.wsgi_request)

    assert set(actions) == {"export_csv"}


def test_mark_selected_as_different_people(recruiter_client):
    a, b, c = CandidateFactory(), CandidateFactory(), CandidateFactory()

    act(recruiter_client, "mark_not_duplicates", [a, b, c])

    assert NotDuplicate.objects.count() == 3


def test_release_protected_fields_action(recruiter_client, recruiter):
    candidate = CandidateFactory(title="Engineer")
    candidate.title = "Staff Engineer"
    candidate_save_by_hand(candidate=candidate, user=recruiter)

    act(recruiter_client, "release_protected_fields", [candidate])

    assert Candidate.objects.get(pk=candidate.pk).protected_fields == []


def test_release_protected_fields_action_releases_skill_scores_edited_by_hand(recruiter_client):
    candidate = CandidateFactory()
    row = CandidateSkillFactory(candidate=candidate, score=3)
    candidate_skills_edited(candidate_id=candidate.pk, scored_by_hand=[row.skill_id])

    act(recruiter_client, "release_protected_fields", [candidate])

    assert CandidateSkill.objects.get(pk=row.pk).score_by_hand is False


@pytest.fixture
def lookalikes():
    return CandidateFactory(name="Ana Lima", company="Nubank"), CandidateFactory(name="ANA LIMA", company="nubank")


def test_the_duplicates_view_proposes_a_group_and_merges_it(recruiter_client, lookalikes):
    keep, drop = lookalikes

    page = recruiter_client.get(DUPLICATES)
    response = recruiter_client.post(DUPLICATES, {"ids": [keep.pk, drop.pk], "survivor": keep.pk, "decision": "merge"})

    assert [group.ids for group in page.context["page"].groups] == [[keep.pk, drop.pk]]
    assert "shares: company" in page.content.decode()
    assert response.status_code == 302
    assert list(Candidate.objects.values_list("pk", flat=True)) == [keep.pk]


def test_the_duplicates_view_records_different_people(recruiter_client, lookalikes):
    a, b = lookalikes

    recruiter_client.post(DUPLICATES, {"ids": [a.pk, b.pk], "decision": "different"})

    assert NotDuplicate.objects.count() == 1
    assert recruiter_client.get(DUPLICATES).context["page"].groups == []


def test_a_viewer_sees_duplicates_but_cannot_merge(viewer_client, lookalikes):
    a, b = lookalikes

    page = viewer_client.get(DUPLICATES)
    response = viewer_client.post(DUPLICATES, {"ids": [a.pk, b.pk], "survivor": a.pk, "decision": "merge"})

    assert "Merge into the kept candidate" not in page.content.decode()
    assert response.status_code == 403
    assert Candidate.objects.count() == 2


def test_merge_action_with_one_candidate_says_so_and_merges_nothing(recruiter_client):
    alone = CandidateFactory()

    response = act(recruiter_client, "merge_candidates", [alone], apply="1", survivor=alone.pk)

    assert response.status_code == 302
    messages = [str(m) for m in recruiter_client.get(URL).context["messages"]]
    assert "Choose at least two candidates." in messages
    assert not MergeRecord.objects.exists()


def test_the_duplicates_view_refuses_a_survivor_left_out_of_the_group(recruiter_client, lookalikes):
    keep, drop = lookalikes
    third = CandidateFactory(name="Ana Lima", company="Nubank")

    response = recruiter_client.post(
        DUPLICATES, {"ids": [drop.pk, third.pk], "survivor": keep.pk, "decision": "merge"}, follow=True
    )

    assert "Choose the candidate to keep." in [str(m) for m in response.context["messages"]]
    assert Candidate.objects.count() == 3
