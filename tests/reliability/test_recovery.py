"""The sweeper's recovery of states a crash leaves behind, without worker processes (quick)."""

import pytest
from django.utils import timezone

from ingestion import services
from ingestion.models import ImportBatch, SourceFile

pytestmark = pytest.mark.django_db

PROFILE = b"Ada Quill\nStaff Engineer at Inkwell\nLondon, England, United Kingdom\nSummary\nWrites compilers.\n"


def _received(label: str, *contents: bytes) -> ImportBatch:
    batch = services.batch_create(origin=ImportBatch.Origin.CLI, label=label)
    services.batch_receive(
        batch=batch, files=[services.IncomingFile(f"{i}.txt", data) for i, data in enumerate(contents)], enqueue=False
    )
    return batch


def test_a_batch_whose_worker_died_after_committing_its_last_chunk_is_stamped_by_the_sweeper(settings):
    settings.INGEST_STALE_AFTER_SECONDS = 60
    batch = _received("done, stamp lost", PROFILE)
    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="t")
    # The worker lost its connection between the chunk's commit and the stamp; its retry claims nothing.
    ImportBatch.objects.filter(pk=batch.pk).update(
        finished_at=None, created_at=timezone.now() - timezone.timedelta(minutes=5)
    )
    assert services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="t").line() == (
        "imported 0, updated 0, unchanged 0, failed 0"
    )

    services.source_files_sweep()

    batch.refresh_from_db()
    assert batch.finished_at is not None


def test_the_sweeper_leaves_unfinished_and_just_received_batches_alone(settings):
    settings.INGEST_STALE_AFTER_SECONDS = 60
    waiting = _received("still importing", PROFILE)
    SourceFile.objects.filter(batch=waiting).update(status="processing", claimed_at=timezone.now())
    ImportBatch.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timezone.timedelta(minutes=5))
    receiving = services.batch_create(origin=ImportBatch.Origin.API, label="files still arriving")

    services.source_files_sweep()

    assert ImportBatch.objects.get(pk=waiting.pk).finished_at is None
    assert ImportBatch.objects.get(pk=receiving.pk).finished_at is None


def test_files_held_by_a_dead_worker_too_often_fail_with_a_message_and_finish_their_batch(settings):
    settings.INGEST_STALE_AFTER_SECONDS = 60
    batch = _received("poison", PROFILE)
    SourceFile.objects.filter(batch=batch).update(
        status="processing", attempts=services.MAX_ATTEMPTS, claimed_at=timezone.now() - timezone.timedelta(hours=1)
    )

    services.source_files_sweep()

    source = SourceFile.objects.get(batch=batch)
    assert source.status == "failed"
    assert "interrupted" in source.error
    batch.refresh_from_db()
    assert batch.finished_at is not None
