"""Job matching latency: ``POST /api/v1/jobs/match/`` through the full Django stack, next to its SQL run raw.

    DEBUG=1 .venv/bin/python bench/job_match.py [--count 20000] [--requests 100] [--database NAME]

Loads (or reuses) ``count`` synthetic candidates with ``bench.dataset.ensure_dataset`` (in ``--database`` when given,
else ``talentdb_bench_<count>``), then posts a 6-skill and a 10-skill job description ``--requests`` times each, and
times the statements the request ran on a database cursor. Prints p50 / p99 of both, and the pool's size (the
candidates holding one of the skills, over which the formula runs).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import dataset
from bench.api import percentile

DESCRIPTIONS = {
    "6 skills": (
        "Senior Backend Engineer\n\nLocation: Berlin, Germany\n\nRequirements\n"
        "- 5+ years of experience with Python and Go\n- PostgreSQL, Docker and Kubernetes\n\n"
        "Nice to have\n- Terraform\n"
    ),
    "10 skills": (
        "Staff Platform Engineer\n\nRemote within Germany\n\nRequirements\n"
        "- 8+ years of experience with Go, Python and Java\n- PostgreSQL, Redis and Kafka\n- Docker, Kubernetes\n\n"
        "Nice to have\n- Terraform, AWS\n"
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=20_000, help="candidates in the benchmark database")
    parser.add_argument("--requests", type=int, default=100, help="timed requests per description")
    parser.add_argument("--database", default="", help="database name (default talentdb_bench_<count>)")
    args = parser.parse_args()
    if args.database:
        dataset.database_name = lambda count: args.database
    dataset.ensure_dataset(args.count, seed=1)

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    import talentdb.wsgi  # noqa: F401 - set the process up as the WSGI server does
    from jobs.criteria import Criteria
    from jobs.ranking import candidates_ranked

    settings.DEBUG = False
    user, _ = get_user_model().objects.get_or_create(username="bench-match")
    user.user_permissions.add(Permission.objects.get(codename="view_candidate", content_type__app_label="profiles"))
    token, _ = Token.objects.get_or_create(user=user)
    client = Client(headers={"Authorization": f"Token {token.key}"}, SERVER_NAME="localhost")

    print(f"\n{args.count:,} candidates, {args.requests} requests each (ms)\n")
    print("| description | skills | pool | rows | stack p50 | stack p99 | SQL p50 | SQL p99 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, text in DESCRIPTIONS.items():
        body = json.dumps({"description": text})
        url = "/api/v1/jobs/match/"
        with CaptureQueriesContext(connection) as captured:
            response = client.post(url, body, content_type="application/json")
        assert response.status_code == 200, response.content[:500]
        answer = response.json()
        found = answer["criteria"]
        criteria = Criteria(
            required=tuple((item["skill"], item["min_score"]) for item in found["required"]),
            preferred=tuple(item["skill"] for item in found["preferred"]),
        )
        pool = candidates_ranked(criteria).count()
        statements = [query["sql"] for query in captured.captured_queries]
        stack, raw = [], []
        for _ in range(args.requests):
            started = time.perf_counter()
            response = client.post(url, body, content_type="application/json")
            stack.append(time.perf_counter() - started)
            assert response.status_code == 200
        for _ in range(args.requests):
            started = time.perf_counter()
            with connection.cursor() as cursor:
                for sql in statements:
                    cursor.execute(sql)
                    cursor.fetchall()
            raw.append(time.perf_counter() - started)
        s50, s99, r50, r99 = (1000 * percentile(x, q) for x, q in ((stack, 50), (stack, 99), (raw, 50), (raw, 99)))
        skills = len(criteria.skills)
        rows = len(answer["results"])
        print(
            f"| {label}: {', '.join(criteria.skills)} | {skills} | {pool:,} | {rows} | {s50:.1f} | {s99:.1f} "
            f"| {r50:.1f} | {r99:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
