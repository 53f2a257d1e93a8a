"""Celery's queues and time limits: each kind of task on its own queue and workers, a task stopped at its soft limit
losing no file and half-writing none, and the broker settings of workers on several hosts."""

from pathlib import Path

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from conftest import TEST_DEFAULT_QUEUE, TEST_INGEST_QUEUE, wait_for
from devtools.synthetic import write_profiles
from exports.tasks import run_export
from ingestion import services, tasks
from ingestion.models import ImportBatch, SourceFile
from ingestion.services import importing
from profiles.models import Candidate
from talentdb.celery import app

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_a_task_ends_before_the_sweeper_takes_its_files_and_before_redis_redelivers_it(settings):
    soft, hard = settings.CELERY_TASK_SOFT_TIME_LIMIT, settings.CELERY_TASK_TIME_LIMIT
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]

    assert 0 < soft < hard < settings.INGEST_STALE_AFTER_SECONDS < visibility
    assert (app.conf.task_soft_time_limit, app.conf.task_time_limit) == (soft, hard)


def test_redis_delivers_no_task_again_while_it_may_still_run(settings):
    """The longest task is an export job: Redis must not hand a running one to another worker."""
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]

    assert settings.CELERY_TASK_TIME_LIMIT < run_export.time_limit < visibility


def test_import_chunks_go_to_the_ingest_queue_and_the_periodic_tasks_to_the_default_one(settings):
    def queue_of(task: str) -> str:
        return app.amqp.router.route({}, task)["queue"].name

    assert settings.INGEST_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    for task in ("ingestion.tasks.import_files", "ingestion.tasks.rebuild_files"):
        assert settings.CELERY_TASK_ROUTES[task] == {"queue": settings.INGEST_QUEUE}
        assert queue_of(task) == TEST_INGEST_QUEUE  # the tests' private copy (conftest)
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] not in settings.CELERY_TASK_ROUTES, "beat tasks belong to the default queue"
        assert queue_of(entry["task"]) == TEST_DEFAULT_QUEUE


def test_make_run_starts_a_worker_for_every_queue_with_a_name_of_its_own(settings):
    from talentdb.run import worker_commands

    commands = worker_commands("python", settings)
    queues = {command[command.index("-Q") + 1] for command in commands}
    names = {command[command.index("-n") + 1] for command in commands}

    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert queues == {settings.CELERY_TASK_DEFAULT_QUEUE, *routed}
    assert len(names) == len(commands)


def test_workers_on_other_hosts_outlive_a_lost_or_half_open_broker_connection(settings):
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS

    assert app.conf.broker_connection_retry is True
    assert app.conf.broker_connection_max_retries is None
    assert options["socket_keepalive"] is True
    assert 0 < options["health_check_interval"] < options["socket_timeout"]
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.result_backend is None


@pytest.mark.worker
def test_an_import_completes_on_the_ingest_worker_while_the_default_worker_serves_the_periodic_tasks(
    start_worker, settings, tmp_path
):
    """Two roles as two hosts would run them: one worker consumes only the ingest queue, one only the default queue.
    A periodic task sent as beat sends it runs on the default worker while the import's chunks still wait for the
    ingest worker, not behind them, and the inbox batch it makes is imported by the ingest worker."""
    settings.INGEST_CHUNK_SIZE = 4  # 100 chunks: seconds of work queued for the one ingest process
    inbox = tmp_path / "inbox"
    write_profiles(tmp_path / "folder", 400, seed=13)
    write_profiles(inbox, 5, seed=17)
    env = {"INGEST_CHUNK_SIZE": "4", "INGEST_INBOX": str(inbox)}
    ingest = start_worker("ingest", concurrency=1, queues=(TEST_INGEST_QUEUE,), **env)
    default = start_worker("default", concurrency=1, queues=(TEST_DEFAULT_QUEUE,), **env)
    for worker in (ingest, default):
        wait_for(lambda w=worker: " ready." in w.output(), timeout=60, message=f"{worker.name} to be ready")
    batch = services.batch_create(origin=ImportBatch.Origin.FOLDER, label="the big import")
    services.batch_receive(batch=batch, files=services.iter_folder([tmp_path / "folder"]))
    wait_for(lambda: batch.files.filter(status="imported").exists(), timeout=60, message="the import to be under way")

    # As beat sends them: by name, routed by the settings.
    app.send_task("ingestion.tasks.sweep_stale")
    app.send_task("ingestion.tasks.scan_inbox")

    from_inbox = wait_for(
        lambda: ImportBatch.objects.filter(origin=ImportBatch.Origin.INBOX).first(),
        timeout=30,
        message=f"the inbox scan; default worker log:\n{default.output()[-3000:]}",
    )
    wait_for(lambda: batch.refresh_from_db() or batch.finished_at, timeout=180, message="the import to finish")
    assert from_inbox.created_at < batch.finished_at, "the inbox scan waited for the import"
    wait_for(lambda: from_inbox.refresh_from_db() or from_inbox.finished_at, timeout=60, message="the inbox batch")
    assert services.batch_progress(batch=batch)["failed"] == 0
    assert services.batch_progress(batch=from_inbox)["failed"] == 0
    assert from_inbox.files.count() == 5
    # Celery logs "Task <name>[<id>] received" in the worker that took it (the banner lists every task's name).
    ingest_log, default_log = ingest.output(), default.output()
    assert "Task ingestion.tasks.import_files[" in ingest_log
    assert "Task ingestion.tasks.scan_inbox[" not in ingest_log
    assert "Task ingestion.tasks.sweep_stale[" not in ingest_log
    assert "Task ingestion.tasks.scan_inbox[" in default_log
    assert "Task ingestion.tasks.sweep_stale[" in default_log
    assert "Task ingestion.tasks.import_files[" not in default_log


@pytest.fixture
def received_batch(db) -> ImportBatch:
    batch = services.batch_create(origin=ImportBatch.Origin.CLI, label="time limits")
    return services.batch_receive(batch=batch, files=services.iter_folder([SAMPLES]), enqueue=False)


def _time_is_up(*_args, **_kwargs):
    raise SoftTimeLimitExceeded()


@pytest.mark.parametrize("stage", ["parse", "normalise", "finish_files"])
def test_a_soft_time_limit_leaves_the_files_claimed_for_the_sweeper_and_writes_nothing(
    received_batch, monkeypatch, settings, stage
):
    ids = sorted(received_batch.files.values_list("pk", flat=True))
    # The limit strikes while a file is parsed or normalised, or inside the load transaction once the candidates are
    # written.
    monkeypatch.setattr(importing, stage, _time_is_up)

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

    monkeypatch.setattr(importing, "finish_files", time_is_up)

    result = tasks.import_files.apply(args=[ids])

    assert result.failed()
    assert isinstance(result.result, SoftTimeLimitExceeded)
    assert calls == [len(ids)], "a timed-out import is the sweeper's to queue again, not retried at once"
