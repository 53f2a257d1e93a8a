"""The import's part in privacy (issue 18): sourcing records for the candidates it writes, refusing files of erased
people, and erasing the stored files of a person (a step of ``privacy.services.candidate_erase``).

A file refused or erased keeps its row (the batch still counts it, and its message says why) but none of the
person's data: no bytes, no name, no warnings; every copy of its bytes the watched inbox kept (in ``.imported/`` or
``.rejected/``, under any name: a duplicate stores no row but is moved there too) is deleted as well. A
refused file keeps its sha256, so the same bytes sent again are "already stored" and refused by that row; an erased
file's sha256 is replaced, so the same bytes sent again are parsed, and refused by the suppression records.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.utils import timezone

from ingestion.documents import ParseError, ProfileDocument
from ingestion.models import ImportBatch, SharedRowCreated, SourceFile
from ingestion.normalise import identity_keys
from ingestion.parsers import parse
from privacy.erasure import ErasureContext
from privacy.models import Suppression
from privacy.selectors import documents_naming_person, suppressed_documents
from privacy.services import erasure_message

logger = logging.getLogger(__name__)

__all__ = [
    "ACCESS_WITHHELD_LABEL",
    "documents_refused",
    "identity_keys_refused",
    "import_batches_labelled_for",
    "source_files_erase",
    "source_files_withhold",
    "unlinked_source_files_naming",
]

WITHHELD_NAME = "(withheld: an erased person)"
WITHHELD_LABEL = "(label withheld after an erasure)"
# What an access report shows of a batch's label: typed by hand, or made of the files' names before the default said
# only the batch's size and time, it may name the people of the batch's other files.
ACCESS_WITHHELD_LABEL = "(withheld: a batch's label may name other people)"
ERASE_SCAN_CHUNK = 200


def documents_refused(documents: Sequence[ProfileDocument]) -> list[str | None]:
    """For each parsed document, the message refusing it when it names an erased person, else None; one query for
    all of them (``privacy.selectors.suppressed_documents``)."""
    return identity_keys_refused([identity_keys(document) for document in documents])


def identity_keys_refused(keys_by_doc: Sequence[Sequence[tuple[str, str]]]) -> list[str | None]:
    """``documents_refused`` for documents already normalised (``NormalisedProfile.identity_keys``)."""
    refused = suppressed_documents(keys_by_doc=keys_by_doc)
    return [None if found is None else erasure_message(found.erased_at, reason=found.reason) for found in refused]


def source_files_withhold(
    *, file_ids: Sequence[int], error: str | None = None, new_sha: bool = False, take_back_later: bool = False
) -> int:
    """Empty these files of the person's data: bytes, name, warnings, link to a candidate, and the record of shared
    rows created for them. With ``error`` they are also marked failed with that message (an erased file); with
    ``new_sha`` their sha256 no longer matches the bytes they had, so the same bytes sent again are parsed anew.

    With ``take_back_later`` the record of shared rows stays: the import refused these files after creating rows for
    them (a repository named after the person's account), and takes those back once its transaction commits
    (``shared_rows_take_back``), which deletes the record too."""
    if not file_ids:
        return 0
    ids = list(file_ids)
    copies = _inbox_copies(ids)
    if copies:
        transaction.on_commit(lambda: _inbox_copies_delete(copies), robust=True)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ingestion_sourcefile SET content = ''::bytea, size = 0, original_name = %s, "
            "warnings = '[]'::jsonb, candidate_id = NULL, "
            "status = CASE WHEN %s::text IS NULL THEN status ELSE 'failed' END, "
            "outcome = CASE WHEN %s::text IS NULL THEN outcome ELSE '' END, "
            "error = coalesce(%s::text, error), "
            "sha256 = CASE WHEN %s THEN 'erased-' || id ELSE sha256 END "
            "WHERE id = ANY(%s::bigint[])",
            [WITHHELD_NAME, error, error, error, new_sha, ids],
        )
        withheld = cursor.rowcount
    if not take_back_later:
        SharedRowCreated.objects.filter(source_file_id__in=ids).delete()
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(SourceFile), object_id__in=[str(pk) for pk in ids]
    ).delete()
    return withheld


# The folders where the watched inbox keeps what it took in (``ingestion.services.inbox_scan``): what it stored, and
# what it duplicates (bytes already stored, under any name) went to ``.imported/<day>/``; what it could not read as a
# regular file with a UTF-8 name went to ``.rejected/<day>/``.
INBOX_KEPT_FOLDERS = (".imported", ".rejected")


def _inbox_copies(file_ids: list[int]) -> dict[int, set[str]]:
    """The sha256 of these files' bytes, by their size: a copy the inbox kept of them has both, whatever its name,
    its day or the batch that brought it."""
    wanted: dict[int, set[str]] = {}
    rows = (
        SourceFile.objects.filter(pk__in=file_ids, size__gt=0)
        .exclude(sha256__startswith="erased-")
        .values_list("size", "sha256")
    )
    for size, sha256 in rows:
        wanted.setdefault(size, set()).add(sha256)
    return wanted


def _inbox_copies_delete(wanted: dict[int, set[str]]) -> int:
    """Delete the regular files in the inbox's kept folders whose bytes are one of ``wanted`` (sha256 by size); a file
    of another size is never read, and a link is never followed. Returns how many went."""
    deleted = 0
    inbox = Path(settings.INGEST_INBOX)
    for folder in INBOX_KEPT_FOLDERS:
        for path, size in _regular_files_under(inbox / folder):
            if size not in wanted:
                continue
            try:
                if _sha256_of(path) in wanted[size]:
                    path.unlink()
                    deleted += 1
            except FileNotFoundError:
                continue
            except OSError as exc:  # not ours to delete: the README names the inbox's folders as the operator's part
                logger.warning("Could not delete the inbox's copy of an erased person's file: %s", exc)
    return deleted


def _regular_files_under(folder: Path) -> Iterator[tuple[Path, int]]:
    """(path, size) of every regular file under ``folder``, links neither followed nor listed."""
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return
    except OSError as exc:
        logger.warning("Could not list the inbox's folder %s: %s", folder, exc)
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                yield from _regular_files_under(Path(entry.path))
            elif entry.is_file(follow_symlinks=False):
                yield Path(entry.path), entry.stat(follow_symlinks=False).st_size
        except OSError:
            continue  # gone meanwhile


def _sha256_of(path: Path) -> str | None:
    """The sha256 of a regular file's bytes, read from the descriptor it was opened as (never through a link, never
    waiting on a FIFO swapped in since the listing); None for anything else."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            return None
        return hashlib.file_digest(file, "sha256").hexdigest()


def source_files_erase(context: ErasureContext) -> int:
    """Erasure step: the files that built the person (linked to them or to a candidate merged into them), and the
    stored files linked to no candidate (failed, or whose candidate was deleted) whose document names them. The
    latter are found best effort: files whose bytes hold the person's name or an identifier (``context.needles``)
    are parsed again and kept when their identity keys match the person's. A file no parser reads is left as it is,
    and so is one naming the person only in a way the identity keys do not (a name in a summary, an e-mail written
    with escapes)."""
    linked = set(SourceFile.objects.filter(candidate_id__in=context.candidate_ids).values_list("pk", flat=True))
    unlinked = _unlinked_files_naming_them(context)
    day = timezone.localdate(context.erased_at)
    why = "under the retention policy" if context.reason == Suppression.Reason.RETENTION else "at the person's request"
    file_ids = sorted(linked | unlinked)
    withheld = source_files_withhold(
        file_ids=file_ids,
        error=f"Erased on {day:%Y-%m-%d} {why}; the file's content was deleted.",
        new_sha=True,
        take_back_later=True,
    )
    context.counts["batch_labels"] = _batches_labelled(file_ids).update(label=WITHHELD_LABEL)
    # A file whose import was under way (or failed, not swept yet) has shared rows on record that were created for it
    # before its load: a repository or a skill only it names, hers. The file is failed now; they are taken back as a
    # failed file's are, once the erasure commits (the take-back runs transactions of its own).
    if SharedRowCreated.objects.filter(source_file_id__in=file_ids).exists():
        transaction.on_commit(lambda: _shared_rows_take_back(file_ids), robust=True)
    return withheld


def _batches_labelled(file_ids: Sequence[int]):
    """The batches that held one of the person's files, whose label the erasure replaces: one typed by hand may name
    them, and so may the uploaded files' names or the paths that made the default labels of older batches (migration
    ``ingestion 0005`` replaced those it could tell from typed ones). An inbox batch's label is always the product's
    ("Inbox scan of 3 files, ...", or the inbox folder in older batches), naming nobody: it stays."""
    return (
        ImportBatch.objects.filter(pk__in=SourceFile.objects.filter(pk__in=list(file_ids)).values("batch_id"))
        .exclude(origin=ImportBatch.Origin.INBOX)
        .exclude(label=WITHHELD_LABEL)
    )


def import_batches_labelled_for(context: ErasureContext):
    """The batches whose label an erasure of the person would replace (the access request shows them)."""
    linked = SourceFile.objects.filter(candidate_id__in=context.candidate_ids).values_list("pk", flat=True)
    return _batches_labelled({*linked, *_unlinked_files_naming_them(context)}).order_by("pk")


def _shared_rows_take_back(file_ids: list[int]) -> None:
    # ingestion.services imports this module: its take-back is reached at call time.
    from ingestion.services import _failed_files_take_back

    _failed_files_take_back(file_ids, kept=[])


# Stored files linked to no candidate whose bytes hold one of the needles, in one pass of one regular expression over
# the bytes as ``encode(..., 'escape')`` writes them (other bytes than ASCII as octal escapes, a backslash doubled):
# without case where the needle is ASCII, byte for byte elsewhere (a name with accents, as its UTF-8 is written).
# One scan of every unlinked file per erasure: 5,000 files of 3 kB take about 0.4 s (an ILIKE per needle and a
# search for the UTF-8 bytes took 1.5 s).
_UNLINKED_HOLDING_SQL = r"""
SELECT f.id, f.content FROM ingestion_sourcefile f
WHERE f.candidate_id IS NULL AND f.size > 0 AND encode(f.content, 'escape') ~* %s
ORDER BY f.id
"""


def _as_escape_encoded(needle: str) -> str:
    """The needle's UTF-8 bytes as ``encode(bytes, 'escape')`` writes them."""
    return "".join(
        f"\\{byte:03o}" if byte == 0 or byte > 127 else "\\\\" if byte == 92 else chr(byte)
        for byte in needle.encode("utf-8", "surrogatepass")
    )


def _needles_regex(needles: tuple[str, ...]) -> str:
    """One PostgreSQL regular expression matching any needle in escaped bytes (punctuation escaped; a letter or a
    digit is never preceded by a backslash, which would make it a class escape)."""
    return "|".join(
        "".join(char if char.isalnum() and char.isascii() else f"\\{char}" for char in _as_escape_encoded(needle))
        for needle in needles
    )


def unlinked_source_files_naming(context: ErasureContext):
    """The stored files linked to no candidate whose document names the person (what the erasure empties besides
    their own files; the access request shows them)."""
    return SourceFile.objects.filter(pk__in=sorted(_unlinked_files_naming_them(context)))


def _unlinked_files_naming_them(context: ErasureContext) -> set[int]:
    """The unlinked stored files whose document names the person. A scan of the bytes for their name and identifiers
    finds the candidates (one statement); only those are parsed, and kept if their identity keys match theirs
    (``privacy.selectors.documents_naming_person``: a namesake's file stays)."""
    needles = context.needles
    if not needles or not context.digests:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(_UNLINKED_HOLDING_SQL, [_needles_regex(needles)])
        files = cursor.fetchall()
    found: set[int] = set()
    batch: list[tuple[int, ProfileDocument]] = []
    for pk, content in files:
        document = _document_or_none(pk, bytes(content))
        if document is not None:
            batch.append((pk, document))
        if len(batch) >= ERASE_SCAN_CHUNK:
            found |= _naming_them(batch, context.digests)
            batch = []
    if batch:
        found |= _naming_them(batch, context.digests)
    return found


def _naming_them(batch: list[tuple[int, ProfileDocument]], digests: frozenset[tuple[str, str]]) -> set[int]:
    naming = documents_naming_person(keys_by_doc=[identity_keys(document) for _, document in batch], digests=digests)
    return {pk for (pk, _), theirs in zip(batch, naming, strict=True) if theirs}


def _document_or_none(pk: int, data: bytes) -> ProfileDocument | None:
    try:
        return parse(data, vocabulary=frozenset())
    except ParseError:
        return None
    except Exception:  # a stored file that crashes a parser must not stop an erasure: it names nobody we can tell
        logger.warning("Source file %s could not be parsed while looking for an erased person", pk, exc_info=True)
        return None
