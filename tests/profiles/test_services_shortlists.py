import pytest

from profiles import services
from profiles.models import ShortlistEntry
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
    assert dict(shortlist.entries.values_list("candidate_id", "status")) == {first.pk: "contacted", second.pk: "new"}
    assert services.shortlist_get_or_create(owner=owner, name="Backend Berlin") == (shortlist, False)
