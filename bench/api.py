"""API latency at scale: representative requests through the full Django stack, next to their SQL run raw.

    DEBUG=1 .venv/bin/python bench/api.py [--count 1000000] [--requests 200]

Loads (or reuses) ``count`` synthetic candidates with ``bench.dataset.ensure_dataset``, then for each request:
times it ``--requests`` times through Django's test client (URL routing, middleware, token authentication,
throttling, filters, serializers, JSON rendering: everything but the socket), captures the SQL it ran, and times the
same statements run directly on a database cursor (fetching every row). Prints p50 / p99 of both and their ratio.
Requests run with DEBUG off (as in production) whatever the environment says; DEBUG=1 only spares a SECRET_KEY.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dataset import ensure_dataset


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def scenarios(count: int) -> list[tuple[str, list[str], int]]:
    """(label, URLs to cycle through, divisor of the request count): values picked from the loaded data."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT country_code FROM profiles_candidate TABLESAMPLE SYSTEM (1) GROUP BY 1 ORDER BY count(*) DESC "
            "LIMIT 1"
        )
        [country] = cursor.fetchone()
        cursor.execute(
            "SELECT r.full_name FROM profiles_repository r ORDER BY (SELECT count(*) FROM profiles_contribution c "
            "WHERE c.repository_id = r.id) DESC, r.id LIMIT 1"
        )
        [repository] = cursor.fetchone()
        cursor.execute("SELECT id FROM profiles_candidate TABLESAMPLE SYSTEM (1) LIMIT 1000")
        ids = [row[0] for row in cursor.fetchall()]
    rnd = Random(7)
    detail_ids = [rnd.choice(ids) for _ in range(50)]
    return [
        (
            f"two skills with minimum scores + country, by match (skill=python:8&skill=go:7&country={country})",
            [f"/api/v1/candidates/?skill=python:8&skill=go:7&country={country}"],
            1,
        ),
        (
            'full-text q, ranked, ~1 % match (q="kubernetes operator")',
            ["/api/v1/candidates/?q=kubernetes%20operator"],
            1,
        ),
        (
            'full-text q, ranked, ~12 % match (q="distributed systems")',
            ["/api/v1/candidates/?q=distributed%20systems"],
            10,  # seconds per request: a tenth of the requests
        ),
        (
            f"repository filter (repository={repository}, the busiest)",
            [f"/api/v1/candidates/?repository={repository}"],
            1,
        ),
        ("detail (random candidates)", [f"/api/v1/candidates/{pk}/" for pk in detail_ids], 1),
    ]


def measure(client, urls: list[str], requests: int) -> tuple[list[float], list[float], int]:
    """Stack timings, raw-SQL timings (every statement of the same request), and the rows of a page."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    statements: dict[str, list[str]] = {}
    for url in urls:  # warms caches and connections, and records each request's SQL
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200, response.content[:500]
        statements[url] = [query["sql"] for query in captured.captured_queries]
    rows = len(response.json().get("results", [None]))
    stack: list[float] = []
    for index in range(requests):
        started = time.perf_counter()
        response = client.get(urls[index % len(urls)])
        stack.append(time.perf_counter() - started)
        assert response.status_code == 200, response.content[:500]
    raw: list[float] = []
    for index in range(requests):
        started = time.perf_counter()
        with connection.cursor() as cursor:
            for sql in statements[urls[index % len(urls)]]:
                cursor.execute(sql)
                cursor.fetchall()
        raw.append(time.perf_counter() - started)
    return stack, raw, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1_000_000, help="candidates in the benchmark database")
    parser.add_argument("--requests", type=int, default=200, help="timed requests per scenario")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ensure_dataset(args.count, seed=args.seed)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.authtoken.models import Token

    import talentdb.wsgi  # noqa: F401 - set the process up as the WSGI server does (its GC freeze included)

    settings.DEBUG = False
    user, _ = get_user_model().objects.get_or_create(username="bench-api")
    token, _ = Token.objects.get_or_create(user=user)
    client = Client(headers={"Authorization": f"Token {token.key}"}, SERVER_NAME="localhost")

    print(f"\n{args.count:,} candidates, {args.requests} requests each unless noted (ms)\n")
    print("| request | requests | rows | stack p50 | stack p99 | SQL p50 | SQL p99 | stack / SQL (p50) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, urls, divisor in scenarios(args.count):
        requests = max(10, args.requests // divisor)
        stack, raw, rows = measure(client, urls, requests)
        s50, s99, r50, r99 = (1000 * percentile(x, q) for x, q in ((stack, 50), (stack, 99), (raw, 50), (raw, 99)))
        print(
            f"| {label} | {requests} | {rows} | {s50:.1f} | {s99:.1f} | {r50:.1f} | {r99:.1f} | {s50 / r50:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
