"""Faults with real processes: PostgreSQL, Redis and Celery workers started by the test, then broken on purpose.

Each test prints its figures (run with -s): files sent, imported, failed, lost = 0, duplicated = 0.
"""

import re
import signal
import time
from collections import Counter

import pytest
from django.db import connection

from conftest import database_url_of_test_db, wait_for
from devtools.synthetic import write_profiles
from ingestion import services
from ingestion.models import SourceFile
from tests.reliability.faults import (
    PrivateRedis,
    assert_nothing_lost_or_duplicated,
    done,
    figures,
    finished,
    people_of,
    producer_broker,
    receive_folder,
)

pytestmark = [pytest.mark.reliability, pytest.mark.worker]

FILES = 500
STALE_SECONDS = 5  # the sweeper's patience; far above a 10-file chunk's few hundred milliseconds
CHUNK = 10


@pytest.fixture
def fast_recovery(settings):
    settings.INGEST_STALE_AFTER_SECONDS = STALE_SECONDS
    settings.INGEST_CHUNK_SIZE = CHUNK
    return {"INGEST_STALE_AFTER_SECONDS": str(STALE_SECONDS), "INGEST_CHUNK_SIZE": str(CHUNK)}


STUCK_SECONDS = 30


def sweep_until_finished(batches, workers=(), timeout: float = 240, restart=None) -> int:
    """Run the sweeper (as beat would) until every batch is finished; returns how many files it re-queued.

    ``restart(dead_worker) -> new_worker``, when given, plays the process supervisor (docker compose's
    ``restart: unless-stopped`` and health check): a worker that exits, or makes no progress for
    ``STUCK_SECONDS`` while files wait, is replaced.
    """
    requeued = 0
    workers = list(workers)
    deadline = time.monotonic() + timeout
    progress, progress_at = -1, time.monotonic()
    while time.monotonic() < deadline:
        if restart is not None:
            files = SourceFile.objects.filter(batch__in=batches)
            now_done = files.exclude(status__in=["pending", "processing"]).count()
            if now_done != progress:
                progress, progress_at = now_done, time.monotonic()
            stuck = time.monotonic() - progress_at > STUCK_SECONDS
            for i, worker in enumerate(workers):
                if stuck or worker.process.poll() is not None:
                    if worker.process.poll() is None:
                        worker.kill()
                    workers[i] = restart(worker)
            if stuck:
                progress_at = time.monotonic()
        requeued += services.source_files_sweep()
        if all(finished(b) for b in batches):
            return requeued
        time.sleep(1)
    statuses = Counter(SourceFile.objects.filter(batch__in=batches).values_list("status", flat=True))
    logs = "\n".join(f"--- {w.name}\n{w.output()[-4000:]}" for w in workers)
    pytest.fail(f"files not accounted for after {timeout:.0f} s: {dict(statuses)}\n{logs}")


def test_a_worker_killed_with_sigkill_mid_batch_loses_no_file_and_duplicates_no_candidate(
    start_worker, fast_recovery, tmp_path
):
    seed, people = people_of(FILES, first_seed=1)
    write_profiles(tmp_path, FILES, seed=seed)
    doomed = start_worker("doomed", concurrency=2, **fast_recovery)
    batch = receive_folder(tmp_path, "SIGKILL test")

    def frozen_holding_files() -> bool:
        """Stop the worker where it is; keep it stopped if it holds claimed files. A chunk imports in milliseconds, so
        files seen "processing" a moment before a kill may well be imported by then: frozen, the worker commits
        nothing more (the statements it had sent finish within the pause)."""
        doomed.send(signal.SIGSTOP)
        time.sleep(0.3)
        if batch.files.filter(status="processing").exists():
            return True
        doomed.send(signal.SIGCONT)
        return False

    wait_for(
        lambda: done(batch) >= FILES // 5 and frozen_holding_files(),
        timeout=120,
        interval=0.05,
        message=f"the worker to be mid-batch; log:\n{doomed.output()}",
    )
    doomed.kill(signal.SIGKILL)
    done_at_kill = done(batch)
    held_at_kill = batch.files.filter(status="processing").count()
    rescuer = start_worker("rescuer", concurrency=2, **fast_recovery)
    requeued = sweep_until_finished([batch], [doomed, rescuer])

    result = figures(sent=FILES, people=people, batches=[batch])
    print(
        result.line(
            "SIGKILL mid-batch",
            done_at_kill=done_at_kill,
            claimed_by_the_dead_worker=held_at_kill,
            requeued_by_sweeper=requeued,
        )
    )
    assert held_at_kill > 0
    assert_nothing_lost_or_duplicated(result, [batch])
    assert result.stored == FILES


def test_a_redis_restart_mid_batch_loses_messages_but_no_file(start_worker, fast_recovery, tmp_path):
    seed, people = people_of(FILES, first_seed=5)
    write_profiles(tmp_path, FILES, seed=seed)
    redis = PrivateRedis()
    try:
        with producer_broker(redis.url):
            survivor = start_worker("survivor", concurrency=2, REDIS_URL=redis.url, **fast_recovery)
            batch = receive_folder(tmp_path, "Redis restart test")
            wait_for(lambda: done(batch) >= FILES // 5, timeout=120, interval=0.05, message="the batch to be under way")
            from conftest import TEST_INGEST_QUEUE

            messages_lost = redis.messages(TEST_INGEST_QUEUE)
            done_at_restart = done(batch)
            redis.restart()
            assert redis.messages(TEST_INGEST_QUEUE) == 0  # everything queued is gone
            restarted = []

            def supervise(dead):
                # A worker may exit (or stall) instead of reconnecting: kombu 5.7 can fail while it re-creates its
                # pool after a broker restart. Its supervisor starts it again; the files are never at stake.
                restarted.append(dead.name)
                return start_worker(f"survivor-{len(restarted)}", concurrency=2, REDIS_URL=redis.url, **fast_recovery)

            requeued = sweep_until_finished([batch], [survivor], timeout=120, restart=supervise)
    finally:
        redis.stop()

    result = figures(sent=FILES, people=people, batches=[batch])
    print(
        result.line(
            "Redis restart mid-batch",
            messages_lost=messages_lost,
            done_at_restart=done_at_restart,
            requeued_by_sweeper=requeued,
            worker_restarts=len(restarted),
        )
    )
    assert messages_lost > 0
    assert_nothing_lost_or_duplicated(result, [batch])


def test_dropped_database_connections_make_tasks_retry_and_the_batch_completes(start_worker, fast_recovery, tmp_path):
    seed, people = people_of(FILES, first_seed=9)
    write_profiles(tmp_path, FILES, seed=seed)
    app_name = f"talentdb-reliability-{int(time.time())}"
    worker = start_worker(
        "reconnecting",
        concurrency=2,
        DATABASE_URL=f"{database_url_of_test_db()}?application_name={app_name}",
        INGEST_CHUNK_SIZE=str(CHUNK),  # long stale time: no claim may be re-taken, only retried
    )
    batch = receive_folder(tmp_path, "pg_terminate_backend test")

    terminated = rounds = 0
    while not finished(batch) and rounds < 6:
        wait_for(
            lambda: batch.files.filter(status="processing").exists() or finished(batch),
            timeout=60,
            interval=0.02,
            message="a chunk in progress",
        )
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name = %s AND pid <> pg_backend_pid()) AS t",
                [app_name],
            )
            terminated += cursor.fetchone()[0]
        rounds += 1
        time.sleep(1.5)
    wait_for(
        lambda: finished(batch),
        timeout=240,
        interval=0.5,
        message=f"the batch to finish without the sweeper; worker log:\n{worker.output()[-5000:]}",
    )

    retries = len(re.findall(r"Retry in \d+", worker.output()))
    result = figures(sent=FILES, people=people, batches=[batch])
    print(
        result.line(
            "pg_terminate_backend mid-batch", connections_terminated=terminated, task_retries=retries, sweeper_runs=0
        )
    )
    assert terminated > 0
    assert retries > 0
    assert_nothing_lost_or_duplicated(result, [batch])
    assert result.failed == 0


def test_two_workers_importing_overlapping_folders_give_one_candidate_per_person(start_worker, fast_recovery, tmp_path):
    count = 300
    seed, people = people_of(count, first_seed=10)
    write_profiles(tmp_path / "all", count, seed=seed)
    files = sorted((tmp_path / "all").iterdir())
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    # Both folders start with the same 100 people, so both workers load them at the same moment: 50 files with
    # identical bytes, 50 with different bytes (a trailing line, or a changed figure) for the same person.
    for path in files[100:200] + files[:100]:
        (first / path.name).write_bytes(path.read_bytes())
    for i, path in enumerate(files[100:200]):
        data = path.read_bytes()
        if i % 4 == 1:
            data += b"\n"
        elif i % 4 == 3:
            data = data.replace(b" years of coding", b"1 years of coding", 1)
        (second / f"copy-{path.name}").write_bytes(data)
    for path in files[200:]:
        (second / path.name).write_bytes(path.read_bytes())
    workers = [start_worker("w1", concurrency=2, **fast_recovery), start_worker("w2", concurrency=2, **fast_recovery)]

    batches = [receive_folder(first, "overlap A"), receive_folder(second, "overlap B")]
    wait_for(lambda: all(finished(b) for b in batches), timeout=240, interval=0.5, message="both batches to finish")

    result = figures(sent=400, people=people, batches=batches)
    retries = [line for w in workers for line in w.output().splitlines() if "Retry in" in line]
    print(
        result.line(
            "two workers, overlapping folders",
            duplicates_by_bytes=sum(b.duplicates for b in batches),
            people=len(people),
            task_retries=len(retries),
        )
    )
    print("\n".join(retries))
    assert_nothing_lost_or_duplicated(result, batches)
    assert result.candidates == len(people) - result.missing_people
    assert result.failed == 0
    assert result.missing_people == 0
