"""API latency at scale: representative requests through the full Django stack, next to their SQL run raw.

    DEBUG=1 .venv/bin/python bench/api.py [--count 1000000] [--requests 200] [--only TEXT] [--replica postgres://HOST:PORT]

Loads (or reuses) ``count`` synthetic candidates with ``bench.dataset.ensure_dataset``, then for each request:
times it ``--requests`` times through Django's test client (URL routing, middleware, token authentication,
throttling, filters, serializers, JSON rendering: everything but the socket), captures the SQL it ran, and times the
same statements run directly on a database cursor (fetching every row). Prints p50 / p99 of both and their ratio.
Requests run with DEBUG off (as in production) whatever the environment says; DEBUG=1 only spares a SECRET_KEY.

The table's requests run on the SQL backend (``SEARCH_BACKEND`` set to it), the reference. ``--index`` first starts
the ranking index (``bench.index_process``: ``manage.py searchindex_serve``, as ``make run`` does, on a socket of its
own), waits for its columns and its text index (``--text-building``: only for its columns), prints their build times
and memory, and times each benchmark job's first page through ``jobs.ranking.ranked_page`` with the SQL backend
and with ``SEARCH_BACKEND = searchindex.backend.IndexBackend``, alternating, with and without ``strict`` and
``widen``, and says whether both gave the same rows. Then the ranked requests through the stack (a stored job's
matches, similar candidates, the admin panel's similar candidates, full-text ``q``), each on both backends in turn,
request by request: the same minutes for both, with the ``X-Search-Backend`` header seen and whether both gave the
same rows.

``--replica URL`` (or BENCH_REPLICA_URL) names a streaming replica of DATABASE_URL's server; its database is the
benchmark's. It is configured as DATABASE_REPLICA_URLS is, with the router and middleware (talentdb/db_router.py), and
each request is measured twice: pinned to the primary (multidb's cookie, as after a write), and through the router to
the replica. Each raw statement runs on the server that ran it in the request: ``statements`` says how many of a
replica request's went to the primary (none should: the selectors' SQL takes ``db.connections.read_connection``). The
benchmark stops if the router skipped the replica (down, lagging, or not in recovery: its log line says which).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._django import _with_database
from bench.dataset import database_name, ensure_dataset
from bench.index_process import start_index

REPLICA_ALIAS = "replica_0"  # the first of DATABASE_REPLICA_URLS


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def bench_jobs(user) -> dict[str, int]:
    """A stored job of ``user``'s per description of ``bench/job_match.py`` (made once, then reused): their matches are
    ``POST jobs/match/``'s ranking behind a GET, which a replica can serve."""
    from bench.job_match import DESCRIPTIONS
    from jobs.models import Job
    from jobs.services import job_create

    jobs = {}
    for label, text in DESCRIPTIONS.items():
        title = f"Benchmark job, {label}"
        job = Job.objects.filter(owner=user, title=title).first()
        jobs[label] = (job or job_create(user=user, title=title, description=text).job).pk
    return jobs


def scenarios(count: int, jobs: dict[str, int]) -> list[tuple[str, list[str], int]]:
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
        *(
            (
                f"job matches, {label} (GET jobs/{{id}}/matches/, the ranking of POST jobs/match/)",
                [f"/api/v1/jobs/{pk}/matches/"],
                10,  # seconds per request at 1,000,000: a tenth of the requests
            )
            for label, pk in jobs.items()
        ),
    ]


# The router's own check of a replica (talentdb/db_router.py), when one falls in a request: not the request's SQL.
_ROUTER_CHECKS = ("pg_last_wal_replay_lsn", "pg_current_wal_flush_lsn")


def measure(client, urls: list[str], requests: int, alias: str) -> tuple[list[float], list[float], int, list[str]]:
    """Stack timings, raw-SQL timings (every statement of the same request, each on the server that ran it), the rows
    of a page, and the servers of one request's statements. ``alias``: the database the requests must read from."""
    from contextlib import ExitStack

    from django.db import connections
    from django.test.utils import CaptureQueriesContext

    aliases = sorted({"default", alias})
    statements: dict[str, list[tuple[str, str]]] = {}
    for url in urls:  # warms caches and connections, and records each request's SQL
        with ExitStack() as stack:
            captured = {a: stack.enter_context(CaptureQueriesContext(connections[a])) for a in aliases}
            response = client.get(url)
        assert response.status_code == 200, response.content[:500]
        statements[url] = [
            (a, query["sql"])
            for a in aliases
            for query in captured[a].captured_queries
            if not any(check in query["sql"] for check in _ROUTER_CHECKS)
        ]
        if not any(a == alias for a, _ in statements[url]):
            raise SystemExit(f"{url} read nothing from {alias}: the router skipped it (see its log line above)")
    rows = len(response.json().get("results", [None]))
    stack_times: list[float] = []
    for index in range(requests):
        started = time.perf_counter()
        response = client.get(urls[index % len(urls)])
        stack_times.append(time.perf_counter() - started)
        assert response.status_code == 200, response.content[:500]
    raw: list[float] = []
    for index in range(requests):
        started = time.perf_counter()
        for a, sql in statements[urls[index % len(urls)]]:
            with connections[a].cursor() as cursor:
                cursor.execute(sql)
                cursor.fetchall()
        raw.append(time.perf_counter() - started)
    return stack_times, raw, rows, [a for a, _ in statements[urls[-1]]]


def _wait_for_replica(alias: str, timeout: float = 120) -> None:
    """Until the replica has replayed what the primary has written (the benchmark user's token among it)."""
    from django.db import connections

    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_insert_lsn()::text")
        [target] = cursor.fetchone()
    deadline = time.monotonic() + timeout
    with connections[alias].cursor() as cursor:
        while True:
            cursor.execute("SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn() >= %s::pg_lsn", [target])
            in_recovery, replayed = cursor.fetchone()
            if not in_recovery:
                raise SystemExit(f"{alias} is not a replica (not in recovery)")
            if replayed:
                return
            if time.monotonic() > deadline:
                raise SystemExit(f"{alias} did not replay up to {target} in {timeout:.0f} s")
            time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1_000_000, help="candidates in the benchmark database")
    parser.add_argument("--requests", type=int, default=200, help="timed requests per scenario")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="run only the requests whose label contains this text")
    parser.add_argument(
        "--replica",
        default=os.environ.get("BENCH_REPLICA_URL"),
        help="a streaming replica of the server (postgres://USER@HOST:PORT): measure reads on it next to the primary",
    )
    parser.add_argument("--index", action="store_true", help="also measure job matches through the ranking index")
    parser.add_argument(
        "--text-building",
        action="store_true",
        help="with --index: measure as soon as the columns are built, while the text index still builds",
    )
    args = parser.parse_args()

    if args.replica:
        # Before Django is set up: the settings read it as they read DATABASE_REPLICA_URLS in production.
        os.environ["DATABASE_REPLICA_URLS"] = _with_database(args.replica, database_name(args.count))
    ensure_dataset(args.count, seed=args.seed)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.test import Client
    from rest_framework.authtoken.models import Token

    import talentdb.wsgi  # noqa: F401 - set the process up as the WSGI server does (its GC freeze included)

    settings.DEBUG = False
    user, _ = get_user_model().objects.get_or_create(username="bench-api")
    # A recruiter's reads: the candidates and the user's own jobs (a job's matches need both).
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label__in=("profiles", "jobs"), codename__in=("view_candidate", "view_job")
        )
    )
    jobs = bench_jobs(user)
    token, _ = Token.objects.get_or_create(user=user)
    client = Client(headers={"Authorization": f"Token {token.key}"}, SERVER_NAME="localhost")
    servers = [("primary", "default", client)]
    if args.replica:
        from multidb.middleware import pinning_cookie

        _wait_for_replica(REPLICA_ALIAS)
        # Pinned by the cookie a write sets: the router reads from the primary, all else alike.
        pinned = Client(headers={"Authorization": f"Token {token.key}"}, SERVER_NAME="localhost")
        pinned.cookies[pinning_cookie()] = "y"
        servers = [("primary", "default", pinned), ("replica", REPLICA_ALIAS, client)]

    settings.SEARCH_BACKEND = SQL_BACKEND
    if args.index:
        start_index(wait_for_text=not args.text_building)
        measure_backends(jobs, max(10, args.requests // 10), user)
        measure_stack_backends(client, ranked_scenarios(jobs), args.requests, args.only, user)
        settings.SEARCH_BACKEND = SQL_BACKEND
    print(f"\n{args.count:,} candidates, {args.requests} requests each unless noted (ms)\n")
    print(
        "| request | server | requests | rows | statements | stack p50 | stack p99 | SQL p50 | SQL p99 "
        "| stack / SQL (p50) |"
    )
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|")
    for label, urls, divisor in scenarios(args.count, jobs):
        if args.only not in label:
            continue
        requests = max(10, args.requests // divisor)
        for server, alias, server_client in servers:
            stack, raw, rows, ran_on = measure(server_client, urls, requests, alias)
            s50, s99, r50, r99 = (1000 * percentile(x, q) for x, q in ((stack, 50), (stack, 99), (raw, 50), (raw, 99)))
            on_primary = ran_on.count("default")
            shown = f"{len(ran_on)}" if alias == "default" else f"{len(ran_on)}, {on_primary} on the primary"
            print(
                f"| {label} | {server} | {requests} | {rows} | {shown} | {s50:.1f} | {s99:.1f} | {r50:.1f} "
                f"| {r99:.1f} | {s50 / r50:.2f} |",
                flush=True,
            )


INDEX_BACKEND = "searchindex.backend.IndexBackend"
SQL_BACKEND = "profiles.search.backends.sql.SqlBackend"


def measure_backends(jobs: dict[str, int], requests: int, user) -> None:
    """Each benchmark job's first page through ``jobs.ranking.ranked_page`` (ranking, the page's rows and their
    explanation; what the API's views call, without HTTP and JSON) with the SQL backend and with the index,
    alternating request by request (the machine's speed drifts within minutes), and whether both gave the same rows."""
    from django.conf import settings

    from jobs.models import Job
    from jobs.ranking import RankOptions, ranked_page
    from jobs.selectors import job_criteria
    from profiles.search.backends.base import Page
    from searchindex.middleware import answered_by

    print("\n| job (first page, ranked_page) | options | SQL p50 | SQL p99 | index p50 | index p99 | same rows |")
    print("|---|---|---:|---:|---:|---:|---|")
    for label, pk in jobs.items():
        criteria = job_criteria(Job.objects.prefetch_related("skills").get(pk=pk))
        for options in (RankOptions(), RankOptions(strict=True), RankOptions(widen=True)):
            times: dict[str, list[float]] = {"": [], INDEX_BACKEND: []}
            pages: dict[str, list] = {}
            for _ in range(requests):
                for path in times:
                    settings.SEARCH_BACKEND = path
                    answered_by.set("")
                    started = time.perf_counter()
                    rows = ranked_page(criteria, options=options, user=user, page=Page(limit=settings.API_PAGE_SIZE))
                    times[path].append(time.perf_counter() - started)
                    pages[path] = [(row.pk, row.match) for row in rows]
                    # A strict request is handed to SQL by design (it reads only the holders of every skill).
                    expected = "sql; index=strict" if options.strict else "index"
                    if path and answered_by.get() != expected:
                        raise SystemExit(f"the index did not answer: {answered_by.get()!r}")
            settings.SEARCH_BACKEND = ""
            sql, index = times[""], times[INDEX_BACKEND]
            switches = ", ".join(options.query()) or "default"
            print(
                f"| {label} | {switches} | {1000 * percentile(sql, 50):.1f} | {1000 * percentile(sql, 99):.1f} "
                f"| {1000 * percentile(index, 50):.1f} | {1000 * percentile(index, 99):.1f} "
                f"| {pages[''] == pages[INDEX_BACKEND]} |",
                flush=True,
            )


def ranked_scenarios(jobs: dict[str, int]) -> list[tuple[str, list[str], int]]:
    """The requests a search backend ranks, through the stack: (label, URLs to cycle through, divisor of the request
    count). Similar candidates: 20 random candidates holding at least three skills, the same on every run."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM profiles_candidate TABLESAMPLE SYSTEM (1) REPEATABLE (7) "
            "WHERE (SELECT count(*) FROM jsonb_object_keys(skill_scores)) >= 3 ORDER BY id LIMIT 500"
        )
        ids = [row[0] for row in cursor.fetchall()]
    subjects = Random(7).sample(ids, min(20, len(ids)))
    return [
        *(
            (f"job matches, {label} (GET jobs/{{id}}/matches/)", [f"/api/v1/jobs/{pk}/matches/"], 1)
            for label, pk in jobs.items()
        ),
        (
            "similar candidates (GET candidates/{id}/similar/)",
            [f"/api/v1/candidates/{pk}/similar/" for pk in subjects],
            5,  # seconds per request in SQL at 1,000,000: a fifth of the requests
        ),
        ("similar candidates, the admin panel's 5 (strict first)", [f"panel:{pk}" for pk in subjects], 1),
        ('full-text q, ~1 % match (q="kubernetes operator")', ["/api/v1/candidates/?q=kubernetes%20operator"], 1),
        ('full-text q, ~12 % match (q="distributed systems")', ["/api/v1/candidates/?q=distributed%20systems"], 5),
    ]


def _ranked_once(client, url: str, user) -> tuple[float, str, list]:
    """One request: seconds, the X-Search-Backend header (for the panel: the backend's word) and the rows' ids."""
    from jobs.ranking import similar_candidates
    from searchindex.middleware import answered_by

    if url.startswith("panel:"):  # the admin's "Similar candidates" panel: its function, without the page around it
        answered_by.set("")
        started = time.perf_counter()
        _, rows = similar_candidates(candidate_id=int(url[6:]), user=user, limit=5, strict_first=True)
        return time.perf_counter() - started, answered_by.get(), [(row.pk, row.match) for row in rows]
    started = time.perf_counter()
    response = client.get(url)
    seconds = time.perf_counter() - started
    assert response.status_code == 200, response.content[:500]
    body = response.json()
    return seconds, response.get("X-Search-Backend", ""), [row["id"] for row in body["results"]]


def measure_stack_backends(client, ranked: list, requests: int, only: str, user) -> None:
    """Each ranked request through the stack with the SQL backend and with the index, alternating request by
    request, after one warming request each; the headers the index's requests answered with, and whether both
    backends gave the same rows."""
    from django.conf import settings

    print(
        "\n| request (through the stack) | requests | SQL p50 | SQL p99 | index p50 | index p99 | X-Search-Backend "
        "| same rows |"
    )
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for label, urls, divisor in ranked:
        if only not in label:
            continue
        count = max(10, requests // divisor)
        times: dict[str, list[float]] = {SQL_BACKEND: [], INDEX_BACKEND: []}
        rows: dict[str, list] = {SQL_BACKEND: [], INDEX_BACKEND: []}
        headers: set[str] = set()
        for path in times:  # warm both
            settings.SEARCH_BACKEND = path
            _ranked_once(client, urls[0], user)
        for index in range(count):
            for path in times:
                settings.SEARCH_BACKEND = path
                seconds, header, ids = _ranked_once(client, urls[index % len(urls)], user)
                times[path].append(seconds)
                rows[path].append(ids)
                if path == INDEX_BACKEND:
                    headers.add(header or "(none)")
        sql, by_index = times[SQL_BACKEND], times[INDEX_BACKEND]
        print(
            f"| {label} | {count} | {1000 * percentile(sql, 50):.1f} | {1000 * percentile(sql, 99):.1f} "
            f"| {1000 * percentile(by_index, 50):.1f} | {1000 * percentile(by_index, 99):.1f} "
            f"| {', '.join(sorted(headers))} | {rows[SQL_BACKEND] == rows[INDEX_BACKEND]} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
