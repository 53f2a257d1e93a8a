"""What every import path shares about a file's outcome: the file as an import claimed it, the summary of a chunk, the
errors that fail one file, the import's transaction, and recording each file's outcome and its batch's end."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import DatabaseError, transaction
from django.db.models import Count
from django.utils import timezone
from psycopg.types.json import Jsonb

from db.cursors import bound_cursor
from db.errors import sqlstate_of
from ingestion.loaders import (
    LoadResult,
)
from ingestion.models import ImportBatch, SourceFile
from ingestion.normalise import (
    NormalisedProfile,
)
from ingestion.selectors import batch_failed_duplicates, progress_from_counts
from ingestion.texts import source_file_texts_forget, source_file_texts_keep
from privacy.services import sourcing_records_add

logger = logging.getLogger(__name__)


MAX_ATTEMPTS = 5


# Errors saving a document can raise. Those ``db.errors.is_transient`` names (the connection, a serialization
# failure, a deadlock) propagate, for the task to retry the chunk; any other is the document's: it fails that file
# alone, never the whole chunk (text the database cannot encode, such as an unpaired surrogate, is refused by the
# driver before it reaches the server; "string is too long for tsvector" is an OperationalError, and no less final).
SAVE_ERRORS = (DatabaseError, UnicodeEncodeError)


@dataclass(frozen=True, slots=True)
class ClaimedFile:
    """What an import reads of a file it claimed (it never needs the whole row)."""

    pk: int
    batch_id: int | None
    original_name: str
    content: bytes
    size: int
    # The text the parser read out of a binary file (a PDF's, a DOCX's), kept once the file is loaded; None for a text
    # file, or before it is parsed.
    extracted_text: str | None = None


@dataclass(slots=True)
class ImportSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: int = 0
    errors: list[tuple[str, str]] = field(default_factory=list)

    def add(self, other: ImportSummary) -> None:
        self.created += other.created
        self.updated += other.updated
        self.unchanged += other.unchanged
        self.failed += other.failed
        self.errors.extend(other.errors)

    def line(self) -> str:
        return f"imported {self.created}, updated {self.updated}, unchanged {self.unchanged}, failed {self.failed}"


@contextmanager
def import_transaction() -> Iterator[None]:
    """The transactions of an import after the claim: the shared rows', then the one that loads documents and records
    the files' outcome.

    They commit without waiting for the WAL flush (``synchronous_commit = off``): the files' statuses commit with the
    rows, so a commit that a server crash loses leaves those files claimed (``processing``) as if the worker had died,
    and the sweeper queues them again once the claim is stale. Nothing is lost; a file may be loaded twice, which
    identity keys and ``document_sha256`` make harmless, and lost shared rows are created again by that load. The
    claim itself commits durably, before parsing.
    """
    with transaction.atomic():
        with bound_cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit = off")
        yield


def sourcing_record(loaded: list[tuple[ClaimedFile, NormalisedProfile]], results: list[LoadResult]) -> None:
    """The sourcing record of each candidate these files wrote who has none yet (their first import), in the load's
    transaction: one statement."""
    pairs = zip(loaded, results, strict=True)
    sourcing_records_add(rows=[(result.candidate_id, source.batch_id, source.pk) for (source, _), result in pairs])


def database_message(exc: DatabaseError | UnicodeEncodeError) -> str:
    """What a recruiter reads about a profile the database refused: the kind of refusal in words (by its SQLSTATE
    class), then the database's own first line, for whoever looks into it."""
    text = str(exc).strip()
    detail = text.splitlines()[0][:200] if text else exc.__class__.__name__
    if isinstance(exc, UnicodeEncodeError):
        return f"The profile could not be saved: it holds characters that cannot be stored ({detail})."
    reason = {
        "54": "it is too large for the database",  # program_limit_exceeded: a search vector over 1 MB, ...
        "23": "it breaks a rule of the database",  # integrity constraints
        "22": "a value in it is not one the database accepts",  # data exceptions
    }.get((sqlstate_of(exc) or "")[:2], "the database refused it")
    return f"The profile could not be saved: {reason} ({detail})."


def result_rows(
    loaded: list[tuple[ClaimedFile, NormalisedProfile]], results: list[LoadResult], summary: ImportSummary
) -> list[tuple]:
    rows = []
    for (source, _), result in zip(loaded, results, strict=True):
        status = (
            SourceFile.Status.UNCHANGED
            if result.outcome == SourceFile.Outcome.UNCHANGED
            else SourceFile.Status.IMPORTED
        )
        rows.append((source.pk, status, result.outcome, "", Jsonb(result.warnings), result.candidate_id))
        setattr(summary, result.outcome, getattr(summary, result.outcome) + 1)
    return rows


def failure_rows(failures: list[tuple[ClaimedFile, str]], summary: ImportSummary) -> list[tuple]:
    rows = []
    for source, message in failures:
        rows.append((source.pk, SourceFile.Status.FAILED, "", message, None, None))  # the file keeps its warnings
        summary.failed += 1
        summary.errors.append((source.original_name, message))
    return rows


def finish_files(rows: list[tuple]) -> None:
    """One UPDATE for the outcome of many files: (id, status, outcome, error, warnings or None to keep the stored
    ones, candidate id or None to keep the stored one: a file that fails again still names the candidate it built,
    which ``reparse --all`` reads). A file that did not fail no longer needs the record of the shared rows created
    for it: it is dropped in the same statement (a failed file's is used by ``shared_rows_take_back``). A file that
    failed loses the text an earlier parse kept, in the same transaction."""
    if not rows:
        return
    source_file_texts_forget(file_ids=[row[0] for row in rows if row[1] == SourceFile.Status.FAILED])
    arrays = [list(column) for column in zip(*rows, strict=True)]
    with bound_cursor() as cursor:
        cursor.execute(
            """
            WITH u AS (
                SELECT * FROM unnest(%b::bigint[], %b::varchar[], %b::varchar[], %b::text[], %b::jsonb[], %b::bigint[])
                    AS u(id, status, outcome, error, warnings, candidate_id)
            ),
            done AS (
                DELETE FROM ingestion_sharedrowcreated r USING u WHERE r.source_file_id = u.id AND u.status <> 'failed'
            )
            UPDATE ingestion_sourcefile AS f
            SET status = u.status, outcome = u.outcome, error = u.error, warnings = coalesce(u.warnings, f.warnings),
                candidate_id = coalesce(u.candidate_id, f.candidate_id), processed_at = now()
            FROM u
            WHERE f.id = u.id
            """,
            arrays,
        )


def extracted_texts_keep(loaded: list[tuple[ClaimedFile, NormalisedProfile]]) -> None:
    """Keep the text read out of each of these files, in the transaction that records them loaded (after
    ``finish_files``): rolled back with the load, so that a file whose import fails never keeps one."""
    source_file_texts_keep(
        texts={source.pk: source.extracted_text for source, _ in loaded if source.extracted_text is not None}
    )


def batch_finish_if_done(*, batch_id: int) -> bool:
    """Stamp ``finished_at`` once no file of the batch is pending or processing (compare-and-set)."""
    unfinished = SourceFile.objects.filter(
        batch_id=batch_id, status__in=[SourceFile.Status.PENDING, SourceFile.Status.PROCESSING]
    )
    if unfinished.exists():
        return False
    return bool(ImportBatch.objects.filter(pk=batch_id, finished_at__isnull=True).update(finished_at=timezone.now()))


def batch_progress(*, batch: ImportBatch) -> dict:
    """Totals and counts by status: what progress bars and the API show."""
    counts = dict(batch.files.values_list("status").annotate(n=Count("id")).values_list("status", "n"))
    return progress_from_counts(batch, counts)


def batch_summary(*, batch: ImportBatch) -> ImportSummary:
    """The one-line outcome of a batch: created, updated, unchanged (including identical bytes) and failed."""
    outcomes = Counter(dict(batch.files.values_list("outcome").annotate(n=Count("id")).values_list("outcome", "n")))
    failed = batch.files.filter(status=SourceFile.Status.FAILED)
    return ImportSummary(
        created=outcomes[SourceFile.Outcome.CREATED],
        updated=outcomes[SourceFile.Outcome.UPDATED],
        unchanged=outcomes[SourceFile.Outcome.UNCHANGED] + batch.duplicates - batch.duplicates_failed,
        failed=failed.count() + batch.duplicates_failed,
        errors=list(failed.values_list("original_name", "error"))
        + [(f.original_name, f.error) for f in batch_failed_duplicates(batch=batch)],
    )
