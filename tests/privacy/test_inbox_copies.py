"""The watched inbox keeps a copy of each file it took in (``.imported/<day>/``, ``.rejected/<day>/``): an erasure
deletes every copy of the person's files' bytes, and a refused file's copies go too; other people's copies stay. The
worker where the inbox is deletes them once the erasure committed (``ingestion.tasks.delete_inbox_copies``): here it
runs when asked, unless a test holds it back."""

import hashlib
import os

import pytest

from ingestion import privacy, services, tasks
from ingestion.models import InboxCopyToDelete, SourceFile
from privacy.services import candidate_erase
from tests.ingestion.imports import import_file
from tests.privacy.people import OTHER_FILE, TOVE_FILE, tove_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def requests_to_the_inbox_worker(monkeypatch) -> list[str]:
    """The erasures' requests to the inbox's worker, which deletes the copies at once (as its worker would)."""
    sent = []

    def delay():
        sent.append("delete_inbox_copies")
        return tasks.delete_inbox_copies()

    monkeypatch.setattr(tasks.delete_inbox_copies, "delay", delay)
    return sent


@pytest.fixture
def inbox(tmp_path, settings, requests_to_the_inbox_worker):
    folder = tmp_path / "inbox"
    folder.mkdir()
    settings.INGEST_INBOX = folder
    return folder


def _scan_and_import(inbox, *files) -> None:
    for path in files:
        (inbox / path.name).write_bytes(path.read_bytes())
    batch = services.inbox_scan()
    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="test")


def _copies(inbox) -> list[str]:
    return sorted(path.name for path in (inbox / ".imported").rglob("*") if path.is_file())


def test_an_erasure_deletes_the_inbox_copy_of_her_file_and_keeps_the_others(
    inbox, officer, django_capture_on_commit_callbacks
):
    _scan_and_import(inbox, TOVE_FILE, OTHER_FILE)
    assert _copies(inbox) == sorted([TOVE_FILE.name, OTHER_FILE.name])
    tove = SourceFile.objects.get(original_name=TOVE_FILE.name).candidate

    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=tove, user=officer)

    assert _copies(inbox) == [OTHER_FILE.name]


def test_a_copy_of_the_same_name_with_other_bytes_stays(inbox, officer, django_capture_on_commit_callbacks):
    _scan_and_import(inbox, TOVE_FILE)
    [copy] = (inbox / ".imported").rglob(TOVE_FILE.name)
    copy.write_bytes(b"someone else's file since")
    tove = SourceFile.objects.get(original_name=TOVE_FILE.name).candidate

    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=tove, user=officer)

    assert copy.read_bytes() == b"someone else's file since"


def test_a_refused_files_inbox_copy_is_deleted(inbox, officer, django_capture_on_commit_callbacks):
    _scan_and_import(inbox, TOVE_FILE)
    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=SourceFile.objects.get().candidate, user=officer)
    (inbox / "tove-again.json").write_bytes(tove_bytes() + b"\n")

    with django_capture_on_commit_callbacks(execute=True):
        batch = services.inbox_scan()
        services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="test")

    assert batch.files.get().status == SourceFile.Status.FAILED
    assert _copies(inbox) == []


def test_an_erasure_deletes_the_inbox_copy_of_a_duplicate_of_her_file(
    inbox, officer, django_capture_on_commit_callbacks
):
    """Her file uploaded first, then the same bytes dropped into the inbox under another name: the inbox counts a
    duplicate and stores no row, yet keeps the file in ``.imported/``; it is hers, and goes with her."""
    tove = import_file(TOVE_FILE)
    (inbox / "cv-from-a-referral.json").write_bytes(tove_bytes())
    batch = services.inbox_scan()
    assert (batch.total_files, batch.duplicates, batch.files.count()) == (1, 1, 0)
    _scan_and_import(inbox, OTHER_FILE)
    assert _copies(inbox) == sorted(["cv-from-a-referral.json", OTHER_FILE.name])

    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=tove, user=officer)

    assert _copies(inbox) == [OTHER_FILE.name]


def test_an_erasure_deletes_a_copy_of_her_file_the_inbox_set_aside(inbox, officer, django_capture_on_commit_callbacks):
    """A name the inbox cannot store (not UTF-8) sends the file to ``.rejected/`` unread; its bytes are hers."""
    tove = import_file(TOVE_FILE)
    (inbox / os.fsdecode(b"tove-\xff.json")).write_bytes(tove_bytes())
    (inbox / os.fsdecode(b"other-\xff.json")).write_bytes(OTHER_FILE.read_bytes())
    services.inbox_scan()
    rejected = sorted(path.name for path in (inbox / ".rejected").rglob("*") if path.is_file())
    assert len(rejected) == 2

    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=tove, user=officer)

    assert [path.read_bytes() for path in (inbox / ".rejected").rglob("*") if path.is_file()] == [
        OTHER_FILE.read_bytes()
    ]


def test_erasures_made_before_the_worker_runs_are_one_request_and_one_listing_of_the_folders(
    inbox, officer, django_capture_on_commit_callbacks, requests_to_the_inbox_worker, monkeypatch
):
    _scan_and_import(inbox, TOVE_FILE, OTHER_FILE)
    people = [source.candidate for source in SourceFile.objects.order_by("pk")]
    monkeypatch.setattr(tasks.delete_inbox_copies, "delay", lambda: requests_to_the_inbox_worker.append("queued"))
    listed = []
    list_folder = privacy._regular_files_under
    monkeypatch.setattr(
        privacy, "_regular_files_under", lambda folder: listed.append(folder.name) or list_folder(folder)
    )

    for person in people:
        with django_capture_on_commit_callbacks(execute=True):
            candidate_erase(candidate=person, user=officer)
    assert requests_to_the_inbox_worker == ["queued"]  # the second erasure found the first one's request waiting
    assert _copies(inbox) == sorted([TOVE_FILE.name, OTHER_FILE.name])
    privacy.inbox_copies_delete()

    assert _copies(inbox) == []
    assert [name for name in listed if name.startswith(".")] == [".imported", ".rejected"]  # once, for both people
    assert not InboxCopyToDelete.objects.exists()


def test_a_request_lost_with_its_worker_is_made_up_by_the_next_inbox_scan(
    inbox, officer, django_capture_on_commit_callbacks, requests_to_the_inbox_worker, monkeypatch
):
    _scan_and_import(inbox, TOVE_FILE)
    monkeypatch.setattr(tasks.delete_inbox_copies, "delay", lambda: None)  # the message is lost
    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=SourceFile.objects.get().candidate, user=officer)
    assert _copies(inbox) == [TOVE_FILE.name]

    tasks.scan_inbox()

    assert _copies(inbox) == []
    assert not InboxCopyToDelete.objects.exists()


def test_a_worker_without_the_inbox_deletes_nothing_and_keeps_every_copy_to_delete(
    inbox, officer, django_capture_on_commit_callbacks, settings, caplog
):
    """The task ran on a worker where the inbox is not mounted: the copies are out of its reach, not gone, and the
    worker where the inbox is deletes them at its next scan."""
    _scan_and_import(inbox, TOVE_FILE)
    settings.INGEST_INBOX = inbox.parent / "not-mounted"
    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=SourceFile.objects.get().candidate, user=officer)

    assert InboxCopyToDelete.objects.count() == 1
    assert "not-mounted" in caplog.text

    settings.INGEST_INBOX = inbox
    assert privacy.inbox_copies_delete() == 1
    assert _copies(inbox) == []
    assert not InboxCopyToDelete.objects.exists()


def test_a_copy_that_could_not_be_deleted_stays_to_delete_and_the_others_do_not(
    inbox, officer, django_capture_on_commit_callbacks, requests_to_the_inbox_worker, monkeypatch
):
    _scan_and_import(inbox, TOVE_FILE, OTHER_FILE)
    people = {source.original_name: source.candidate for source in SourceFile.objects.all()}
    monkeypatch.setattr(tasks.delete_inbox_copies, "delay", lambda: None)
    for person in people.values():
        with django_capture_on_commit_callbacks(execute=True):
            candidate_erase(candidate=person, user=officer)
    [tove_copy] = (inbox / ".imported").rglob(TOVE_FILE.name)
    unlink = type(tove_copy).unlink

    def unlink_but_hers(path, *args, **kwargs):
        if path.name == TOVE_FILE.name:
            raise PermissionError(13, "Permission denied", str(path))
        return unlink(path, *args, **kwargs)

    monkeypatch.setattr(type(tove_copy), "unlink", unlink_but_hers)
    assert privacy.inbox_copies_delete() == 1
    assert _copies(inbox) == [TOVE_FILE.name]
    assert list(InboxCopyToDelete.objects.values_list("sha256", flat=True)) == [
        hashlib.sha256(tove_bytes()).hexdigest()
    ]

    monkeypatch.setattr(type(tove_copy), "unlink", unlink)
    assert privacy.inbox_copies_delete() == 1
    assert _copies(inbox) == []
    assert not InboxCopyToDelete.objects.exists()
