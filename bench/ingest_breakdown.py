"""Where an import's CPU goes, per profile: parsing, the loader's Python, and PostgreSQL's work statement by statement.

    DEBUG=1 .venv/bin/python bench/ingest_breakdown.py [--count 2000]

Generates N synthetic profiles, stores them (``batch_receive``, nothing queued) into a fresh database
``talentdb_bench_breakdown``, then imports them in this process in chunks of ``INGEST_CHUNK_SIZE`` with
``source_files_import``, as a worker does. Prints milliseconds per profile: this process's CPU (parsing apart), and
the PostgreSQL backend's CPU (read from ``/proc/<pid>/schedstat``, so Linux only) attributed to each statement and to
the commits. Everything runs on one core here; ``bench/ingest.py`` measures the pipeline end to end.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import _django

DATABASE = "talentdb_bench_breakdown"
CLAIM_TOKEN = "bench-breakdown"  # noqa: S105 - the claim a worker task holds, not a secret


class BackendClock:
    """CPU seconds of one PostgreSQL backend process, attributed to the statements that spent them."""

    def __init__(self, pid: int):
        self.path = f"/proc/{pid}/schedstat"
        self.spent: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])

    def now(self) -> float:
        with open(self.path) as schedstat:
            return int(schedstat.read().split()[0]) / 1e9

    @contextlib.contextmanager
    def statement(self, sql: str):
        started = self.now()
        try:
            yield
        finally:
            key = " ".join(str(sql).split())[:100]
            entry = self.spent[key]
            entry[0] += 1
            entry[1] += self.now() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--database", default=DATABASE, help="dropped and created afresh: one of its own for each concurrent run"
    )
    args = parser.parse_args()

    _django.fresh_database(args.database)
    import psycopg
    from django.conf import settings
    from django.db import connection

    from devtools.synthetic import write_profiles
    from ingestion import services
    from ingestion.models import ImportBatch

    folder = Path(tempfile.mkdtemp(prefix="talentdb-breakdown-"))
    write_profiles(folder, args.count, seed=args.seed)
    files = list(services.iter_folder([folder]))

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        clock = BackendClock(cursor.fetchone()[0])

    # Every statement, whichever cursor sends it: Django's (execute_wrapper), the loader's own psycopg cursors and
    # COPYs, and the commits.
    def django_statement(execute, sql, params, many, context):
        with clock.statement(sql):
            return execute(sql, params, many, context)

    original_execute, original_copy = psycopg.Cursor.execute, psycopg.Cursor.copy
    original_commit = psycopg.Connection.commit

    def execute(self, query, params=None, **kwargs):
        if type(self) is not psycopg.Cursor:  # Django's ClientCursor: counted by the execute_wrapper
            return original_execute(self, query, params, **kwargs)
        with clock.statement(query):
            return original_execute(self, query, params, **kwargs)

    @contextlib.contextmanager
    def copy(self, statement, *copy_args, **kwargs):
        with clock.statement(statement), original_copy(self, statement, *copy_args, **kwargs) as copier:
            yield copier

    def commit(self):
        with clock.statement("COMMIT"):
            return original_commit(self)

    psycopg.Cursor.execute, psycopg.Cursor.copy, psycopg.Connection.commit = execute, copy, commit

    parse_cpu = [0.0]
    # The import's parse step (``document_read``), where the pipeline looks it up: the services' own module since they
    # became a package, the services module before.
    pipeline = getattr(services, "importing", services)
    original_parse = pipeline.document_read

    def timed_parse(data, vocabulary, **kwargs):
        started = time.process_time()
        try:
            return original_parse(data, vocabulary, **kwargs)
        finally:
            parse_cpu[0] += time.process_time() - started

    pipeline.document_read = timed_parse

    n = len(files)
    with connection.execute_wrapper(django_statement):
        cpu, backend = time.process_time(), clock.now()
        batch = services.batch_create(origin=ImportBatch.Origin.CLI, label=str(folder))
        services.batch_receive(batch=batch, files=files, enqueue=False)
        receive = (time.process_time() - cpu, clock.now() - backend)
        clock.spent.clear()

        ids = sorted(batch.files.values_list("pk", flat=True))
        size = settings.INGEST_CHUNK_SIZE
        cpu, backend, wall = time.process_time(), clock.now(), time.perf_counter()
        summary = services.ImportSummary()
        for start in range(0, len(ids), size):
            summary.add(services.source_files_import(file_ids=ids[start : start + size], token=CLAIM_TOKEN))
        python, postgres, elapsed = time.process_time() - cpu, clock.now() - backend, time.perf_counter() - wall

    def ms(seconds: float) -> str:
        return f"{1000 * seconds / n:7.3f}"

    print(f"\n{n} profiles ({summary.line()}), chunks of {size}; ms per profile\n")
    print(f"receive (hash, store)      python {ms(receive[0])}   postgres {ms(receive[1])}")
    print(f"import: parse              python {ms(parse_cpu[0])}")
    print(f"import: load and record    python {ms(python - parse_cpu[0])}   postgres {ms(postgres)}")
    print(f"import: wall time                 {ms(elapsed)}")
    print("\npostgres CPU by statement (import):")
    for sql, (count, seconds) in sorted(clock.spent.items(), key=lambda item: -item[1][1])[:15]:
        print(f"  {ms(seconds)}  {count:5d}x  {sql}")


if __name__ == "__main__":
    main()
