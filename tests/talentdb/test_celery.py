"""Celery's time limits against the sweeper: a task stopped at its soft limit loses no file and half-writes none."""

from pathlib import Path

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from ingestion import services, tasks
from ingestion.models import ImportBatch, SourceFile
from profiles.models import Candidate
from talentdb.celery import app

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_a_task_ends_before_the_sweeper_takes_its_files_and_before_redis_redelivers_it(settings):
    soft, hard = settings.CELERY_TASK_SOFT_TIME_LIMIT, settings.CELERY_TASK_TIME_LIMIT
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]

    assert 0 < soft < hard < settings.INGEST_STALE_AFTER_SECONDS < visibility
    assert (app.conf.task_soft_time_limit, app.conf.task_time_limit) == (soft, hard)


@pytest.fixture
def received_batch(db) -> ImportBatch:
    batch = services.batch_create(origin=ImportBatch.Origin.CLI, label="time limits")
    return services.batch_receive(batch=batch, files=services.iter_folder([SAMPLES]), enqueue=False)


def _time_is_up(*_args, **_kwargs):
    raise SoftTimeLimitExceeded()


@pytest.mark.parametrize("stage", ["parse", "normalise", "_finish_files"])
def test_a_soft_time_limit_leaves_the_files_claimed_for_the_sweeper_and_writes_nothing(
    received_batch, monkeypatch, settings, stage
):
    ids = sorted(received_batch.files.values_list("pk", flat=True))
    # The limit strikes while a file is parsed or normalised, or inside the load transaction once the candidates are
    # written.
    monkeypatch.setattr(services, stage, _time_is_up)

    with pytest.raises(SoftTimeLimitExceeded):
        services.source_files_import(file_ids=ids, token="timed-out")

    files = SourceFile.objects.filter(pk__in=ids)
    assert set(files.values_list("status", "claimed_by", "error")) == {(SourceFile.Status.PROCESSING, "timed-out", "")}
    assert not Candidate.objects.exists()

    monkeypatch.undo()
    settings.INGEST_STALE_AFTER_SECONDS = 0  # the claim has gone stale
    assert services.source_files_sweep() == len(ids)
    summary = services.source_files_import(file_ids=ids, token="next-worker")
    assert (summary.created, summary.failed) == (len(ids), 0)
    assert set(files.values_list("status", flat=True)) == {SourceFile.Status.IMPORTED}


def test_a_task_stopped_at_its_soft_limit_fails_without_a_retry(received_batch, monkeypatch):
    ids = sorted(received_batch.files.values_list("pk", flat=True))
    calls = []

    def time_is_up(rows):
        calls.append(len(rows))
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services, "_finish_files", time_is_up)

    result = tasks.import_files.apply(args=[ids])

    assert result.failed()
    assert isinstance(result.result, SoftTimeLimitExceeded)
    assert calls == [len(ids)], "a timed-out import is the sweeper's to queue again, not retried at once"
