"""The import's step of an erasure (``privacy.services.candidate_erase``, registered in ``IngestionConfig.ready``):
the stored files of the person emptied, their batches' labels withheld, and the shared rows created for their files
taken back once the erasure commits.

It sits above the pipeline (``ingestion.services``), whose take-back it runs. ``ingestion.privacy`` sits below it:
the pipeline imports that module to refuse the files of erased people, and this step reads from it which files are
the person's.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ingestion.models import SharedRowCreated, SourceFile
from ingestion.privacy import (
    WITHHELD_LABEL,
    import_batches_holding,
    source_files_withhold,
    unlinked_files_about_them,
)
from ingestion.services.shared_rows import failed_files_take_back
from privacy.erasure import ErasureContext
from privacy.models import Suppression

__all__ = ["source_files_erase"]


def source_files_erase(context: ErasureContext) -> int:
    """Erasure step: the files that built the person (linked to them or to a candidate merged into them), and the
    stored files linked to no candidate (failed, or whose candidate was deleted) that are theirs by the rules of
    ``ingestion.privacy.unlinked_files_about_them``: their identity keys, or (a failed file no parser reads) their
    e-mail or an account as a URL in its bytes. The failed files that name them otherwise are left as they are and
    listed in ``context.to_review`` for a privacy officer."""
    linked = set(SourceFile.objects.filter(candidate_id__in=context.candidate_ids).values_list("pk", flat=True))
    unlinked, to_review = unlinked_files_about_them(context)
    if to_review:
        context.to_review["source_files"] = to_review
    context.counts["source_files_to_review"] = len(to_review)
    day = timezone.localdate(context.erased_at)
    why = "under the retention policy" if context.reason == Suppression.Reason.RETENTION else "at the person's request"
    file_ids = sorted(linked | unlinked)
    withheld = source_files_withhold(
        file_ids=file_ids,
        error=f"Erased on {day:%Y-%m-%d} {why}; the file's content was deleted.",
        new_sha=True,
        take_back_later=True,
    )
    context.counts["batch_labels"] = import_batches_holding(file_ids).update(label=WITHHELD_LABEL)
    # A file whose import was under way (or failed, not swept yet) has shared rows on record that were created for it
    # before its load: a repository or a skill only it names, hers. The file is failed now; they are taken back as a
    # failed file's are, once the erasure commits (the take-back runs transactions of its own).
    if SharedRowCreated.objects.filter(source_file_id__in=file_ids).exists():
        transaction.on_commit(lambda: failed_files_take_back(file_ids, kept=[]), robust=True)
    return withheld
