"""Decisions on a group a recruiter chose: what a group is, who survives, and that the whole group is merged or
recorded as different people (the admin's merge action and possible-duplicates page call these)."""

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from core.errors import ApplicationError
from profiles import services
from profiles.models import Candidate, MergeRecord, NotDuplicate
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def trio():
    return [CandidateFactory(name="Ana Lima") for _ in range(3)]


def test_a_group_is_the_chosen_candidates_that_still_exist_in_id_order(trio):
    first, second, third = trio
    gone = CandidateFactory()
    gone_id = gone.pk
    gone.delete()

    group = services.candidates_group(candidate_ids=[third.pk, gone_id, first.pk, second.pk, first.pk])

    assert group == [first, second, third]


@pytest.mark.parametrize("chosen", [0, 1])
def test_fewer_than_two_candidates_are_no_group(trio, chosen):
    with pytest.raises(ApplicationError) as refused:
        services.candidates_group(candidate_ids=[c.pk for c in trio[:chosen]])

    assert refused.value.code == "group_too_small"


def test_one_candidate_and_the_ids_of_deleted_ones_are_no_group(trio):
    ids = [c.pk for c in trio]
    Candidate.objects.filter(pk__in=ids[1:]).delete()

    with pytest.raises(ApplicationError):
        services.candidates_group(candidate_ids=ids)


def test_merging_a_group_keeps_the_chosen_survivor_and_merges_every_other_member(trio):
    first, second, third = trio
    user = UserFactory()

    survivor, records = services.candidates_merge_group(
        candidate_ids=[first.pk, second.pk, third.pk], survivor_id=second.pk, user=user
    )

    assert survivor == second
    assert list(Candidate.objects.values_list("pk", flat=True)) == [second.pk]
    assert sorted(r.merged_id for r in records) == [first.pk, third.pk]
    assert set(MergeRecord.objects.values_list("survivor_id", "merged_by")) == {(second.pk, user.pk)}


@pytest.mark.parametrize("survivor", ["none", "outsider"])
def test_a_merge_needs_a_survivor_from_the_group_and_changes_nothing_without_one(trio, survivor):
    outsider = CandidateFactory()
    survivor_id = None if survivor == "none" else outsider.pk

    with pytest.raises(ApplicationError) as refused:
        services.candidates_merge_group(candidate_ids=[c.pk for c in trio], survivor_id=survivor_id, user=None)

    assert refused.value.message == "Choose the candidate to keep."
    assert Candidate.objects.count() == 4
    assert not MergeRecord.objects.exists()


def test_a_merge_of_one_candidate_is_refused(trio):
    with pytest.raises(ApplicationError):
        services.candidates_merge_group(candidate_ids=[trio[0].pk], survivor_id=trio[0].pk, user=None)

    assert Candidate.objects.count() == 3


def test_marking_a_group_as_different_people_records_every_pair(trio):
    first, second, third = trio
    user = UserFactory()

    created = services.candidates_group_mark_not_duplicate(candidate_ids=[third.pk, first.pk, second.pk], user=user)

    assert created == 3
    assert set(NotDuplicate.objects.values_list("first_id", "second_id", "marked_by")) == {
        (first.pk, second.pk, user.pk),
        (first.pk, third.pk, user.pk),
        (second.pk, third.pk, user.pk),
    }


def test_marking_one_candidate_as_different_people_is_refused(trio):
    with pytest.raises(ApplicationError):
        services.candidates_group_mark_not_duplicate(candidate_ids=[trio[0].pk], user=None)

    assert not NotDuplicate.objects.exists()


# --- The cap --------------------------------------------------------------------------------------------------------
# Marking n candidates as different people records n·(n-1)/2 pairs: a "select all" of thousands would be millions. A
# group is at most MAX_GROUP_SIZE candidates, refused above, and within the cap the pairs are written by one statement.


def many(n: int) -> list[Candidate]:
    return Candidate.objects.bulk_create(Candidate(name=f"Person {i}") for i in range(n))


def test_a_group_above_the_cap_is_refused_and_nothing_is_recorded():
    ids = [c.pk for c in many(services.MAX_GROUP_SIZE + 1)]

    for decide in (
        lambda: services.candidates_group_mark_not_duplicate(candidate_ids=ids, user=None),
        lambda: services.candidates_merge_group(candidate_ids=ids, survivor_id=ids[0], user=None),
    ):
        with pytest.raises(ApplicationError) as refused:
            decide()
        assert refused.value.code == "group_too_large"
        assert refused.value.message == (
            f"Choose at most {services.MAX_GROUP_SIZE} candidates at a time; {len(ids)} were selected."
        )
    assert not NotDuplicate.objects.exists()
    assert Candidate.objects.count() == len(ids)


def test_a_selection_of_every_candidate_is_read_no_further_than_the_cap():
    many(services.MAX_GROUP_SIZE + 50)
    everyone = Candidate.objects.values_list("pk", flat=True)  # a changelist's "select all"

    with CaptureQueriesContext(connection) as queries, pytest.raises(ApplicationError) as refused:
        services.candidates_group(candidate_ids=everyone)

    assert refused.value.message == (
        f"Choose at most {services.MAX_GROUP_SIZE} candidates at a time; more than {services.MAX_GROUP_SIZE} were "
        "selected."
    )
    [query] = queries.captured_queries
    assert f"LIMIT {services.MAX_GROUP_SIZE + 1}" in query["sql"]


def test_a_group_at_the_cap_records_every_pair_in_one_statement(django_assert_num_queries):
    group = many(services.MAX_GROUP_SIZE)
    user = UserFactory()
    n = len(group)

    with django_assert_num_queries(2):  # the group, then the pairs
        created = services.candidates_group_mark_not_duplicate(candidate_ids=[c.pk for c in group], user=user)

    assert created == n * (n - 1) // 2 == NotDuplicate.objects.count()
    assert set(NotDuplicate.objects.values_list("marked_by", flat=True)) == {user.pk}
    assert not NotDuplicate.objects.filter(first_id__gte=F("second_id")).exists()


def test_marking_again_counts_only_the_new_pairs_and_keeps_who_marked_the_old_ones(trio):
    first, second, third = trio
    earlier, later = UserFactory(), UserFactory()
    services.candidates_mark_not_duplicate(candidates=[first, second], user=earlier)

    created = services.candidates_group_mark_not_duplicate(candidate_ids=[first.pk, second.pk, third.pk], user=later)

    assert created == 2
    assert NotDuplicate.objects.get(first=first, second=second).marked_by == earlier


def test_the_pairs_service_refuses_more_than_the_cap_whoever_calls_it():
    with pytest.raises(ApplicationError):
        services.candidates_mark_not_duplicate(candidates=many(services.MAX_GROUP_SIZE + 1), user=None)

    assert not NotDuplicate.objects.exists()
