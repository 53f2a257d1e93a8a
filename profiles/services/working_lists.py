"""Writes of shortlists (a pipeline's entries and their events) and saved searches.

Only a list's owner (or a superuser) changes it, shared or not (``profiles.selectors.working_list_permits``). Each
write of a list or of its entries checks the user it is made for against the stored list, and refuses with
PermissionDenied, which the admin and the API answer with a 403. ``user=None`` is the system's own write (a merge, a
script), checked by nobody."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from core.errors import ApplicationError
from profiles.models import Shortlist, ShortlistEntry, ShortlistEntryEvent
from profiles.selectors import WorkingList, working_list_permits


def _require_writable(*, working_list: WorkingList, user) -> None:
    if user is not None and not working_list_permits(user=user, working_list=working_list, for_writing=True):
        raise PermissionDenied(f"Only its owner changes “{working_list}”.")


@transaction.atomic
def working_list_save(*, working_list: WorkingList, user) -> WorkingList:
    """Create or change a shortlist or saved search; a new one belongs to ``user`` unless an owner is set."""
    if working_list.pk is None:
        if working_list.owner_id is None:
            working_list.owner = user
    else:
        stored = type(working_list).objects.select_for_update().get(pk=working_list.pk)
        _require_writable(working_list=stored, user=user)
    if working_list.owner_id != getattr(user, "pk", None):
        _require_writable(working_list=working_list, user=user)  # giving a list to someone else: superusers only
    working_list.save()
    return working_list


@transaction.atomic
def working_lists_delete(*, working_lists: Iterable[WorkingList], user) -> int:
    """Delete shortlists or saved searches, all of them or none; returns how many."""
    working_lists = list(working_lists)
    for working_list in working_lists:
        _require_writable(working_list=working_list, user=user)
    for working_list in working_lists:
        working_list.delete()
    return len(working_lists)


# Every change of an entry is an event (``ShortlistEntryEvent``): who added it, moved it to a stage or wrote a note,
# and when. These services are the one path that changes entries, so they write the events with the change; a merge
# (``user=None``, the system) moves entries with their events and records nothing new.


def _events_of_change(
    *, entry: ShortlistEntry, stored: ShortlistEntry | None, user, note: str | None
) -> list[ShortlistEntryEvent]:
    author = user if getattr(user, "pk", None) else None
    at = timezone.now()

    def event(kind: str, **fields) -> ShortlistEntryEvent:
        return ShortlistEntryEvent(entry=entry, author=author, at=at, kind=kind, **fields)

    events = []
    if stored is None:
        events.append(event(ShortlistEntryEvent.Kind.ADDED, to_status=entry.status))
    elif stored.status != entry.status:
        events.append(event(ShortlistEntryEvent.Kind.STAGE, from_status=stored.status, to_status=entry.status))
    if note is not None:
        events.append(event(ShortlistEntryEvent.Kind.NOTE, note=note))
    elif entry.notes != (stored.notes if stored is not None else ""):
        events.append(event(ShortlistEntryEvent.Kind.NOTE, note=entry.notes))  # the notes as edited, whole
    return events


@transaction.atomic
def shortlist_entry_save(*, entry: ShortlistEntry, user, note: str | None = None) -> ShortlistEntry:
    """Add or change an entry (status, notes): both the list it was on and the list it goes to must be the user's.

    Records what changed as events by ``user``: added, a stage change, a note (``note``: the text added, when the
    caller appended one to ``entry.notes``; else an edit of the notes is recorded as the new notes)."""
    stored = None
    if entry.pk is not None:
        stored = ShortlistEntry.objects.select_related("shortlist").select_for_update(of=("self",)).get(pk=entry.pk)
        _require_writable(working_list=stored.shortlist, user=user)
    _require_writable(working_list=Shortlist.objects.get(pk=entry.shortlist_id), user=user)
    entry.save()
    ShortlistEntryEvent.objects.bulk_create(_events_of_change(entry=entry, stored=stored, user=user, note=note))
    return entry


def shortlist_entry_move(*, entry: ShortlistEntry, status: str, user) -> ShortlistEntry:
    """Move an entry to a stage (``ShortlistEntry.Status``); recorded as a stage event unless it is there already."""
    if status not in ShortlistEntry.Status.values:
        raise ApplicationError(f"“{status}” is no stage; the stages are {', '.join(ShortlistEntry.Status.values)}.")
    entry.status = status
    return shortlist_entry_save(entry=entry, user=user)


def shortlist_entry_note(*, entry: ShortlistEntry, text: str, user) -> ShortlistEntry:
    """Add a note to an entry: appended to its notes, and recorded with its author and time."""
    text = text.strip()
    if not text:
        raise ApplicationError("A note needs some text.")
    entry.notes = f"{entry.notes.rstrip()}\n\n{text}" if entry.notes.strip() else text
    return shortlist_entry_save(entry=entry, user=user, note=text)


@transaction.atomic
def shortlist_entries_delete(*, entries: Iterable[ShortlistEntry], user) -> int:
    """Take entries off their shortlists, all of them or none; returns how many."""
    entries = list(entries)
    for entry in entries:
        _require_writable(working_list=entry.shortlist, user=user)
    for entry in entries:
        entry.delete()
    return len(entries)


@transaction.atomic
def shortlist_add_candidates(*, shortlist: Shortlist, candidate_ids: Iterable[int], user=None) -> int:
    """Add candidates to a shortlist at the first stage ("sourced"), each recorded as added by ``user``; those already
    on it keep their stage. Returns how many were added."""
    _require_writable(working_list=shortlist, user=user)
    wanted = set(candidate_ids)
    already = set(shortlist.entries.filter(candidate_id__in=wanted).values_list("candidate_id", flat=True))
    entries = [ShortlistEntry(shortlist=shortlist, candidate_id=cid) for cid in sorted(wanted - already)]
    # A concurrent add of the same candidate wins the unique constraint; its own call records its event.
    ShortlistEntry.objects.bulk_create(entries, ignore_conflicts=True)
    added = list(shortlist.entries.filter(candidate_id__in=wanted - already, events__isnull=True))
    ShortlistEntryEvent.objects.bulk_create(
        event for entry in added for event in _events_of_change(entry=entry, stored=None, user=user, note=None)
    )
    return len(added)


def shortlist_get_or_create(*, owner, name: str) -> tuple[Shortlist, bool]:
    return Shortlist.objects.get_or_create(owner=owner, name=name.strip()[:200])
