"""The API under load while an import batch runs, with slow and long clients: the production serving setup on loopback.

    .venv/bin/python bench/load.py [--count 100000] [--clients 50] [--duration 60] [--import-files 2000]
                                   [--slow-clients 8] [--long-clients 4] [--nginx auto|on|off]

Loads (or reuses) ``count`` synthetic candidates with ``bench.dataset.ensure_dataset``, gives each client a user and
an API token of its own (throttling is per user), and serves the app as production does: gunicorn with the committed
``gunicorn.conf.py`` on a free loopback port, behind nginx with the committed ``deploy/nginx`` configuration when
nginx is installed (``--nginx auto``, Debian's package ``nginx``), and a Celery worker on a private queue. Then it
starts ``manage.py ingest`` on ``--import-files`` new synthetic profiles and, at the same time, for ``--warmup`` +
``--duration`` seconds:

- ``--clients`` asyncio clients (httpx), each sending a realistic mix of list, search, filter and detail requests as
  fast as it is answered;
- ``--slow-clients`` sockets that send a request's headers a byte a second and never finish them (a slowloris; the
  red team's 8 such sockets held every sync worker, issue 15, hole 5), reconnecting whenever the server closes them;
- ``--long-clients`` clients that each stream ``--long-url`` again and again, reading ``--long-read-mb`` MB a second
  (by default the JSON Lines export of the largest country a request may stream; the red team's 4 exports delayed
  /healthz by 32 s);
- a load balancer's probe: ``GET /healthz`` on a new connection every quarter of a second.

The slow sockets, the long clients and the probe go on alone for ``--attack-seconds`` after the API clients stop:
/healthz is reported in both windows (while 50 clients saturate the server, every request queues, /healthz's too).

Prints requests, statuses over all of them (5xx must be 0), latency percentiles (p50 / p95 / p99 / max) of the
``--duration`` seconds after the warm-up, overall and per kind of request, /healthz's latencies, the long requests'
and the slow sockets' counts, and the import's summary; ``--json PATH`` writes them too.
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
import shutil
import socket
import string
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
NGINX_TEMPLATE = BASE_DIR / "deploy" / "nginx" / "templates" / "default.conf.template"
HEALTHZ_INTERVAL = 0.25  # seconds between two probes
SLOW_HEADER = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\n"


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


def longest_streamed_export() -> str:
    """The JSON Lines export of the country with the most candidates that a request may still stream: larger exports
    are refused (EXPORT_STREAM_MAX_ROWS) and written by an export job instead."""
    from django.conf import settings
    from django.db import connection

    limit = getattr(settings, "EXPORT_STREAM_MAX_ROWS", None)
    if limit is None:
        return "/api/v1/candidates/export.jsonl"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT country_code FROM profiles_candidate WHERE country_code <> '' GROUP BY 1 HAVING count(*) <= %s "
            "ORDER BY count(*) DESC LIMIT 1",
            [limit],
        )
        row = cursor.fetchone()
    return f"/api/v1/candidates/export.jsonl?country={row[0]}" if row else "/api/v1/candidates/export.jsonl"


def client_tokens(clients: int) -> list[str]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    tokens = []
    for index in range(clients):
        user, _ = get_user_model().objects.get_or_create(username=f"load-client-{index:02d}")
        tokens.append(Token.objects.get_or_create(user=user)[0].key)
    return tokens


async def run_clients(
    base_url: str,
    tokens: list[str],
    mix: list[tuple[str, str, int]],
    duration: float,
    *,
    long_tokens: list[str] = (),
    long_url: str = "/api/v1/candidates/export.jsonl",
    long_read_rate: float = 4e6,
    slow_clients: int = 0,
    attack_seconds: float = 0,
) -> dict:
    """Each client loops over the weighted mix for ``duration`` seconds, while the long clients, the slow sockets and
    the /healthz probe run beside them, and then ``attack_seconds`` more on their own; returns every sample."""
    import httpx

    kinds = [kind for kind, _, weight in mix for _ in range(weight)]
    urls = [url for _, url, weight in mix for _ in range(weight)]
    samples: list[tuple[str, int, float, float]] = []  # (kind, status or 0 for a transport error, seconds, start)
    errors: Counter = Counter()
    healthz: list[tuple[int, float, float]] = []  # (status or 0, seconds, start)
    long_requests: list[tuple[int, float, int]] = []  # (status or 0, seconds, bytes)
    slow = Counter()
    began = time.monotonic()
    deadline = began + duration
    attack_deadline = deadline + attack_seconds
    host, port = base_url.removeprefix("http://").split(":")

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

    async def one_long_client(token: str) -> None:
        """Streams the whole answer at ``long_read_rate`` bytes a second (a client on a slow line, which also keeps this
        process's own work small), again and again; a stream still running at the end is left unfinished."""
        headers = {"Authorization": f"Token {token}", "X-Forwarded-Proto": "https"}
        async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=120) as client:
            while time.monotonic() < attack_deadline:
                started, size, status = time.perf_counter(), 0, 0
                try:
                    async with client.stream("GET", long_url) as response:
                        status = response.status_code
                        async for chunk in response.aiter_raw():
                            size += len(chunk)
                            if time.monotonic() >= attack_deadline:
                                # Still streaming at the end (a slow machine's export outlasts the attack): it counts.
                                long_requests.append((status, time.perf_counter() - started, size))
                                return
                            await asyncio.sleep(len(chunk) / long_read_rate)
                except httpx.HTTPError as exc:
                    errors[f"long: {type(exc).__name__}"] += 1
                    status = 0
                long_requests.append((status, time.perf_counter() - started, size))
                if status != 200:
                    await asyncio.sleep(1)  # refused (a 429 of the export limit): ask again a little later

    async def one_slow_socket() -> None:
        """A request's headers, a byte a second, never finished; a new connection whenever the server closes it."""
        while time.monotonic() < attack_deadline:
            try:
                reader, writer = await asyncio.open_connection(host, int(port))
            except OSError:
                slow["refused"] += 1
                await asyncio.sleep(1)
                continue
            slow["connections"] += 1
            try:
                for index in range(10**6):
                    if time.monotonic() >= attack_deadline:
                        return
                    byte = SLOW_HEADER[index : index + 1] or b"X"
                    writer.write(byte)
                    await writer.drain()
                    slow["bytes"] += 1
                    try:
                        await asyncio.wait_for(reader.read(1024), timeout=1.0)
                    except TimeoutError:
                        continue  # still waiting for the rest of the headers: one more byte
                    break  # the server answered (a 408) or closed the connection
            except OSError:
                pass
            finally:
                slow["closed_by_server"] += time.monotonic() < attack_deadline
                writer.close()

    async def probe_healthz() -> None:
        """A load balancer's health check: a new connection each time, as often as HEALTHZ_INTERVAL."""
        async with httpx.AsyncClient(
            base_url=base_url,
            headers={"X-Forwarded-Proto": "https"},
            timeout=60,
            limits=httpx.Limits(max_keepalive_connections=0),
        ) as client:
            while time.monotonic() < attack_deadline:
                offset = time.monotonic() - began
                started = time.perf_counter()
                try:
                    status = (await client.get("/healthz")).status_code
                except httpx.HTTPError as exc:
                    errors[f"healthz: {type(exc).__name__}"] += 1
                    status = 0
                seconds = time.perf_counter() - started
                healthz.append((status, seconds, offset))
                await asyncio.sleep(max(0.0, HEALTHZ_INTERVAL - seconds))

    started = time.monotonic()
    await asyncio.gather(
        *(one_client(i) for i in range(len(tokens))),
        *(one_long_client(token) for token in long_tokens),
        *(one_slow_socket() for _ in range(slow_clients)),
        probe_healthz(),
    )
    return {
        "samples": samples,
        "errors": errors,
        "elapsed": time.monotonic() - started,
        "healthz": healthz,
        "long_requests": long_requests,
        "slow": slow,
        "load_seconds": duration,
    }


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
        "healthz": _summarise_healthz(result["healthz"], result["load_seconds"]),
        "long_requests": {
            "finished": len(result["long_requests"]),
            "statuses": dict(sorted(Counter(str(status) for status, _, _ in result["long_requests"]).items())),
            "max_s": round(max((seconds for _, seconds, _ in result["long_requests"]), default=0), 1),
            "megabytes": round(sum(size for _, _, size in result["long_requests"]) / 1e6, 1),
        },
        "slow_sockets": dict(result["slow"]),
    }


def _summarise_healthz(probes: list[tuple[int, float, float]], load_seconds: float) -> dict:
    """Every probe counts, the warm-up's too: a load balancer takes a server out whenever it stops answering. Two
    windows: while the API clients saturate the server (every request then queues, /healthz's too), and the attack
    alone afterwards (the slow sockets and the long requests: the red team's handful of requests), from a second after
    the API clients stopped."""

    def window(seconds: list[float]) -> dict:
        return {
            "probes": len(seconds),
            "p50_ms": round(1000 * percentile(seconds, 50), 1),
            "p99_ms": round(1000 * percentile(seconds, 99), 1),
            "max_ms": round(1000 * max(seconds, default=0), 1),
        }

    return {
        "probes": len(probes),
        "failed": sum(1 for status, _, _ in probes if status != 200),
        "under_load": window([s for status, s, offset in probes if status == 200 and offset < load_seconds]),
        "attack_only": window([s for status, s, offset in probes if status == 200 and offset >= load_seconds + 1]),
    }


def wait_until_healthy(base_url: str, processes: list[subprocess.Popen], timeout: float = 60) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError(f"{process.args[0]} exited before answering")
        try:
            if httpx.get(f"{base_url}/healthz", headers={"X-Forwarded-Proto": "https"}, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{base_url}/healthz did not answer")


def nginx_config(
    directory: Path, *, listen: str, upstream: str, max_upload_bytes: int, trusted_proxy: str = "127.0.0.1/32"
) -> Path:
    """The committed server configuration (deploy/nginx), rendered as the nginx image renders its templates (its
    ``${...}`` from the environment), inside a main configuration that keeps the pid, logs and temporary files in
    ``directory``. Returns the main configuration's path."""
    template = NGINX_TEMPLATE.read_text()
    values = {
        "NGINX_PORT": listen,
        "TALENTDB_UPSTREAM": upstream,
        "NGINX_TRUSTED_PROXY": trusted_proxy,
        "INGEST_MAX_UPLOAD_BYTES": str(max_upload_bytes),
    }
    missing = [name for name in values if f"${{{name}}}" not in template]
    if missing:
        raise RuntimeError(f"{NGINX_TEMPLATE} no longer names {missing}")
    (directory / "default.conf").write_text(string.Template(template).safe_substitute(values))
    # Run as root, nginx's workers become nobody: they must reach the directory and write its temporary files.
    directory.chmod(0o755)
    temp = {name: directory / name for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir(exist_ok=True)
        path.chmod(0o777)
    main = directory / "nginx.conf"
    main.write_text(
        f"""worker_processes 2;
pid {directory / "nginx.pid"};
error_log {directory / "nginx-error.log"} warn;
events {{
    worker_connections 4096;
}}
http {{
    access_log off;
    client_body_temp_path {temp["client_body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    include {directory / "default.conf"};
}}
"""
    )
    return main


def gunicorn_command(port: int, *, workers: int | None, threads: int | None, worker_class: str | None) -> list[str]:
    """gunicorn with the committed gunicorn.conf.py, on a loopback port; options given here win over the file."""
    command = [sys.executable, "-m", "gunicorn", "-c", str(BASE_DIR / "gunicorn.conf.py")]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    for option, value in (("--workers", workers), ("--threads", threads), ("--worker-class", worker_class)):
        if value is not None:
            command += [option, str(value)]
    return command


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000, help="candidates in the database")
    parser.add_argument("--clients", type=int, default=50, help="concurrent API clients")
    parser.add_argument("--duration", type=float, default=60, help="seconds of load")
    parser.add_argument("--import-files", type=int, default=2000, help="profiles imported during the load")
    parser.add_argument("--warmup", type=float, default=10, help="seconds of load before --duration is measured")
    parser.add_argument("--slow-clients", type=int, default=8, help="sockets sending their headers a byte a second")
    parser.add_argument("--long-clients", type=int, default=4, help="clients streaming --long-url again and again")
    parser.add_argument(
        "--long-url",
        help="what the long clients stream (default: the JSON Lines export of the largest country one may stream)",
    )
    parser.add_argument(
        "--attack-seconds", type=float, default=30, help="seconds of the slow and long clients alone, after the load"
    )
    parser.add_argument("--long-read-mb", type=float, default=4, help="MB a second each long client reads")
    parser.add_argument(
        "--nginx", choices=["auto", "on", "off"], default="auto", help="nginx in front of gunicorn (auto: if installed)"
    )
    parser.add_argument("--gunicorn-workers", type=int, help="instead of gunicorn.conf.py's (WEB_CONCURRENCY, 4)")
    parser.add_argument("--gunicorn-threads", type=int, help="instead of gunicorn.conf.py's (GUNICORN_THREADS, 8)")
    parser.add_argument(
        "--gunicorn-worker-class", help="instead of gunicorn.conf.py's gthread (sync: gunicorn before issue 15)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    nginx = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")
    if args.nginx == "on" and not nginx:
        parser.error("--nginx on: nginx is not installed (Debian's package nginx)")
    use_nginx = bool(nginx) and args.nginx != "off"

    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    database_url = ensure_dataset(args.count)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request
    from django.conf import settings
    from django.db import connection
    from django.utils import timezone

    from devtools.synthetic import write_profiles
    from ingestion.models import ImportBatch
    from profiles.models import Candidate

    tokens = client_tokens(args.clients + args.long_clients)
    tokens, long_tokens = tokens[: args.clients], tokens[args.clients :]
    mix = request_mix()
    long_url = args.long_url or longest_streamed_export()
    candidates_before = Candidate.objects.count()
    connection.close()

    gunicorn_port = free_port()
    port = free_port() if use_nginx else gunicorn_port
    base_url = f"http://127.0.0.1:{port}"
    queue = f"talentdb-load-{os.getpid()}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": settings.REDIS_URL,
        "DEBUG": "0",  # production behaviour; DEBUG=1 in the caller's environment only spared a SECRET_KEY
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        # Every task on one private queue, which the one worker below consumes.
        "CELERY_DEFAULT_QUEUE": queue,
        "CELERY_INGEST_QUEUE": queue,
        "CELERY_EXPORT_QUEUE": queue,
        "CONN_MAX_AGE": "60",
        "TRUSTED_PROXY_COUNT": "1" if use_nginx else "0",
        "GUNICORN_ACCESS_LOG": "",  # a line per request would cost the server more than some requests do
    }
    log_dir = Path(tempfile.mkdtemp(prefix="talentdb-load-"))
    profiles = log_dir / "profiles"
    write_profiles(profiles, args.import_files, seed=IMPORT_SEED)
    servers = [
        subprocess.Popen(
            gunicorn_command(
                gunicorn_port,
                workers=args.gunicorn_workers,
                threads=args.gunicorn_threads,
                worker_class=args.gunicorn_worker_class,
            ),
            cwd=BASE_DIR,
            env=env,
            stdout=(log_dir / "gunicorn.log").open("w"),
            stderr=subprocess.STDOUT,
        )
    ]
    if use_nginx:
        config = nginx_config(
            log_dir,
            listen=f"127.0.0.1:{port}",
            upstream=f"127.0.0.1:{gunicorn_port}",
            max_upload_bytes=settings.INGEST_MAX_UPLOAD_BYTES,
        )
        servers.append(
            subprocess.Popen(
                [nginx, "-p", str(log_dir), "-c", str(config), "-g", "daemon off;"],
                stdout=(log_dir / "nginx.log").open("w"),
                stderr=subprocess.STDOUT,
            )
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
        wait_until_healthy(base_url, servers)
        ingest_started_at = timezone.now()
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
        result = asyncio.run(
            run_clients(
                base_url,
                tokens,
                mix,
                args.warmup + args.duration,
                long_tokens=long_tokens,
                long_url=long_url,
                long_read_rate=args.long_read_mb * 1e6,
                slow_clients=args.slow_clients,
                attack_seconds=args.attack_seconds,
            )
        )
        ingest_output, _ = ingest.communicate(timeout=args.duration * 10 + 660)
        import_seconds = time.monotonic() - import_started
    finally:
        for process in (ingest, *servers, worker):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=60)

    figures = summarise(result, args.warmup)
    # The command's batch: its label names no file or folder, so it is the command-line batch created since it began.
    batch = (
        ImportBatch.objects.filter(origin=ImportBatch.Origin.CLI, created_at__gte=ingest_started_at)
        .order_by("created_at")
        .first()
    )
    summary_line = ingest_output.strip().splitlines()[-1] if ingest_output.strip() else ""
    figures.update(
        candidates=candidates_before,
        clients=args.clients,
        duration_s=args.duration,
        serving=("nginx, then " if use_nginx else "")
        + f"gunicorn (gunicorn.conf.py{', ' + args.gunicorn_worker_class if args.gunicorn_worker_class else ''})",
        nginx=use_nginx,
        slow_clients=args.slow_clients,
        long_clients=args.long_clients,
        long_url=long_url,
        attack_seconds=args.attack_seconds,
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
        f"{f['candidates']:,} candidates ({f['serving']} on loopback) while importing {f['import_files']} files, "
        f"with {f['slow_clients']} slow-header sockets and {f['long_clients']} clients streaming {f['long_url']} "
        f"(then {f['attack_seconds']:.0f} s of these alone): "
        f"{f['requests']} requests ({f['requests_per_second']}/s), statuses {f['statuses']}, "
        f"5xx = {f['server_errors']}, transport errors = {transport_errors}; "
        f"warm-up: {f['warmup_requests']} requests, slowest {f['warmup_max_ms']} ms; "
        f"measured: p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms, p99 {f['p99_ms']} ms, max {f['max_ms']} ms"
    )
    for kind, row in f["by_kind"].items():
        print(f"  {kind:<16} {row['requests']:>6} requests  p50 {row['p50_ms']:>8} ms  p99 {row['p99_ms']:>8} ms")
    h, long, slow = f["healthz"], f["long_requests"], f["slow_sockets"]
    print(f"  /healthz: {h['probes']} probes, {h['failed']} failed")
    for name, label in (("under_load", "with the API clients"), ("attack_only", "the attack alone")):
        w = h[name]
        print(
            f"    {label:<22} {w['probes']:>4} probes  p50 {w['p50_ms']:>8} ms  p99 {w['p99_ms']:>8} ms  "
            f"max {w['max_ms']:>8} ms"
        )
    print(
        f"  long requests: {long['finished']} finished, statuses {long['statuses']}, longest {long['max_s']} s, "
        f"{long['megabytes']} MB; slow sockets: {slow}"
    )
    print(
        f"  import: {f['import_summary']!r} in {f['import_seconds']} s, unfinished files = "
        f"{f['import_unfinished_files']}, logs in {f['logs']}"
    )


if __name__ == "__main__":
    main()
