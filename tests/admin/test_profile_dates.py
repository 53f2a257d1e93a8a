"""The profile writes the days of its working lists as the desk and the lists do ("added 2 Dec 2026"), not as a
database does ("2026-12-02")."""

import pytest
from django.urls import reverse
from django.utils.timezone import localtime

from profiles.models import Shortlist, ShortlistEntry
from tests.admin.test_candidate_profile import text_of
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db


def test_a_shortlist_entry_and_the_last_update_read_as_days(recruiter_client, recruiter):
    candidate = CandidateFactory(name="Ada Quill")
    entry = ShortlistEntry.objects.create(
        shortlist=Shortlist.objects.create(owner=recruiter, name="Backend"), candidate=candidate
    )
    candidate.refresh_from_db()

    html = recruiter_client.get(reverse("admin:profiles_candidate_change", args=[candidate.pk])).content.decode()

    day = localtime(entry.added_at).strftime("%-d %b %Y")
    assert f"added {day}" in text_of(html, "profile-work")
    assert f"<dt>Updated</dt><dd>{localtime(candidate.updated_at).strftime('%-d %b %Y')}</dd>" in html
