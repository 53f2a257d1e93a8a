"""Who may read and who may change a shortlist or a saved search (issue 15, hole 8): one rule, for querysets (what a
page lists) and for one object (what a page may do), the two checked against each other."""

import pytest

from profiles.models import SavedSearch, Shortlist
from profiles.selectors import working_list_permits, working_lists_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return {
        "owner": UserFactory(username="owner"),
        "colleague": UserFactory(username="colleague"),
        "superuser": UserFactory(username="root", is_superuser=True),
    }


@pytest.mark.parametrize("model", [Shortlist, SavedSearch])
def test_owners_read_and_change_theirs_the_team_reads_shared_ones_superusers_everything(people, model):
    extra = {"query": "skill=go"} if model is SavedSearch else {}
    private = model.objects.create(owner=people["owner"], name="private", **extra)
    shared = model.objects.create(owner=people["owner"], name="shared", shared=True, **extra)
    expected = {
        # who: (readable, writable)
        "owner": ({private, shared}, {private, shared}),
        "colleague": ({shared}, set()),
        "superuser": ({private, shared}, {private, shared}),
    }

    for who, (readable, writable) in expected.items():
        user = people[who]
        assert set(working_lists_for(user=user, queryset=model.objects.all())) == readable, who
        assert set(working_lists_for(user=user, queryset=model.objects.all(), for_writing=True)) == writable, who
        for working_list in (private, shared):
            assert working_list_permits(user=user, working_list=working_list) == (working_list in readable), who
            assert working_list_permits(user=user, working_list=working_list, for_writing=True) == (
                working_list in writable
            ), who


def test_an_anonymous_or_inactive_user_reads_nothing(people):
    from django.contrib.auth.models import AnonymousUser

    shared = Shortlist.objects.create(owner=people["owner"], name="shared", shared=True)
    inactive = UserFactory(username="gone", is_active=False, is_superuser=True)

    for user in (AnonymousUser(), inactive):
        assert list(working_lists_for(user=user, queryset=Shortlist.objects.all())) == []
        assert not working_list_permits(user=user, working_list=shared)
