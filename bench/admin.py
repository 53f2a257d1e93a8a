"""Admin latency at scale: the candidate changelist with and without filters, next to the SQL it runs.

    DEBUG=1 .venv/bin/python bench/admin.py [--count 1000000] [--requests 50]

Loads (or reuses) ``count`` synthetic candidates with ``bench.dataset.ensure_dataset``, logs a superuser in, and for
each changelist URL: times it ``--requests`` times through Django's test client (middleware, session, the shared
filters, estimated counts, the sidebar, template rendering: everything but the socket), captures its SQL, and times
each statement run directly on a cursor. Prints p50 / p99 per URL and, per URL, its statements with their p50, so
the slow one is easy to find. Requests run with DEBUG off whatever the environment says. Goal: p50 under 150 ms.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dataset import ensure_dataset

CHANGELIST = "/admin/profiles/candidate/"


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _pick(sql: str) -> list:
    """First column of a query over a 1 % sample of the table (``{sample}``), or of the whole table if that is empty."""
    from django.db import connection

    with connection.cursor() as cursor:
        for sample in ("TABLESAMPLE SYSTEM (1)", ""):
            cursor.execute(sql.format(sample=sample))
            rows = cursor.fetchall()
            if rows:
                return [row[0] for row in rows]
    raise RuntimeError(f"no data for {sql}")


def scenarios() -> list[tuple[str, str]]:
    """(label, URL): filters with values picked from the loaded data."""
    [country] = _pick(
        "SELECT country_code FROM profiles_candidate {sample} WHERE country_code <> '' GROUP BY 1 "
        "ORDER BY count(*) DESC LIMIT 1"
    )
    first, second = _pick(
        "SELECT s.slug FROM profiles_candidateskill cs {sample} JOIN profiles_skill s ON s.id = cs.skill_id "
        "GROUP BY s.slug ORDER BY count(*) DESC LIMIT 2"
    )
    [school] = _pick(
        "SELECT school FROM profiles_education {sample} WHERE school <> '' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    )
    [badge] = _pick(
        "SELECT v FROM profiles_candidate {sample}, unnest(badges) AS v GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    )
    from urllib.parse import quote

    return [
        ("no filter (newest first)", CHANGELIST),
        ("no filter, page 20", f"{CHANGELIST}?p=20"),
        ("no filter, sorted by name", f"{CHANGELIST}?o=1"),
        (f"country={country}", f"{CHANGELIST}?country={country}"),
        (f"skill={first}:8 (the most common skill)", f"{CHANGELIST}?skill={first}:8"),
        (
            f"skill={first}:7&skill={second}:5&country={country}, 6–10 years",
            f"{CHANGELIST}?skill={first}:7&skill={second}:5&country={country}&min_years_coding=6&max_years_coding=10",
        ),
        (f"badge={badge}", f"{CHANGELIST}?badge={quote(badge)}"),
        (f"school={school}", f"{CHANGELIST}?school={quote(school)}"),
        ('search q="distributed systems"', f"{CHANGELIST}?q=distributed%20systems"),
        ("possible duplicates, first 200 names", f"{CHANGELIST}duplicates/"),
    ]


def measure(client, url: str, requests: int) -> tuple[list[float], list[float], list[tuple[str, list[float]]], str]:
    """Stack timings (wall clock and this process's CPU), each statement with its raw timings, and the count shown
    on the page. On a busy machine the CPU time tells the page's own cost apart from waiting for a core."""
    from django.db import DatabaseError, connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm caches and the connection
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    html = response.content.decode()
    paginator = re.search(r'<p class="paginator">(.*?)</p>', html, re.S)
    count = paginator and re.search(r"(about )?(\d+)\s+candidate", re.sub(r"<[^>]+>", "", paginator.group(1)))
    shown = f"{count.group(1) or ''}{int(count.group(2)):,}" if count else f"{html.count('duplicate-group')} groups"
    statements = [query["sql"] for query in captured.captured_queries]
    stack: list[float] = []
    cpu: list[float] = []
    for _ in range(requests):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        stack.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    raw: list[tuple[str, list[float]]] = [(sql, []) for sql in statements]
    with connection.cursor() as cursor:
        for _ in range(requests):
            for sql, timings in raw:
                started = time.perf_counter()
                try:
                    cursor.execute(sql)
                    if cursor.description:  # BEGIN / COMMIT around the time-boxed count return nothing
                        cursor.fetchall()
                except DatabaseError:  # the time-boxed count, cancelled as in the request; COMMIT follows
                    pass
                timings.append(time.perf_counter() - started)
    return stack, cpu, raw, shown


def short(sql: str, width: int = 160) -> str:
    text = " ".join(sql.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1_000_000, help="candidates in the benchmark database")
    parser.add_argument("--requests", type=int, default=50, help="timed requests per URL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sql", action="store_true", help="print every statement in full, not shortened")
    args = parser.parse_args()

    ensure_dataset(args.count, seed=args.seed)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    import talentdb.wsgi  # noqa: F401 - set the process up as the WSGI server does (its GC freeze included)

    settings.DEBUG = False
    settings.SECURE_SSL_REDIRECT = False
    user, _ = get_user_model().objects.get_or_create(
        username="bench-admin", defaults={"is_staff": True, "is_superuser": True}
    )
    client = Client(SERVER_NAME="localhost")
    client.force_login(user)

    results = []
    print(f"\n{args.count:,} candidates, {args.requests} requests per URL (ms, server time)\n")
    print("| changelist | shown | p50 | p99 | Django CPU p50 | queries | SQL p50 (sum) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, url in scenarios():
        stack, cpu, raw, shown = measure(client, url, args.requests)
        s50, s99, c50 = 1000 * percentile(stack, 50), 1000 * percentile(stack, 99), 1000 * percentile(cpu, 50)
        sql50 = sum(1000 * percentile(timings, 50) for _, timings in raw)
        print(f"| {label} | {shown} | {s50:.1f} | {s99:.1f} | {c50:.1f} | {len(raw)} | {sql50:.1f} |", flush=True)
        results.append((label, url, raw))
    print("\nStatements per URL (p50 ms each):\n")
    for label, url, raw in results:
        print(f"- `{url}` ({label})")
        for sql, timings in raw:
            text = " ".join(sql.split()) if args.sql else short(sql)
            print(f"  - {1000 * percentile(timings, 50):.1f} ms: `{text}`")


if __name__ == "__main__":
    main()
