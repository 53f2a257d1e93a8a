"""Reads of the ingestion pipeline: import batches a user may see, with their progress; a stored file's text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet, Value

from db.connections import read_connection
from ingestion.documents import ParseError
from ingestion.file_budget import file_budget
from ingestion.models import ImportBatch, SourceFile, SourceFileText
from ingestion.parsers import reader_text, text_is_extracted
from ingestion.parsers.cv import NOT_A_CV_MESSAGE
from ingestion.privacy import WITHHELD_NAME
from profiles.contacts import text_for_reader

_STATUSES = [choice.value for choice in SourceFile.Status]


def may_view_every_batch(user) -> bool:
    """Whether this user reads every import batch (the view permission), rather than only their own uploads."""
    return user.has_perm("ingestion.view_importbatch")


def import_batches_for(*, user) -> QuerySet[ImportBatch]:
    """Batches this user may read: every batch with the view permission, else the user's own uploads.

    Each row carries its file counts by status (``n_pending``, ``n_imported``, ...) from one grouped query, so a page
    of batches shows its progress without a query per batch (see ``import_batch_progress``).
    """
    queryset = ImportBatch.objects.select_related("created_by")
    if not may_view_every_batch(user):
        queryset = queryset.filter(created_by=user)
    counts = {f"n_{status}": Count("files", filter=Q(files__status=status)) for status in _STATUSES}
    return queryset.annotate(**counts).order_by("-created_at", "-id")


def import_batch_progress(batch: ImportBatch) -> dict:
    """The figures of ``batch_progress`` from a row of ``import_batches_for`` (counts annotated: no query)."""
    return progress_from_counts(batch, {status: getattr(batch, f"n_{status}") for status in _STATUSES})


def progress_from_counts(batch: ImportBatch, counts: Mapping[str, int]) -> dict:
    """Totals and counts by status of a batch, from its files' counts by status: what progress bars show."""
    pending = counts.get(SourceFile.Status.PENDING, 0)
    processing = counts.get(SourceFile.Status.PROCESSING, 0)
    processed = sum(counts.values()) - pending - processing + batch.duplicates
    total = batch.total_files
    return {
        "total": total,
        "processed": processed,
        "pending": pending,
        "processing": processing,
        "imported": counts.get(SourceFile.Status.IMPORTED, 0),
        "unchanged": counts.get(SourceFile.Status.UNCHANGED, 0) + batch.duplicates - batch.duplicates_failed,
        "failed": counts.get(SourceFile.Status.FAILED, 0) + batch.duplicates_failed,
        "duplicates": batch.duplicates,
        "percent": 100 if total == 0 else min(100, round(100 * processed / total)),
        "finished": batch.finished_at is not None,
    }


@dataclass(frozen=True, slots=True)
class BatchFilesState:
    """A batch's figures (``progress_from_counts``) and the ids of its first failed files, from one read."""

    progress: dict
    failed_ids: list[int]


def batch_files_state(*, batch: ImportBatch, failed_limit: int) -> BatchFilesState:
    """The figures of ``batch`` and the ids of its first ``failed_limit`` failed files (by id), in one statement.

    One statement is one snapshot of the files' states: while workers import the batch, a figure read by one query and
    a list read by the next could disagree ("0 failed" above a failed file). The batch's own columns that the figures
    and ``batch_failed_duplicates`` read (its totals, duplicates and finish time) are brought up to the same read."""
    with read_connection(SourceFile).cursor() as cursor:
        cursor.execute(
            """
            SELECT b.total_files, b.duplicates, b.duplicates_failed, b.duplicates_failed_ids, b.finished_at,
                f.status, count(f.id),
                (array_agg(f.id ORDER BY f.id) FILTER (WHERE f.status = %(failed)s))[1:%(limit)s]
            FROM ingestion_importbatch b LEFT JOIN ingestion_sourcefile f ON f.batch_id = b.id
            WHERE b.id = %(batch)s
            GROUP BY b.id, f.status
            """,
            {"failed": SourceFile.Status.FAILED, "limit": failed_limit, "batch": batch.pk},
        )
        rows = cursor.fetchall()
    if not rows:
        raise ImportBatch.DoesNotExist(f"No batch {batch.pk}.")
    (batch.total_files, batch.duplicates, batch.duplicates_failed, batch.duplicates_failed_ids, batch.finished_at) = (
        rows[0][:5]
    )
    counts = {status: n for *_, status, n, _ in rows if status is not None}
    failed_ids = next((ids for *_, status, _, ids in rows if status == SourceFile.Status.FAILED), None) or []
    return BatchFilesState(progress=progress_from_counts(batch, counts), failed_ids=failed_ids)


def batch_failed_duplicates(*, batch: ImportBatch, limit: int | None = None) -> list[SourceFile]:
    """The stored copies of the files ``batch`` received whose bytes had failed before, once per such file, in the order
    received (the first ``limit``): their name and error are the stored row's, as an erasure left them. A copy deleted
    since is left out."""
    ids = batch.duplicates_failed_ids[:limit]
    stored = SourceFile.objects.only("id", "batch_id", "original_name", "error").in_bulk(set(ids))
    return [stored[pk] for pk in ids if pk in stored]


def failed_files_to_look_at() -> QuerySet[SourceFile]:
    """The failed files someone should look at: a file withheld after an erasure (emptied of the person, its name
    withheld, failed with the erasure's message) failed on purpose and has nothing left to look at."""
    return SourceFile.objects.filter(status=SourceFile.Status.FAILED).exclude(original_name=WITHHELD_NAME)


# The files with warnings a batch's detail lists (the count says how many there are in all).
BATCH_DETAIL_WARNED_FILES = 100


def import_batch_detail(*, batch_id: int, user) -> ImportBatch:
    """One batch the user may read, with its file counts, its failed files (``failed_rows``), how many files were read
    with warnings (``warned_count``) and the first BATCH_DETAIL_WARNED_FILES of those (``warned_rows``)."""
    failed = SourceFile.objects.filter(status=SourceFile.Status.FAILED).only(
        "id", "batch_id", "original_name", "format", "error"
    )
    warned = SourceFile.objects.exclude(warnings=[]).only(
        "id", "batch_id", "original_name", "format", "status", "warnings"
    )
    return (
        import_batches_for(user=user)
        .annotate(warned_count=Count("files", filter=~Q(files__warnings=[])))
        .prefetch_related(
            Prefetch("files", queryset=failed.order_by("batch_id", "id"), to_attr="failed_rows"),
            Prefetch(
                "files",
                queryset=warned.order_by("batch_id", "id")[:BATCH_DETAIL_WARNED_FILES],
                to_attr="warned_rows",
            ),
        )
        .get(pk=batch_id)
    )


def batch_files_with_warnings(*, batch: ImportBatch, limit: int) -> tuple[int, list[SourceFile]]:
    """How many files of ``batch`` were read with warnings (whatever became of them), and the first ``limit`` of them
    (their names and warnings, not their bytes)."""
    files = batch.files.exclude(warnings=[]).only("id", "batch_id", "original_name", "status", "warnings")
    return files.count(), list(files.order_by("id")[:limit])


def candidate_sources_prefetch(*, user, to_attr: str = "source_rows") -> Prefetch:
    """A candidate's stored files, newest first, as its profile lists them (what each file is, not its bytes).

    Each file carries ``readable``: whether ``user`` may view the batch it came in (``import_batches_for``'s rule:
    every batch with the view permission, else their own uploads). An upload's file name and hash are as private as
    its batch, so a profile names only readable files. A file whose batch is gone is readable to those who view every
    batch.
    """
    if may_view_every_batch(user):
        readable = Value(True)
    else:
        readable = Exists(ImportBatch.objects.filter(pk=OuterRef("batch_id"), created_by_id=user.pk))
    files = (
        SourceFile.objects.only(
            "id", "candidate_id", "original_name", "format", "status", "sha256", "created_at", "processed_at"
        )
        .annotate(readable=readable)
        .order_by("candidate_id", "-created_at", "-id")
    )
    return Prefetch("sources", queryset=files, to_attr=to_attr)


def source_file_text(*, source: SourceFile, user) -> str:
    """The text the parser works from, for a recruiter to check the parsed record against: a PDF's or a DOCX's
    extracted text, a text file's bytes decoded; why there is none when the file cannot be read. Its e-mail addresses,
    phone numbers and links are withheld from a ``user`` who may not see contact details (``text_for_reader``).

    The text of a PDF or a DOCX is the one kept when the file was parsed (``SourceFileText``). A file parsed before
    texts were kept, or whose parse failed, has none: its text is read again from the stored bytes by the import's own
    function, on one file's time budget. A file whose import failed is not read again, but for one whose text was read
    and found to be no CV: it may have failed for taking too long or too much memory, and the time budget cannot
    interrupt a web request's thread (the reader's own limits on size hold there, not the one on time)."""
    return text_for_reader(_stored_text(source), user)


def _stored_text(source: SourceFile) -> str:
    kept = SourceFileText.objects.filter(source_file_id=source.pk).values_list("text", flat=True).first()
    if kept is not None:
        return kept
    data = bytes(source.content)
    if not text_is_extracted(data):
        return source.text
    if source.status == SourceFile.Status.FAILED and source.error != NOT_A_CV_MESSAGE:
        return f"[No text: the import failed. {source.error}]"
    try:
        with file_budget().spending():
            return reader_text(data)
    except ParseError as exc:
        return f"[No text: {exc}]"
