"""Receiving files: a batch made, each file stored once (deduplicated by content) and queued for a worker."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.text import human_size_against
from db.cursors import bound_cursor
from db.queueing import task_on_commit
from ingestion.models import ImportBatch, SourceFile
from ingestion.parsers import detect_format
from ingestion.queueing import IMPORT_FILES
from ingestion.selectors import may_view_every_batch
from ingestion.services.outcomes import batch_finish_if_done

logger = logging.getLogger(__name__)


RECEIVE_GROUP_SIZE = 200


# Control characters, and the bidirectional overrides that make "gnp.exe" display as "exe.png".
_UNSAFE_NAME_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True, slots=True)
class IncomingFile:
    name: str
    data: bytes
    path: Path | None = None  # where it was read, for files from a folder (the inbox moves them once stored)


def safe_file_name(name: str) -> str:
    """The last path component of a received name, without control characters: a label, never a path.

    An undecodable byte that reached the name as a lone surrogate (how Python spells file names that are not UTF-8)
    becomes U+FFFD: the database stores only text, and one such name must not fail the files received beside it."""
    name = (name or "").encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    base = _UNSAFE_NAME_CHARS.sub("", re.split(r"[\\/]", name)[-1]).strip()[:500]
    return "unnamed" if base.strip(".") == "" else base  # "." and ".." name directories, not files


class NamedSize(Protocol):
    """What the upload limits read of a file: Django's uploaded files have both."""

    name: str
    size: int


def upload_refusals(*, files: Sequence[NamedSize]) -> list[str]:
    """Why an upload must be refused before anything of it is stored, in words for the uploader; empty when it may go.

    The one statement of the upload limits, for every surface that takes uploads (the API's serializer, the admin's
    upload form), so that they cannot drift apart. Files that arrive another way (the inbox, the command line) are
    stored whatever their size and failed with ``_parse_one``'s message, which keeps their bytes for a look.
    """
    max_files, max_bytes = settings.INGEST_MAX_FILES_PER_UPLOAD, settings.INGEST_MAX_FILE_BYTES
    if len(files) > max_files:
        return [f"{len(files)} files sent; at most {max_files} per upload."]
    return [
        "{} is {}; files up to {} are accepted.".format(safe_file_name(f.name), *human_size_against(f.size, max_bytes))
        for f in files
        if f.size > max_bytes
    ]


def batch_create(*, origin: str, label: str = "", user=None) -> ImportBatch:
    """A batch; without a label, ``batch_receive`` gives it ``batch_default_label`` once it counted the files."""
    return ImportBatch.objects.create(origin=origin, label=label[:500], created_by=user)


_DEFAULT_LABEL_SOURCES = {ImportBatch.Origin.INBOX: "Inbox scan", ImportBatch.Origin.CLI: "Command-line import"}


def batch_default_label(*, origin: str, files: int, at) -> str:
    """Where a batch came from, how many files and when ("Upload of 3 files, 2 Dec 10:42"), in the site's time zone:
    never the files' names or paths, which are often the people's, and which an access report or a label left after
    an erasure would show to whoever reads the batch."""
    local = timezone.localtime(at)
    source = _DEFAULT_LABEL_SOURCES.get(origin, "Upload")
    return f"{source} of {files} file{'' if files == 1 else 's'}, {local.day} {local:%b %H:%M}"


def batch_receive(*, batch: ImportBatch, files: Iterable[IncomingFile], enqueue: bool = True) -> ImportBatch:
    """Store every file (bytes and hash) before anything parses it, in groups, and queue the new ones.

    Files whose bytes are already stored in the batch's scope (``dedup_scope``) are counted as duplicates and write
    nothing else. Memory stays flat: the iterable is consumed group by group.
    """
    scope = dedup_scope_of(batch)
    group: list[IncomingFile] = []
    for incoming in files:
        group.append(incoming)
        if len(group) >= RECEIVE_GROUP_SIZE:
            _receive_group(batch, group, enqueue, scope)
            group = []
    if group:
        _receive_group(batch, group, enqueue, scope)
    batch.refresh_from_db()
    if not batch.label:
        batch.label = batch_default_label(origin=batch.origin, files=batch.total_files, at=batch.created_at)
        ImportBatch.objects.filter(pk=batch.pk, label="").update(label=batch.label)
    batch_finish_if_done(batch_id=batch.pk)
    return batch


def dedup_scope_of(batch: ImportBatch) -> int:
    """Which stored files a batch's files are compared with (``SourceFile.dedup_scope``).

    "Already stored" may be said only of a copy in a batch the uploader may view. Who may view every batch, and the
    command line and the inbox (no user), share one store (scope 0); an uploader who may view only their own batches
    has a scope of their own, so their upload of bytes somebody else sent is stored and imported as a new file for
    them, and only their own earlier copy makes a duplicate.
    """
    user = batch.created_by
    return 0 if user is None or may_view_every_batch(user) else user.pk


@transaction.atomic
def _receive_group(batch: ImportBatch, group: list[IncomingFile], enqueue: bool, scope: int) -> None:
    rows: dict[str, IncomingFile] = {}
    received_shas = [hashlib.sha256(incoming.data).hexdigest() for incoming in group]
    for sha, incoming in zip(received_shas, group, strict=True):
        rows.setdefault(sha, incoming)
    shas = list(rows)
    now = timezone.now()
    with bound_cursor() as cursor:
        # The bytes travel as binary parameters (quoting them into the SQL text cost more than storing them); the
        # batch's counters are updated in the same statement.
        cursor.execute(
            """
            WITH new AS (
                INSERT INTO ingestion_sourcefile (batch_id, original_name, content, sha256, dedup_scope, size, format,
                    status, outcome, error, warnings, attempts, claimed_by, created_at, queued_at)
                SELECT %(batch)s, n, c, s, %(scope)s, z, f, 'pending', '', '', '[]'::jsonb, 0, '', %(now)s, %(queued)s
                FROM unnest(%(names)b::varchar[], %(contents)b::bytea[], %(shas)b::varchar[], %(sizes)b::bigint[],
                    %(formats)b::varchar[]) AS t(n, c, s, z, f)
                ON CONFLICT (sha256, dedup_scope) DO NOTHING
                RETURNING id
            ),
            -- received files whose bytes were stored before and failed (the statement's snapshot does not see the
            -- rows it inserts, so these are duplicates): bytes known to be broken, reported as failed again. Only
            -- the stored copy's id is kept: the name they came under would outlive an erasure of the person.
            failed_before AS (
                SELECT r.i, f.id
                FROM unnest(%(received_shas)b::varchar[]) WITH ORDINALITY AS r(s, i)
                JOIN ingestion_sourcefile f ON f.sha256 = r.s AND f.dedup_scope = %(scope)s AND f.status = %(failed)s
            ),
            counted AS (
                UPDATE ingestion_importbatch SET total_files = total_files + %(received)s,
                    duplicates = duplicates + %(received)s - (SELECT count(*) FROM new),
                    duplicates_failed = duplicates_failed + (SELECT count(*) FROM failed_before),
                    duplicates_failed_ids = duplicates_failed_ids
                        || (SELECT coalesce(array_agg(id ORDER BY i), '{}') FROM failed_before)
                WHERE id = %(batch)s
            )
            SELECT id FROM new
            """,
            {
                "batch": batch.pk,
                "scope": scope,
                "now": now,
                "queued": now if enqueue else None,
                "names": [safe_file_name(rows[s].name) for s in shas],
                "contents": [rows[s].data for s in shas],
                "shas": shas,
                "sizes": [len(rows[s].data) for s in shas],
                "formats": [detect_format(rows[s].data) for s in shas],
                "received": len(group),
                "received_shas": received_shas,
                "failed": SourceFile.Status.FAILED,
            },
        )
        new_ids = sorted(row[0] for row in cursor.fetchall())
    if enqueue and new_ids:
        files_enqueue(new_ids)


def files_enqueue(file_ids: list[int]) -> None:
    size = settings.INGEST_CHUNK_SIZE
    for start in range(0, len(file_ids), size):
        task_on_commit(IMPORT_FILES, file_ids[start : start + size])
