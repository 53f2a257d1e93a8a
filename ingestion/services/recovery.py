"""Recovery: files a lost message or a killed worker left behind, queued again."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ingestion.models import ImportBatch, SourceFile
from ingestion.privacy import WITHHELD_NAME
from ingestion.services.outcomes import MAX_ATTEMPTS, batch_finish_if_done
from ingestion.services.rebuilding import REBUILD_TOKEN_PREFIX, files_leave_as_they_were
from ingestion.services.receiving import files_enqueue
from ingestion.services.shared_rows import shared_rows_take_back
from ingestion.texts import source_file_texts_forget

logger = logging.getLogger(__name__)


def source_files_sweep() -> int:
    """Re-queue files a lost message or a dead worker left pending or processing; give up after MAX_ATTEMPTS.

    Returns how many files were re-queued. Safe to run any time: claims are compare-and-set.
    """
    stale_before = timezone.now() - timezone.timedelta(seconds=settings.INGEST_STALE_AFTER_SECONDS)
    stuck = SourceFile.objects.filter(
        Q(status=SourceFile.Status.PENDING, queued_at__lt=stale_before)
        | Q(status=SourceFile.Status.PENDING, queued_at__isnull=True)
        | Q(status=SourceFile.Status.PROCESSING, claimed_at__lt=stale_before)
    )
    with transaction.atomic():
        # A rebuild's files get their status back (the next reparse --all does them): imported one by one, an older
        # file of a candidate could overwrite what the newer one wrote.
        rebuilt = list(stuck.filter(claimed_by__startswith=REBUILD_TOKEN_PREFIX).values_list("pk", flat=True))
        if rebuilt:
            logger.warning("%s files of an interrupted rebuild were left as they were", len(rebuilt))
            files_leave_as_they_were(rebuilt)
        stuck = stuck.exclude(pk__in=rebuilt)
        exhausted = list(stuck.filter(attempts__gte=MAX_ATTEMPTS).values_list("pk", "batch_id"))
        SourceFile.objects.filter(pk__in=[pk for pk, _ in exhausted]).update(
            status=SourceFile.Status.FAILED,
            processed_at=timezone.now(),
            error=f"Import was interrupted {MAX_ATTEMPTS} times (worker lost); re-import it from the admin.",
        )
        source_file_texts_forget(file_ids=[pk for pk, _ in exhausted])  # failed: an earlier parse's text goes
        ids = sorted(stuck.filter(attempts__lt=MAX_ATTEMPTS).values_list("pk", flat=True))
        SourceFile.objects.filter(pk__in=ids).update(
            status=SourceFile.Status.PENDING, claimed_by="", queued_at=timezone.now()
        )
        if ids:
            files_enqueue(ids)
    # A worker that died, or lost its database connection, after committing its chunk but before stamping the batch
    # leaves a batch with every file done and no finished_at (its retry claims nothing, so stamps nothing): stamp it.
    unstamped = (
        ImportBatch.objects.filter(finished_at__isnull=True, created_at__lt=stale_before)
        .exclude(files__status__in=[SourceFile.Status.PENDING, SourceFile.Status.PROCESSING])
        .values_list("pk", flat=True)
    )
    for batch_id in {b for _, b in exhausted if b} | set(unstamped):
        batch_finish_if_done(batch_id=batch_id)
    # The shared rows created for the files just given up on, which never finished an import to take them back, and
    # for failed files whose import could not take them back (logged then).
    shared_rows_take_back()
    return len(ids)


def source_files_requeue(*, file_ids: Iterable[int]) -> int:
    """Send stored files through the parser and loader again (after a parser fix, or by a recruiter's request)."""
    ids = sorted(file_ids)
    with transaction.atomic():
        updated = (
            SourceFile.objects.filter(pk__in=ids)
            .exclude(status=SourceFile.Status.PROCESSING)
            # An erased or refused file (ingestion.privacy) has no bytes to parse, and its message says why.
            .exclude(size=0, original_name=WITHHELD_NAME)
            .update(status=SourceFile.Status.PENDING, error="", claimed_by="", attempts=0, queued_at=timezone.now())
        )
        ImportBatch.objects.filter(files__pk__in=ids).update(finished_at=None)
        files_enqueue(ids)
    return updated
