"""An export job of every candidate of the benchmark database through a real Celery worker (issue 15, hole 4).

    .venv/bin/python bench/export.py --count 100000 [--formats csv,jsonl] [--json FILE]

Loads (or reuses) ``count`` synthetic candidates with ``bench.dataset.ensure_dataset``, starts one Celery worker on a
private queue, creates an export job per format through ``exports.services.export_create`` (as the API's POST does) and
follows its progress until it is done. Then it reads the stored file back: the rows it holds (JSON lines, or CSV records
after the header) must be as many as the candidates, and its size and sha256 must be those the job recorded. Prints
the figures; ``--json`` writes them to a file too. The jobs and their files are deleted afterwards.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench import _django  # noqa: E402
from bench.dataset import ensure_dataset  # noqa: E402


def rows_in(content: bytes, format: str) -> int:
    if format == "jsonl":
        lines = content.decode("utf-8").splitlines()
        for line in (lines[0], lines[-1]) if lines else ():
            json.loads(line)  # whole JSON at both ends: not cut mid-row
        return len(lines)
    return sum(1 for _ in csv.reader(io.StringIO(content.decode("utf-8"), newline=""))) - 1  # without the header


def run_job(export_format: str, owner, expected: int, timeout: float) -> dict:
    from django.core.files.storage import storages

    from exports.models import Export
    from exports.services import export_create, export_delete

    started = time.monotonic()
    export = export_create(owner=owner, format=export_format, query="", row_url="http://bench/api/v1/candidates/{pk}/")
    progress_seen: set[int] = set()
    while True:
        export.refresh_from_db()
        progress_seen.add(export.progress)
        if export.status in (Export.Status.DONE, Export.Status.FAILED):
            break
        if time.monotonic() - started > timeout:
            raise SystemExit(f"export {export.pk} still {export.status} after {timeout:.0f} s")
        time.sleep(0.5)
    seconds = time.monotonic() - started
    figures = {
        "format": export_format,
        "status": export.status,
        "error": export.error,
        "candidates": expected,
        "rows_total": export.rows_total,
        "rows_written": export.rows_written,
        "seconds": round(seconds, 1),
        "rows_per_second": round(export.rows_written / seconds) if seconds else None,
        "progress_values_seen": len(progress_seen),
    }
    if export.status == Export.Status.DONE:
        with storages["exports"].open(export.file_name, "rb") as file:
            content = file.read()
        figures.update(
            rows_in_file=rows_in(content, export_format),
            file_size=export.file_size,
            size_matches=len(content) == export.file_size,
            sha256_matches=hashlib.sha256(content).hexdigest() == export.file_sha256,
        )
    export_delete(export=export)
    return figures


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000, help="candidates in the database")
    parser.add_argument("--formats", default="jsonl,csv", help="comma-separated: jsonl, csv")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for each job")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    # Before Django is set up: this process and the worker share the queue and the folder of the files.
    queue = f"talentdb-export-{os.getpid()}"
    os.environ["CELERY_DEFAULT_QUEUE"] = queue
    os.environ["CELERY_INGEST_QUEUE"] = f"{queue}-ingest"
    # Export jobs are routed to a queue of their own (settings.CELERY_TASK_ROUTES): the worker consumes only that one.
    export_queue = os.environ["CELERY_EXPORT_QUEUE"] = f"{queue}-exports"
    os.environ["EXPORT_DIR"] = tempfile.mkdtemp(prefix="talentdb-export-files-")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    database_url = ensure_dataset(args.count)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from exports.models import Export
    from profiles.models import Candidate

    owner, _ = get_user_model().objects.get_or_create(username="bench-exporter")
    Export.objects.filter(owner=owner).delete()  # an interrupted earlier run's jobs would count against the limit
    expected = Candidate.objects.count()
    connection.close()
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": settings.REDIS_URL, "DEBUG": "0"}
    log = Path(tempfile.mkstemp(prefix="talentdb-export-worker-", suffix=".log")[1])
    worker = subprocess.Popen(
        _django.celery_worker_command(queue=export_queue, concurrency=1),
        cwd=BASE_DIR,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    try:
        results = [run_job(fmt.strip(), owner, expected, args.timeout) for fmt in args.formats.split(",")]
    finally:
        worker.terminate()
        worker.wait(timeout=60)
    for figures in results:
        print(
            f"[export] {figures['format']}: {figures['status']}, {figures['rows_written']:,} rows of "
            f"{figures['candidates']:,} candidates in {figures['seconds']} s ({figures['rows_per_second']:,} rows/s), "
            f"{figures.get('file_size', 0) / 1e6:.1f} MB, file rows {figures.get('rows_in_file')}, size ok "
            f"{figures.get('size_matches')}, sha256 ok {figures.get('sha256_matches')}; worker log {log}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
