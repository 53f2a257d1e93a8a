"""The API under load while an import batch runs: concurrent clients against gunicorn on loopback.

    .venv/bin/python bench/load.py [--count 100000] [--clients 50] [--duration 60] [--import-files 2000]

Loads (or reuses) ``count`` synthetic candidates with ``bench.dataset.ensure_dataset``, gives each client a user and
an API token of its own (throttling is per token), starts gunicorn on a free loopback port and a Celery worker on a
private queue, then starts ``manage.py ingest`` on ``--import-files`` new synthetic profiles and, at the same time,
runs ``--clients`` asyncio clients (httpx) for ``--duration`` seconds, each sending a realistic mix of list, search,
filter and detail requests as fast as it is answered. Prints requests, statuses over all of them (5xx must be 0),
latency percentiles (p50 / p95 / p99 / max) of the ``--duration`` seconds after ``--warmup`` seconds of the same load,
overall and per kind of request, and the
import's summary; ``--json PATH`` writes them too.
The batch's files and candidates are deleted afterwards, so the database stays at ``count`` candidates.
Every request goes to 127.0.0.1; the loops end at the deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from random import Random

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench import _django  # noqa: E402
from bench.dataset import ensure_dataset  # noqa: E402

IMPORT_SEED = 424242  # people the dataset does not hold: the batch creates candidates


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] if ordered else 0.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request_mix(seed: int = 7) -> list[tuple[str, str, int]]:
    """(kind, URL, weight) with values picked from the loaded data, as recruiters' tools would send them."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT country_code FROM profiles_candidate TABLESAMPLE SYSTEM (2) WHERE country_code <> '' "
            "GROUP BY 1 ORDER BY count(*) DESC LIMIT 3"
        )
        countries = [row[0] for row in cursor.fetchall()]
        cursor.execute(
            "SELECT s.slug FROM profiles_candidateskill cs TABLESAMPLE SYSTEM (1) JOIN profiles_skill s "
            "ON s.id = cs.skill_id GROUP BY 1 ORDER BY count(*) DESC LIMIT 6"
        )
        skills = [row[0] for row in cursor.fetchall()]
        cursor.execute("SELECT full_name FROM profiles_repository ORDER BY id LIMIT 20")
        repositories = [row[0] for row in cursor.fetchall()]
        cursor.execute("SELECT id FROM profiles_candidate TABLESAMPLE SYSTEM (2) LIMIT 2000")
        ids = [row[0] for row in cursor.fetchall()]
    rnd = Random(seed)
    mix: list[tuple[str, str, int]] = [("list", "/api/v1/candidates/", 2)]
    for country in countries:
        first, second = rnd.sample(skills, 2)
        mix.append(("skills+country", f"/api/v1/candidates/?skill={first}:7&skill={second}:5&country={country}", 2))
    for words in ("distributed systems", "machine learning", "kubernetes"):
        mix.append(("full-text q", f"/api/v1/candidates/?q={words.replace(' ', '%20')}", 2))
    for repository in rnd.sample(repositories, min(3, len(repositories))):
        mix.append(("repository", f"/api/v1/candidates/?repository={repository}", 1))
    for pk in rnd.sample(ids, min(40, len(ids))):
        mix.append(("detail", f"/api/v1/candidates/{pk}/", 1))
    mix.append(("skills", "/api/v1/skills/?search=py", 1))
    return mix


def client_tokens(clients: int) -> list[str]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    tokens = []
    for index in range(clients):
        user, _ = get_user_model().objects.get_or_create(username=f"load-client-{index:02d}")
        tokens.append(Token.objects.get_or_create(user=user)[0].key)
    return tokens


async def run_clients(base_url: str, tokens: list[str], mix: list[tuple[str, str, int]], duration: float) -> dict:
    """Each client loops over the weighted mix until the deadline; returns every sample."""
    import httpx

    kinds = [kind for kind, _, weight in mix for _ in range(weight)]
    urls = [url for _, url, weight in mix for _ in range(weight)]
    samples: list[tuple[str, int, float, float]] = []  # (kind, status or 0 for a transport error, seconds, start)
    errors: Counter = Counter()
    began = time.monotonic()
    deadline = began + duration

    async def one_client(index: int) -> None:
        rnd = Random(index)
        headers = {"Authorization": f"Token {tokens[index]}", "X-Forwarded-Proto": "https"}  # as behind the TLS proxy
        async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=60) as client:
            while time.monotonic() < deadline:
                pick = rnd.randrange(len(urls))
                offset = time.monotonic() - began
                started = time.perf_counter()
                try:
                    response = await client.get(urls[pick])
                    status = response.status_code
                except httpx.HTTPError as exc:
                    errors[type(exc).__name__] += 1
                    status = 0
                samples.append((kinds[pick], status, time.perf_counter() - started, offset))

    started = time.monotonic()
    await asyncio.gather(*(one_client(i) for i in range(len(tokens))))
    return {"samples": samples, "errors": errors, "elapsed": time.monotonic() - started}


def summarise(result: dict, warmup: float) -> dict:
    """Statuses over every request; latencies of the requests sent after the warm-up (gunicorn's workers load Django
    and open their connections on their first requests: the first wave of 50 waits for that)."""
    samples = result["samples"]
    statuses = Counter(status for _, status, _, _ in samples)
    warm = [(kind, seconds) for kind, status, seconds, offset in samples if status and offset >= warmup]
    latencies = [seconds for _, seconds in warm]
    cold = [seconds for _, status, seconds, offset in samples if status and offset < warmup]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for kind, seconds in warm:
        by_kind[kind].append(seconds)
    return {
        "requests": len(samples),
        "requests_per_second": round(len(samples) / result["elapsed"], 1),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "server_errors": sum(n for status, n in statuses.items() if status >= 500),
        "transport_errors": dict(result["errors"]),
        "warmup_s": warmup,
        "warmup_requests": len(cold),
        "warmup_max_ms": round(1000 * max(cold, default=0), 1),
        "p50_ms": round(1000 * percentile(latencies, 50), 1),
        "p95_ms": round(1000 * percentile(latencies, 95), 1),
        "p99_ms": round(1000 * percentile(latencies, 99), 1),
        "max_ms": round(1000 * max(latencies, default=0), 1),
        "by_kind": {
            kind: {
                "requests": len(values),
                "p50_ms": round(1000 * percentile(values, 50), 1),
                "p99_ms": round(1000 * percentile(values, 99), 1),
            }
            for kind, values in sorted(by_kind.items())
        },
    }


def wait_until_healthy(base_url: str, process: subprocess.Popen, timeout: float = 60) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited before answering")
        try:
            if httpx.get(f"{base_url}/healthz", headers={"X-Forwarded-Proto": "https"}, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError("gunicorn did not answer /healthz")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000, help="candidates in the database")
    parser.add_argument("--clients", type=int, default=50, help="concurrent API clients")
    parser.add_argument("--duration", type=float, default=60, help="seconds of load")
    parser.add_argument("--import-files", type=int, default=2000, help="profiles imported during the load")
    parser.add_argument("--warmup", type=float, default=10, help="seconds of load before --duration is measured")
    parser.add_argument("--gunicorn-workers", type=int, default=4, help="as docker-compose.yml runs it")
    parser.add_argument("--gunicorn-threads", type=int, default=1, help="more than 1: gthread workers")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    database_url = ensure_dataset(args.count)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request
    from django.conf import settings
    from django.db import connection

    from devtools.synthetic import write_profiles
    from ingestion.models import ImportBatch
    from profiles.models import Candidate

    tokens = client_tokens(args.clients)
    mix = request_mix()
    candidates_before = Candidate.objects.count()
    connection.close()

    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    queue = f"talentdb-load-{os.getpid()}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": settings.REDIS_URL,
        "DEBUG": "0",  # production behaviour; DEBUG=1 in the caller's environment only spared a SECRET_KEY
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CELERY_QUEUE": queue,
        "CONN_MAX_AGE": "60",
    }
    log_dir = Path(tempfile.mkdtemp(prefix="talentdb-load-"))
    profiles = log_dir / "profiles"
    write_profiles(profiles, args.import_files, seed=IMPORT_SEED)
    gunicorn = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "talentdb.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.gunicorn_workers),
            "--threads",
            str(args.gunicorn_threads),
            "--worker-class",
            "gthread" if args.gunicorn_threads > 1 else "sync",
            "--timeout",
            "120",
            "--log-level",
            "warning",
        ],
        cwd=BASE_DIR,
        env=env,
        stdout=(log_dir / "gunicorn.log").open("w"),
        stderr=subprocess.STDOUT,
    )
    worker = subprocess.Popen(
        _django.celery_worker_command(queue=queue, concurrency=1),
        cwd=BASE_DIR,
        env=env,
        stdout=(log_dir / "worker.log").open("w"),
        stderr=subprocess.STDOUT,
    )
    ingest = None
    try:
        wait_until_healthy(base_url, gunicorn)
        ingest = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "ingest",
                "--no-progress",
                "--timeout",
                str(int(args.duration * 10 + 600)),
                str(profiles),
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        import_started = time.monotonic()
        result = asyncio.run(run_clients(base_url, tokens, mix, args.warmup + args.duration))
        ingest_output, _ = ingest.communicate(timeout=args.duration * 10 + 660)
        import_seconds = time.monotonic() - import_started
    finally:
        for process in (ingest, gunicorn, worker):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=60)

    figures = summarise(result, args.warmup)
    batch = ImportBatch.objects.filter(label=str(profiles)).first()
    summary_line = ingest_output.strip().splitlines()[-1] if ingest_output.strip() else ""
    figures.update(
        candidates=candidates_before,
        clients=args.clients,
        duration_s=args.duration,
        import_files=args.import_files,
        import_summary=summary_line,
        import_exit_code=ingest.returncode,
        import_seconds=round(import_seconds, 1),
        import_unfinished_files=batch.files.exclude(status__in=["imported", "unchanged", "failed"]).count()
        if batch
        else None,
        logs=str(log_dir),
    )
    if batch is not None:  # leave the dataset as it was: the next run imports the same people again
        Candidate.objects.filter(sources__batch=batch).delete()
        batch.files.all().delete()
        batch.delete()
    print_figures(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return figures


def print_figures(f: dict) -> None:
    transport_errors = sum(f["transport_errors"].values())
    print(
        f"\n[load] {f['clients']} clients x {f['duration_s']:.0f} s (+ {f['warmup_s']:.0f} s warm-up) on "
        f"{f['candidates']:,} candidates (gunicorn on loopback) while importing {f['import_files']} files: "
        f"{f['requests']} requests ({f['requests_per_second']}/s), statuses {f['statuses']}, "
        f"5xx = {f['server_errors']}, transport errors = {transport_errors}; "
        f"warm-up: {f['warmup_requests']} requests, slowest {f['warmup_max_ms']} ms; "
        f"measured: p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms, p99 {f['p99_ms']} ms, max {f['max_ms']} ms"
    )
    for kind, row in f["by_kind"].items():
        print(f"  {kind:<16} {row['requests']:>6} requests  p50 {row['p50_ms']:>8} ms  p99 {row['p99_ms']:>8} ms")
    print(
        f"  import: {f['import_summary']!r} in {f['import_seconds']} s, unfinished files = "
        f"{f['import_unfinished_files']}, logs in {f['logs']}"
    )


if __name__ == "__main__":
    main()
