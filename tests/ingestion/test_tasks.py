"""The import pipeline with real parts: PostgreSQL, Redis as the broker, and Celery worker processes."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from conftest import TEST_QUEUE_ENV, database_url_of_test_db, wait_for
from devtools.synthetic import write_profiles
from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from profiles.models import Candidate

pytestmark = pytest.mark.worker

BASE_DIR = Path(__file__).resolve().parents[2]


def finished(batch: ImportBatch) -> bool:
    batch.refresh_from_db()
    return batch.finished_at is not None


def test_a_worker_imports_a_queued_batch(start_worker, tmp_path):
    write_profiles(tmp_path, 40, seed=7)
    worker = start_worker()
    batch = services.batch_create(origin=ImportBatch.Origin.FOLDER, label=str(tmp_path))

    services.batch_receive(batch=batch, files=services.iter_folder([tmp_path]))

    wait_for(lambda: finished(batch), timeout=90, message=f"the batch to finish; worker log:\n{worker.output()}")
    progress = services.batch_progress(batch=batch)
    assert progress["total"] == 40
    assert progress["processed"] == 40
    assert progress["percent"] == 100
    assert progress["failed"] == 0, list(batch.files.filter(status="failed").values_list("original_name", "error"))
    assert Candidate.objects.count() == SourceFile.objects.filter(outcome="created").count()
    assert Candidate.objects.count() >= 35


def test_the_ingest_command_waits_for_workers_and_prints_the_summary(start_worker, tmp_path):
    write_profiles(tmp_path, 12, seed=11)
    start_worker()
    result = subprocess.run(
        [sys.executable, "manage.py", "ingest", "--no-progress", "--timeout", "90", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=BASE_DIR,
        env={**os.environ, "DATABASE_URL": database_url_of_test_db(), **TEST_QUEUE_ENV},
    )

    assert result.returncode == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1]
    created = Candidate.objects.count()
    assert last == f"imported {created}, updated {12 - created}, unchanged 0, failed 0"


def test_a_killed_worker_loses_no_file(start_worker, tmp_path, settings):
    settings.INGEST_STALE_AFTER_SECONDS = 2
    settings.INGEST_CHUNK_SIZE = 10
    write_profiles(tmp_path, 200, seed=3)
    first = start_worker("doomed", concurrency=1)
    batch = services.batch_create(origin=ImportBatch.Origin.FOLDER, label="kill test")
    services.batch_receive(batch=batch, files=services.iter_folder([tmp_path]))

    wait_for(
        lambda: batch.files.exclude(status__in=["pending", "processing"]).exists(),
        timeout=60,
        message="the first files to be imported",
    )
    first.kill(signal.SIGKILL)
    start_worker("rescuer", INGEST_STALE_AFTER_SECONDS="2")

    def swept_and_done() -> bool:
        services.source_files_sweep()
        return finished(batch)

    wait_for(swept_and_done, timeout=120, interval=1, message="every file to be accounted for")
    statuses = set(batch.files.values_list("status", flat=True))
    assert statuses <= {"imported", "failed", "unchanged"}
    assert batch.files.count() == 200
    names = list(Candidate.objects.values_list("name", "city"))
    assert len(names) == len(set(names)), "a candidate was duplicated"


def test_two_workers_importing_overlapping_folders_give_one_candidate_per_person(start_worker, tmp_path):
    write_profiles(tmp_path / "all", 60, seed=5)
    files = sorted((tmp_path / "all").iterdir())
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    for path in files[:40]:
        (first / path.name).write_bytes(path.read_bytes())
    for path in files[20:]:  # overlap: files 20-39 in both, rewritten so the bytes differ
        (second / path.name).write_bytes(path.read_bytes() + b"\n")
    start_worker("w1", concurrency=2)
    start_worker("w2", concurrency=2)

    batches = []
    for folder in (first, second):
        batch = services.batch_create(origin=ImportBatch.Origin.FOLDER, label=str(folder))
        services.batch_receive(batch=batch, files=services.iter_folder([folder]))
        batches.append(batch)

    wait_for(lambda: all(finished(b) for b in batches), timeout=120, message="both batches to finish")
    assert not SourceFile.objects.filter(status="failed").exists()
    distinct_people = {(c.name, c.city) for c in Candidate.objects.all()}
    assert Candidate.objects.count() == len(distinct_people)
    call_command("seed_skills")  # the vocabulary is intact after concurrent skill creation
