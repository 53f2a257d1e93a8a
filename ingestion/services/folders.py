"""Files from folders: regular files read safely (no link, FIFO or device followed), a folder walked, and the inbox
scanned into a batch."""

from __future__ import annotations

import errno
import itertools
import logging
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from ingestion.models import ImportBatch
from ingestion.services.receiving import IncomingFile, batch_create, batch_receive

logger = logging.getLogger(__name__)


class NotARegularFile(Exception):
    """A folder entry that is not read: a link, a FIFO, a socket or a device (the message says which)."""


# Read-only, never following a link in the last component, never waiting for a FIFO's writer, never taking a terminal.
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def regular_file_read(path: str | Path, *, dir_fd: int | None = None) -> bytes:
    """The bytes of a regular file; ``NotARegularFile`` for anything else.

    The test is made on the opened descriptor (``O_NOFOLLOW``, then ``fstat``), so that a file swapped for a link or
    a FIFO between a listing and this read is still refused: no window between the check and the use.
    """
    try:
        fd = os.open(path, _READ_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # what O_NOFOLLOW answers for a link
            raise NotARegularFile("it is a symbolic link") from exc
        raise
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(file.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(_not_regular(mode))
        return file.read()


def _not_regular(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "it is a symbolic link"
    if stat.S_ISDIR(mode):
        return "it is a folder"
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    return f"it is not a regular file ({kind})"


def _name_problem(name: str) -> str | None:
    try:
        os.fsencode(name).decode("utf-8")
    except UnicodeDecodeError:
        return "its name is not valid UTF-8"
    return None


def _entry_problem(name: str, dir_fd: int) -> str | None:
    """Why this entry of a folder is not taken, from its own inode (a link is never followed), or None."""
    try:
        mode = os.lstat(name, dir_fd=dir_fd).st_mode
    except OSError as exc:  # gone since it was listed, or not ours to look at
        return str(exc)
    return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else _not_regular(mode)


def printable_path(path: str | Path) -> str:
    """A path as a log line shows it: bytes that are not UTF-8 escaped (``bad\\xffname.txt``), never an error."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _skip(path: Path, reason: str, skipped: list[Path] | None) -> None:
    logger.warning("Skipped %s: %s.", printable_path(path), reason)
    if skipped is not None:
        skipped.append(path)


def iter_folder(
    paths: Iterable[Path], *, recursive: bool = True, skipped: list[Path] | None = None
) -> Iterator[IncomingFile]:
    """Files under the given files or folders (sorted, hidden entries skipped), read one at a time.

    Only regular files whose real path lies inside the folder given are read: links (to files or folders) are not
    followed, and FIFOs, sockets and devices are not opened. These, names that are not UTF-8 and files that cannot be
    read are skipped with a log line (and added to ``skipped``), so one of them never stops the others. A folder is
    walked through directory descriptors (``os.fwalk``), so a folder swapped for a link mid-walk is not followed
    either. A path given that is itself a link is skipped too (a shell's ``inbox/*`` hands planted links over as
    paths); the folders above it are taken as they resolve.
    """
    for given in paths:
        if Path(given).is_symlink():
            _skip(Path(given), "a link, not a regular file or a folder", skipped)
            continue
        top = Path(given).resolve()
        if not top.is_dir():
            data = _read_or_skip(top, None, skipped)
            if data is not None:
                yield IncomingFile(top.name, data, path=top)
            continue
        for root, dirs, names, root_fd in os.fwalk(top, follow_symlinks=False):
            kept = []
            for name in sorted(d for d in dirs if not d.startswith(".")):
                problem = _name_problem(name) or _entry_problem(name, root_fd)  # a link to a folder is listed here
                if problem is not None:
                    _skip(Path(root) / name, problem, skipped)
                elif recursive:
                    kept.append(name)
            dirs[:] = kept  # fwalk walks these next, each opened through the descriptor of its parent
            for name in sorted(n for n in names if not n.startswith(".")):
                path = Path(root) / name
                problem = _name_problem(name) or _entry_problem(name, root_fd)
                if problem is not None:
                    _skip(path, problem, skipped)
                    continue
                data = _read_or_skip(path, root_fd, skipped)
                if data is not None:
                    yield IncomingFile(name, data, path=path)


def _read_or_skip(path: Path, dir_fd: int | None, skipped: list[Path] | None) -> bytes | None:
    try:
        return regular_file_read(path.name if dir_fd is not None else path, dir_fd=dir_fd)
    except (NotARegularFile, OSError) as exc:  # OSError: gone since it was listed, or not ours to read
        _skip(path, str(exc), skipped)
        return None


def inbox_scan(*, inbox: Path | None = None) -> ImportBatch | None:
    """Turn new files in the watched inbox into a batch; move each stored file to ``.imported/`` afterwards.

    Only the inbox's own regular files are read (see ``iter_folder``); an entry skipped is moved to ``.rejected/`` so
    that it is reported once, not at every scan, and kept for a look. No file to read, no batch.
    """
    inbox = Path(inbox or settings.INGEST_INBOX).resolve()
    if not inbox.is_dir():
        return None
    today = timezone.now().strftime("%Y-%m-%d")
    skipped: list[Path] = []
    received: list[Path] = []
    files = _noting_paths(iter_folder([inbox], recursive=False, skipped=skipped), received)
    first = next(files, None)
    batch = None
    if first is not None:
        batch = batch_create(origin=ImportBatch.Origin.INBOX)
        batch_receive(batch=batch, files=itertools.chain([first], files))
        # Stored and committed: safe to move; a crash before this only re-reads duplicates.
        _move_into(received, inbox / ".imported" / today)
    _move_into(skipped, inbox / ".rejected" / today)
    return batch


def _noting_paths(files: Iterator[IncomingFile], paths: list[Path]) -> Iterator[IncomingFile]:
    for incoming in files:
        paths.append(incoming.path)
        yield incoming


def _move_into(paths: list[Path], folder: Path) -> None:
    if not paths:
        return
    folder.mkdir(parents=True, exist_ok=True)
    for path in paths:
        try:
            os.rename(path, folder / path.name)  # the entry itself: a link is moved, never followed
        except OSError as exc:  # gone meanwhile, or not ours to move: the next scan meets it again
            logger.warning("Could not move %s to %s: %s", printable_path(path), folder, exc)
