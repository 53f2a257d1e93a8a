"""Job matching latency: ``POST /api/v1/jobs/match/`` through the full Django stack, next to its SQL run raw.

    DEBUG=1 .venv/bin/python bench/job_match.py [--count 20000] [--requests 100] [--database NAME]

Loads (or reuses) ``count`` synthetic candidates with ``bench.dataset.ensure_dataset`` (in ``--database`` when given,
else ``talentdb_bench_<count>``), then posts a 6-skill and a 10-skill job description ``--requests`` times each, and
times the statements the request ran on a database cursor. Prints p50 / p99 of both, and the pool's size (the
candidates holding one of the skills, over which the formula runs). A third row asks for the term limit: the
SEARCH_MAX_TERMS commonest skills as preferred (a pool of nearly everyone, each with their evidence).

Then the longest description a job takes: ``POST /api/v1/jobs/`` of a 100,000-character post that names one skill
12,498 times ("Requirements: Python, Python, ..."), timed through the stack (``--requests`` times, the job deleted after
each), and the reader alone on it (``jobs.criteria.extract_criteria``, CPU time); then the reader alone on a
20,000-character post made of our fictional ones (``tests/fixtures/jobs`` and ``tests/fixtures/jobs_shipped``), whose
goal is under 50 ms, next to its raw baseline: the same text lower-cased and walked once by the vocabulary's automaton
(``jobs.matching.fold`` and ``find_skills``), which any reading of the post must do.

    .venv/bin/python bench/job_match.py --reader [--requests 100]

runs only that last table, without a database, with the shipped vocabulary (``profiles/data/vocabulary.tsv``).
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
    parser.add_argument("--reader", action="store_true", help="only the reader on a 20,000-character post, no database")
    args = parser.parse_args()
    if args.reader:
        from bench.job_posts import vocabulary_for
        from tests.jobs.helpers import CITIES

        reader_on_a_realistic_post(vocabulary_for(None), CITIES, args.requests)
        return
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

    with connection.cursor() as cursor:  # the commonest skills, for a request at the term limit
        cursor.execute(
            "SELECT s.slug FROM profiles_candidateskill cs JOIN profiles_skill s ON s.id = cs.skill_id "
            "GROUP BY s.slug ORDER BY count(*) DESC, s.slug LIMIT %s",
            [settings.SEARCH_MAX_TERMS],
        )
        commonest = [slug for (slug,) in cursor.fetchall()]
    bodies = {label: {"description": text} for label, text in DESCRIPTIONS.items()}
    bodies[f"{len(commonest)} preferred skills (the term limit)"] = {
        "description": "Engineer",
        "criteria": {"preferred": [{"skill": slug} for slug in commonest]},
    }

    print(f"\n{args.count:,} candidates, {args.requests} requests each (ms)\n")
    print("| description | skills | pool | rows | stack p50 | stack p99 | SQL p50 | SQL p99 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, request in bodies.items():
        body = json.dumps(request)
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
        named = ", ".join(criteria.skills) if skills <= 10 else f"{', '.join(criteria.skills[:5])}, ..."
        print(
            f"| {label}: {named} | {skills} | {pool:,} | {rows} | {s50:.1f} | {s99:.1f} | {r50:.1f} | {r99:.1f} |",
            flush=True,
        )
    longest_description(client, user, args.requests)


READER_POST_CHARS = 20_000  # a long real post is 5,000-15,000 characters


def realistic_post(chars: int = READER_POST_CHARS) -> str:
    """Our fictional job posts (tests/fixtures/jobs and jobs_shipped) one after another, cut at ``chars``: every rule
    has work to do."""
    fixtures = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
    paths = sorted(fixtures.glob("jobs/*.txt")) + sorted(fixtures.glob("jobs_shipped/*.txt"))
    text = "\n\n".join(path.read_text(encoding="utf-8") for path in paths)
    return (text * (chars // len(text) + 1))[:chars]


def reader_on_a_realistic_post(vocabulary, cities, runs: int) -> None:
    """``extract_criteria`` alone on a 20,000-character post of many patterns, CPU time (the goal: under 50 ms), next
    to the raw baseline: the text folded and walked by the vocabulary's automaton, nothing else."""
    from jobs.criteria import extract_criteria
    from jobs.matching import find_skills, fold

    post = realistic_post()
    extract_criteria(post, vocabulary, cities=cities)  # the automaton built, the caches warm
    timings, raw = [], []
    for _ in range(runs):
        started = time.process_time()
        found = extract_criteria(post, vocabulary, cities=cities)
        timings.append(time.process_time() - started)
        started = time.process_time()
        matches = find_skills(fold(post), vocabulary)
        raw.append(time.process_time() - started)
    p50, p99, r50, r99 = (1000 * percentile(x, q) for x, q in ((timings, 50), (timings, 99), (raw, 50), (raw, 99)))
    print(f"\nThe reader on a {len(post):,}-character post of our fictional ones, {runs} runs (ms, CPU)\n")
    print("| required | preferred | ignored | unrecognised | reader p50 | reader p99 | raw: automaton p50 | p99 |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {len(found.required)} | {len(found.preferred)} | {len(found.ignored)} | {len(found.unrecognised)} | "
        f"{p50:.1f} | {p99:.1f} | {r50:.1f} ({len(matches)} names) | {r99:.1f} |",
        flush=True,
    )


LONGEST = "Requirements: " + "Python, " * 12_498  # 99,998 characters: the cap (JOB_DESCRIPTION_MAX_CHARS) is 100,000


def longest_description(client, user, requests: int) -> None:
    """``POST /api/v1/jobs/`` of the longest description, through the stack, and the reader alone on it."""
    from django.contrib.auth.models import Permission

    from jobs.criteria import extract_criteria
    from jobs.models import Job
    from jobs.selectors import job_cities
    from profiles.models import Shortlist
    from profiles.vocabulary_copy import skill_vocabulary

    user.user_permissions.add(Permission.objects.get(codename="add_job", content_type__app_label="jobs"))
    body = json.dumps({"title": "Benchmark: the longest description", "description": LONGEST})
    vocabulary, cities = skill_vocabulary(), job_cities()
    reader, stack, stack_cpu = [], [], []
    for _ in range(requests):
        started = time.process_time()
        found = extract_criteria(LONGEST, vocabulary, cities=cities)
        reader.append(time.process_time() - started)
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.post("/api/v1/jobs/", body, content_type="application/json")
        stack.append(time.perf_counter() - started)
        stack_cpu.append(time.process_time() - started_cpu)
        assert response.status_code == 201, response.content[:500]
        job = Job.objects.get(pk=response.json()["id"])
        pipeline = job.pipeline_id
        job.delete()
        Shortlist.objects.filter(pk=pipeline).delete()
    r50, r99, s50, s99, c50 = (
        1000 * percentile(x, q) for x, q in ((reader, 50), (reader, 99), (stack, 50), (stack, 99), (stack_cpu, 50))
    )
    print(f"\nThe longest description: {len(LONGEST):,} characters, {requests} requests (ms)\n")
    print("| required | reader p50 (CPU) | reader p99 | POST /api/v1/jobs/ p50 | p99 | its CPU p50 (this process) |")
    print("|---|---:|---:|---:|---:|---:|")
    required = ", ".join(slug for slug, _ in found.required)
    print(f"| {required} | {r50:.1f} | {r99:.1f} | {s50:.1f} | {s99:.1f} | {c50:.1f} |", flush=True)
    reader_on_a_realistic_post(vocabulary, cities, requests)


if __name__ == "__main__":
    main()
