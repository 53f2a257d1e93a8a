"""The admin log after an erasure (issue 18): rows about the person's objects go, and other rows' messages lose
their name, in the form Django stores them (JSON with non-ASCII letters escaped), without touching rows that only
hold a part of it."""

import json

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType

from privacy.services import candidate_erase
from profiles.models import Shortlist
from tests.factories import CandidateFactory
from tests.privacy.scan import found_in_database

pytestmark = pytest.mark.django_db


def _shortlist_log(user, shortlist, message) -> LogEntry:
    """A row as the admin writes it: ``LogEntry.change_message`` is ``json.dumps`` of the list, ASCII only."""
    return LogEntry.objects.create(
        user=user,
        content_type=ContentType.objects.get_for_model(Shortlist),
        object_id=str(shortlist.pk),
        object_repr=str(shortlist),
        action_flag=CHANGE,
        change_message=json.dumps(message),
    )


def _entry_changed(text: str) -> list:
    return [{"changed": {"name": "shortlist entry", "object": text, "fields": ["note"]}}]


def test_a_name_with_accents_leaves_the_json_messages_of_other_rows(officer, recruiter):
    zoe = CandidateFactory(name="Zoë Ångström", email="zoe@example.org")
    shortlist = Shortlist.objects.create(name="Data hires", owner=recruiter)
    row = _shortlist_log(recruiter, shortlist, _entry_changed("Zoë Ångström in Data hires"))
    assert "\\u00c5ngstr\\u00f6m" in row.change_message  # as Django stores it
    # The scan looks for the escaped form too.
    assert ("django_admin_log", "change_message", "Zoë Ångström") in found_in_database(["Zoë Ångström"])

    candidate_erase(candidate=zoe, user=officer)

    row.refresh_from_db()
    assert json.loads(row.change_message) == _entry_changed("(erased) in Data hires")
    assert row.get_change_message()  # still a message the admin can read
    assert found_in_database(["Zoë Ångström"]) == []


def test_rows_holding_only_a_part_of_the_name_are_left_as_they_were(officer, recruiter):
    anna = CandidateFactory(name="Anna Berg")
    shortlist = Shortlist.objects.create(name="Backend", owner=recruiter)
    others = [
        _shortlist_log(recruiter, shortlist, _entry_changed("Hanna Bergman in Backend")),
        _shortlist_log(recruiter, shortlist, _entry_changed("Anna Bergström in Backend")),
        LogEntry.objects.create(
            user=recruiter,
            content_type=ContentType.objects.get_for_model(Shortlist),
            object_id=str(shortlist.pk),
            object_repr="Joanna Berg's list",
            action_flag=CHANGE,
            change_message="Renamed by hand",
        ),
    ]
    naming_her = _shortlist_log(recruiter, shortlist, _entry_changed("ANNA BERG in Backend"))
    before = {row.pk: (row.change_message, row.object_repr) for row in others}

    candidate_erase(candidate=anna, user=officer)

    assert {row.pk: (row.change_message, row.object_repr) for row in LogEntry.objects.filter(pk__in=before)} == before
    naming_her.refresh_from_db()
    assert json.loads(naming_her.change_message) == _entry_changed("(erased) in Backend")


def test_a_plain_text_message_and_the_object_repr_lose_the_name(officer, recruiter):
    zoe = CandidateFactory(name="Zoë Ångström")
    shortlist = Shortlist.objects.create(name="Zoë Ångström's picks", owner=recruiter)
    row = LogEntry.objects.create(
        user=recruiter,
        content_type=ContentType.objects.get_for_model(Shortlist),
        object_id=str(shortlist.pk),
        object_repr=str(shortlist),
        action_flag=CHANGE,
        change_message="Shared with Zoë Ångström.",
    )

    candidate_erase(candidate=zoe, user=officer)

    row.refresh_from_db()
    assert (row.object_repr, row.change_message) == ("(erased)'s picks", "Shared with (erased).")
