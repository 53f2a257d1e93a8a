"""Issue 16: every change of a shortlist entry (a job's pipeline) is recorded with its author and time."""

import importlib

import pytest
from django.apps import apps
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from core.errors import ApplicationError
from profiles import services
from profiles.models import Shortlist, ShortlistEntry, ShortlistEntryEvent
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db

stages_migration = importlib.import_module("profiles.migrations.0016_pipeline_stages_and_entry_events")


def _events(entry):
    return list(entry.events.values_list("kind", "author__username", "from_status", "to_status", "note"))


def test_adding_a_candidate_records_who_added_them_and_when():
    owner = UserFactory(username="ines")
    shortlist = Shortlist.objects.create(owner=owner, name="Backend")
    candidate = CandidateFactory()
    before = timezone.now()

    services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[candidate.pk, candidate.pk], user=owner)
    services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[candidate.pk], user=owner)

    entry = shortlist.entries.get()
    assert entry.status == ShortlistEntry.Status.SOURCED
    assert _events(entry) == [("added", "ines", "", "sourced", "")]
    assert before <= entry.events.get().at <= timezone.now()


def test_moving_and_noting_record_each_change_with_its_author():
    owner = UserFactory(username="ines")
    entry = ShortlistEntry.objects.create(
        shortlist=Shortlist.objects.create(owner=owner, name="B"), candidate=CandidateFactory()
    )

    services.shortlist_entry_move(entry=entry, status="contacted", user=owner)
    services.shortlist_entry_move(entry=entry, status="contacted", user=owner)  # already there: nothing new
    services.shortlist_entry_note(entry=entry, text="  Replied on LinkedIn. ", user=owner)
    services.shortlist_entry_note(entry=entry, text="Call on Friday.", user=owner)

    entry.refresh_from_db()
    assert entry.notes == "Replied on LinkedIn.\n\nCall on Friday."
    assert _events(entry) == [
        ("stage", "ines", "sourced", "contacted", ""),
        ("note", "ines", "", "", "Replied on LinkedIn."),
        ("note", "ines", "", "", "Call on Friday."),
    ]


def test_an_edit_of_the_notes_and_status_through_the_save_service_is_recorded_too():
    owner = UserFactory(username="ines")
    entry = ShortlistEntry.objects.create(
        shortlist=Shortlist.objects.create(owner=owner, name="B"), candidate=CandidateFactory()
    )

    entry.status, entry.notes = "offer", "Offer sent."
    services.shortlist_entry_save(entry=entry, user=owner)

    assert _events(entry) == [("stage", "ines", "sourced", "offer", ""), ("note", "ines", "", "", "Offer sent.")]


def test_a_colleague_neither_moves_nor_notes_an_entry_of_a_shared_list():
    owner, colleague = UserFactory(), UserFactory()
    shortlist = Shortlist.objects.create(owner=owner, name="B", shared=True)
    entry = ShortlistEntry.objects.create(shortlist=shortlist, candidate=CandidateFactory())

    with pytest.raises(PermissionDenied):
        services.shortlist_entry_move(entry=entry, status="hired", user=colleague)
    with pytest.raises(PermissionDenied):
        services.shortlist_entry_note(entry=ShortlistEntry.objects.get(pk=entry.pk), text="x", user=colleague)

    assert ShortlistEntry.objects.get(pk=entry.pk).status == "sourced"
    assert not ShortlistEntryEvent.objects.exists()


@pytest.mark.parametrize("status", ["new", "", "SOURCED"])
def test_a_stage_that_is_none_of_the_seven_is_refused(status):
    owner = UserFactory()
    entry = ShortlistEntry.objects.create(
        shortlist=Shortlist.objects.create(owner=owner, name="B"), candidate=CandidateFactory()
    )

    with pytest.raises(ApplicationError, match="no stage"):
        services.shortlist_entry_move(entry=entry, status=status, user=owner)


def test_an_empty_note_is_refused():
    owner = UserFactory()
    entry = ShortlistEntry.objects.create(
        shortlist=Shortlist.objects.create(owner=owner, name="B"), candidate=CandidateFactory()
    )

    with pytest.raises(ApplicationError, match="needs some text"):
        services.shortlist_entry_note(entry=entry, text="  ", user=owner)


def test_the_migration_moves_new_entries_to_sourced_and_keeps_the_others():
    shortlist = Shortlist.objects.create(owner=UserFactory(), name="Old")
    old = ShortlistEntry.objects.create(shortlist=shortlist, candidate=CandidateFactory(), status="new")
    hired = ShortlistEntry.objects.create(shortlist=shortlist, candidate=CandidateFactory(), status="hired")

    stages_migration.new_to_sourced(apps, None)

    assert ShortlistEntry.objects.get(pk=old.pk).status == "sourced"
    assert ShortlistEntry.objects.get(pk=hired.pk).status == "hired"
    stages_migration.sourced_to_new(apps, None)
    assert ShortlistEntry.objects.get(pk=old.pk).status == "new"
