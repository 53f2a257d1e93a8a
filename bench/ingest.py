"""Ingestion throughput: parsing alone, end to end through Celery into PostgreSQL, and COPY of the same rows.

    DEBUG=1 .venv/bin/python bench/ingest.py [--count 20000] [--cvs 0] [--workers 2] [--concurrency 1]

Generates N synthetic profiles with ``generate_profiles``, imports them into a fresh database ``talentdb_bench_ingest``
with real Celery workers, and prints profiles per second for each stage plus the workers' peak memory.

``--cvs M`` adds M fictional CVs to the mix (``devtools.cvs.write_cvs``: two-column PDFs, PDFs and DOCX files, two
pages each), and first times the parsing of one two-page PDF CV in this process (CPU, the median of many).

``--workers`` is how many ``celery worker`` processes consume the ingest queue, as that many ingest-worker containers
or hosts would (docker-compose.yml); ``--concurrency`` is the prefork processes of each. The default, 2 x 1, runs
the same two import processes as the ``Celery x2`` of the earlier figures (one worker of concurrency 2).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import _django

DATABASE = "talentdb_bench_ingest"


def _parse_file(path: str) -> int:
    from ingestion.documents import ParseError
    from ingestion.parsers import parse

    try:
        doc = parse(Path(path).read_bytes(), vocabulary=_VOCABULARY)
    except ParseError:
        return 0
    return len(doc.skills)


_VOCABULARY: frozenset[str] = frozenset()


def _init_parser(vocabulary: frozenset[str]) -> None:
    global _VOCABULARY
    _VOCABULARY = vocabulary


def _time_pdf_cv(vocabulary: frozenset[str], runs: int = 50) -> None:
    """The parse of one two-page PDF CV (text extraction, columns, reader), in this process: CPU time, median."""
    import io
    import statistics

    from pypdf import PdfReader

    from devtools.cvs import cv_pdf, sample_cv
    from ingestion.parsers import parse

    for columns in (1, 2):
        data = cv_pdf(sample_cv(), columns=columns)
        pages = len(PdfReader(io.BytesIO(data)).pages)
        parse(data, vocabulary=vocabulary)  # the first parse fills the caches a worker keeps warm
        times = []
        for run in range(runs):
            # Other bytes each run (a comment after the end), as an import parses each file once: the registry keeps
            # the last file's text, and the same bytes again would time the reader without the PDF's extraction.
            copy = data + b"%% copy %d\n" % run
            started = time.process_time()
            parse(copy, vocabulary=vocabulary)
            times.append(time.process_time() - started)
        print(
            f"PDF CV of {pages} pages, {columns} column(s), {len(data):,} bytes: parse median "
            f"{1000 * statistics.median(times):.1f} ms CPU, slowest {1000 * max(times):.1f} ms "
            f"({runs} runs, one process)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2, help="celery worker processes consuming the ingest queue")
    parser.add_argument("--concurrency", type=int, default=1, help="prefork processes of each worker")
    parser.add_argument("--cvs", type=int, default=0, help="fictional PDF and DOCX CVs added to the profiles")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--database", default=DATABASE, help="dropped and created afresh: one of its own for each concurrent run"
    )
    args = parser.parse_args()

    # Before Django is set up: this process sends the chunks to a private ingest queue, which the workers consume.
    queue = f"bench-{os.getpid()}"
    os.environ["CELERY_INGEST_QUEUE"] = f"{queue}-ingest"
    os.environ["CELERY_DEFAULT_QUEUE"] = f"{queue}-default"
    os.environ["CELERY_EXPORT_QUEUE"] = f"{queue}-exports"
    url = _django.fresh_database(args.database)
    import psutil
    from django.db import connection

    from devtools.synthetic import write_profiles
    from ingestion import services
    from ingestion.models import ImportBatch
    from profiles.models import Candidate
    from profiles.vocabulary_copy import skill_vocabulary

    out = Path(tempfile.mkdtemp(prefix="talentdb-bench-"))
    started = time.perf_counter()
    write_profiles(out, args.count, seed=args.seed)
    if args.cvs:
        from devtools.cvs import write_cvs

        write_cvs(out, args.cvs)
    files = sorted(str(p) for p in out.iterdir())
    print(f"generated {len(files)} files in {time.perf_counter() - started:.1f} s ({out})")

    vocabulary = skill_vocabulary().words
    if args.cvs:
        _time_pdf_cv(vocabulary)
    rows = []
    for processes in (1, 2):
        started = time.perf_counter()
        with Pool(processes, initializer=_init_parser, initargs=(vocabulary,)) as pool:
            parsed = sum(1 for n in pool.imap_unordered(_parse_file, files, chunksize=200) if n >= 0)
        elapsed = time.perf_counter() - started
        rows.append((f"parse only, {processes} process(es)", parsed / elapsed, ""))

    from django.conf import settings

    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1"}
    command = _django.celery_worker_command(queue=settings.INGEST_QUEUE, concurrency=args.concurrency)
    workers = [
        subprocess.Popen([*command, "-n", f"bench-ingest-{i}@%h"], env=env, cwd=_django.BASE_DIR)
        for i in range(args.workers)
    ]
    shape = f"{args.workers} ingest worker process(es) x concurrency {args.concurrency}"
    print(f"{shape}: {' '.join(command[1:])}")
    time.sleep(3)  # the workers connect to the broker
    try:
        started = time.perf_counter()
        batch = services.batch_create(origin=ImportBatch.Origin.FOLDER, label=str(out))
        services.batch_receive(batch=batch, files=services.iter_folder([out]))
        received = time.perf_counter() - started
        peak_rss = 0
        while True:
            batch.refresh_from_db()
            if batch.finished_at:
                break
            for worker in workers:
                tree = [psutil.Process(worker.pid), *psutil.Process(worker.pid).children(recursive=True)]
                peak_rss = max(peak_rss, max(p.memory_info().rss for p in tree))
            time.sleep(0.2)
        elapsed = time.perf_counter() - started
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)
    summary = services.batch_summary(batch=batch)
    rows.append(("store files (receive, sha256, bytea)", len(files) / received, ""))
    rows.append(
        (
            f"end to end: receive + {args.workers} worker(s) x{args.concurrency} + load",
            len(files) / elapsed,
            f"{summary.line()}; peak RSS of one worker process {peak_rss / 2**20:.0f} MiB",
        )
    )

    # The database's own ceiling: COPY the same normalised rows into empty copies of the tables.
    tables = [
        "profiles_candidate",
        "profiles_candidateskill",
        "profiles_contribution",
        "profiles_education",
        "profiles_position",
        "profiles_spokenlanguage",
        "profiles_candidateidentifier",
    ]
    with connection.cursor() as cursor:
        total_rows = 0
        started = time.perf_counter()
        for table in tables:
            cursor.execute(f"CREATE TEMP TABLE copy_{table} (LIKE {table} INCLUDING ALL)")
            data = bytearray()
            with cursor.cursor.copy(f"COPY {table} TO STDOUT") as copy:
                for block in copy:
                    data += block
            with cursor.cursor.copy(f"COPY copy_{table} FROM STDIN") as copy:
                copy.write(bytes(data))
            cursor.execute(f"SELECT count(*) FROM copy_{table}")
            total_rows += cursor.fetchone()[0]
        copy_elapsed = time.perf_counter() - started
    candidates = Candidate.objects.count()
    rows.append(
        (
            "PostgreSQL COPY of the same rows",
            candidates / copy_elapsed,
            f"{total_rows} rows, {total_rows / copy_elapsed:,.0f} rows/s",
        )
    )

    mix = f" + {args.cvs} CVs" if args.cvs else ""
    print(f"\n{args.count} profiles{mix}, {os.cpu_count()} cores, {shape}")
    print(f"{'stage':<48} {'profiles/s':>12}  notes")
    for name, rate, note in rows:
        print(f"{name:<48} {rate:>12,.0f}  {note}")


if __name__ == "__main__":
    main()
