import pytest
from django.core.exceptions import PermissionDenied

from profiles import services
from profiles.models import Shortlist, ShortlistEntry
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_adding_candidates_to_a_shortlist_creates_new_entries_once():
    owner = UserFactory()
    shortlist, created = services.shortlist_get_or_create(owner=owner, name="  Backend Berlin ")
    first, second = CandidateFactory(), CandidateFactory()

    added = services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[first.pk, second.pk, first.pk])
    ShortlistEntry.objects.filter(candidate=first).update(status="contacted")
    again = services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[first.pk])

    assert (created, shortlist.name, added, again) == (True, "Backend Berlin", 2, 0)
    assert dict(shortlist.entries.values_list("candidate_id", "status")) == {
        first.pk: "contacted",
        second.pk: "sourced",
    }
    assert services.shortlist_get_or_create(owner=owner, name="Backend Berlin") == (shortlist, False)


def test_only_the_owner_adds_to_a_shortlist_even_a_shared_one():
    """Issue 15, hole 8: a shared shortlist is the team's to read, its owner's to change."""
    owner, colleague = UserFactory(), UserFactory()
    shortlist = Shortlist.objects.create(owner=owner, name="Backend", shared=True)
    candidate = CandidateFactory()

    with pytest.raises(PermissionDenied):
        services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[candidate.pk], user=colleague)

    assert not shortlist.entries.exists()
    assert services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[candidate.pk], user=owner) == 1
