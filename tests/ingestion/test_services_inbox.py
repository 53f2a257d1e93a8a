"""The watched inbox (``services.inbox_scan``, run by beat's ``scan_inbox``): only regular files inside the inbox are
read, an entry it cannot take is set aside with a log line, and a scan with nothing to read leaves no batch behind."""

import logging
import os
import stat

import pytest

from ingestion import services, tasks
from ingestion.models import ImportBatch, SourceFile
from tests.fixtures import PROGAI_DIR

pytestmark = pytest.mark.django_db

PROFILE = (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()
SECRET = b"SECRET_KEY=not-for-the-inbox\nDATABASE_URL=postgres://u:p@db/x\n"


@pytest.fixture
def inbox(tmp_path, settings):
    folder = tmp_path / "inbox"
    folder.mkdir()
    settings.INGEST_INBOX = folder
    return folder


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "environ"
    path.write_bytes(SECRET)
    return path


def _stored_names() -> list[str]:
    return sorted(SourceFile.objects.values_list("original_name", flat=True))


def _rejected(inbox) -> list[str]:
    [day] = (inbox / ".rejected").iterdir()
    return sorted(os.fsencode(p.name).decode("utf-8", "backslashreplace") for p in day.iterdir())


def test_symlinks_fifos_and_devices_in_the_inbox_are_skipped_with_a_log_line(inbox, secret, caplog):
    """Issue 15, hole 2: the inbox followed a symlink to /proc/self/environ and stored what it pointed to."""
    (inbox / "good.txt").write_bytes(PROFILE)
    (inbox / "environ.txt").symlink_to(secret)
    (inbox / "passwd.txt").symlink_to("/etc/passwd")
    (inbox / "proc.txt").symlink_to("/proc/self/environ")
    (inbox / "inside.txt").symlink_to(inbox / "good.txt")  # inside the inbox, but a link all the same
    (inbox / "folder").symlink_to(secret.parent, target_is_directory=True)
    os.mkfifo(inbox / "pipe.txt")  # opening it to read would block the scan for good
    os.mknod(inbox / "null.txt", 0o600 | stat.S_IFCHR, os.makedev(1, 3))

    with caplog.at_level(logging.WARNING, logger="ingestion.services"):
        batch = tasks.scan_inbox()

    assert ImportBatch.objects.get().pk == batch
    assert _stored_names() == ["good.txt"]
    assert not SourceFile.objects.filter(content=SECRET).exists()
    skipped = "\n".join(r.getMessage() for r in caplog.records)
    for name in ["environ.txt", "passwd.txt", "proc.txt", "inside.txt", "folder", "pipe.txt", "null.txt"]:
        assert name in skipped
    assert "symbolic link" in skipped
    assert "not a regular file" in skipped
    # Set aside, not left to be skipped (and logged) again every scan; the links themselves are moved, not followed.
    assert [p.name for p in inbox.iterdir() if not p.name.startswith(".")] == []
    rejected = ["environ.txt", "folder", "inside.txt", "null.txt", "passwd.txt", "pipe.txt", "proc.txt"]
    assert _rejected(inbox) == rejected
    assert secret.read_bytes() == SECRET


def test_the_read_itself_refuses_a_link_or_a_fifo_whatever_the_listing_said(inbox, secret):
    """Issue 15, hole 2: between the look at an entry and its read, a file can be swapped for a link; so the read opens
    it without following links, and checks what it opened through the descriptor."""
    (inbox / "swap.txt").symlink_to(secret)
    os.mkfifo(inbox / "pipe.txt")

    with pytest.raises(services.NotARegularFile, match="symbolic link"):
        services.regular_file_read(inbox / "swap.txt")
    with pytest.raises(services.NotARegularFile, match="not a regular file"):
        services.regular_file_read(inbox / "pipe.txt")  # at once: the FIFO is not left waiting for a writer


def test_a_file_with_an_undecodable_name_is_skipped_and_the_others_import(inbox, caplog):
    """Issue 15, hole 7: one name that is not UTF-8 made every scan fail, so no file beside it was ever imported."""
    (inbox / "good.txt").write_bytes(PROFILE)
    fd = os.open(os.fsencode(inbox) + b"/bad\xffname.txt", os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, PROFILE + b"\n")
    os.close(fd)

    with caplog.at_level(logging.WARNING, logger="ingestion.services"):
        batch = services.inbox_scan()

    assert _stored_names() == ["good.txt"]
    assert (batch.total_files, batch.finished_at) == (1, None)  # queued for the workers
    assert "bad\\xffname.txt" in caplog.text
    assert "not valid UTF-8" in caplog.text
    assert _rejected(inbox) == ["bad\\xffname.txt"]
    assert [p.name for p in inbox.iterdir() if not p.name.startswith(".")] == []


def test_a_scan_that_finds_nothing_to_read_creates_no_batch(inbox):
    """Issue 15, hole 7: a scan whose only file was skipped left an empty, unfinished batch, every 30 s."""
    fd = os.open(os.fsencode(inbox) + b"/bad\xffname.txt", os.O_WRONLY | os.O_CREAT, 0o600)
    os.close(fd)
    os.mkfifo(inbox / "pipe.txt")

    assert tasks.scan_inbox() is None
    assert tasks.scan_inbox() is None  # the next beat: the skipped entries were set aside
    assert not ImportBatch.objects.exists()
    assert services.inbox_scan(inbox=inbox / "missing") is None
    assert not ImportBatch.objects.exists()
