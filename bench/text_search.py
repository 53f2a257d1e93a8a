"""Full-text search at scale: the index's BM25 (searchindex.text) next to SQL's ts_rank, in the same minutes.

    .venv/bin/python bench/text_search.py [--count 100000] [--requests 200]

Loads (or reuses) ``count`` synthetic candidates (``bench.dataset.ensure_dataset``). Builds the text index once in
this process and prints its build time, documents and the memory it added. Then starts the index process
(``manage.py searchindex_serve``, as ``make run`` does, on a socket of its own), waits for its text, and times each
query's first page of 50 through the search backends, alternating request by request: ``SqlBackend.search_text``
(``ts_rank`` over the matches) and ``IndexBackend.search_text`` (the index process over its socket, the page's ids then
checked in PostgreSQL). Prints p50 / p99 of both, the number of matches in SQL and in the index (they should be
equal), and how many of the 50 ids the two first pages share (they differ by design: BM25 is not ``ts_rank``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dataset import ensure_dataset
from bench.index_process import rss_mib, start_index

QUERIES = (
    ("~1 % match", "kubernetes operator"),
    ("~12 % match", "distributed systems"),
    ("~12 %, a quoted phrase", '"distributed systems"'),
)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def measure_build(dsn: str) -> None:
    import psycopg

    from searchindex.text import TextIndex

    before = rss_mib()
    started = time.perf_counter()
    with psycopg.connect(dsn) as connection:
        text = TextIndex.build(connection)
    seconds = time.perf_counter() - started
    added = rss_mib() - before
    print(f"text index: {len(text):,} documents built in {seconds:.1f} s; the process grew by {added:.0f} MiB")
    del text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000, help="candidates in the benchmark database")
    parser.add_argument("--requests", type=int, default=200, help="timed requests per query and backend")
    args = parser.parse_args()

    url = ensure_dataset(args.count)
    from django.contrib.postgres.search import SearchQuery

    from profiles.models import Candidate
    from profiles.search.backends.base import Page, TextRequest
    from profiles.search.backends.sql import SqlBackend
    from searchindex import client
    from searchindex.backend import IndexBackend, websearch_tsquery
    from searchindex.middleware import answered_by
    from searchindex.tsquery import parse_tsquery

    measure_build(url)
    start_index(wait_for_text=True)
    sql, index = SqlBackend(), IndexBackend()
    load = os.getloadavg()[0]
    print(f"\n{args.count:,} candidates, {args.requests} requests per query and backend, a page of 50 (ms)\n")
    print("| query | matches (SQL / index) | SQL p50 | SQL p99 | index p50 | index p99 | first pages share |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, query in QUERIES:
        request = TextRequest(query=query, page=Page(limit=50))
        matches = Candidate.objects.filter(search_vector=SearchQuery(query, search_type="websearch", config="english"))
        indexed = client.text(websearch_tsquery(query), limit=args.count + 1)
        assert parse_tsquery(websearch_tsquery(query)) is not None
        times: dict[str, list[float]] = {"sql": [], "index": []}
        pages = {}
        for _ in range(args.requests):
            for name, backend in (("sql", sql), ("index", index)):
                token = answered_by.set("")
                started = time.perf_counter()
                pages[name] = backend.search_text(request).ids
                times[name].append(time.perf_counter() - started)
                if name == "index" and answered_by.get() != "index":
                    raise SystemExit(f"the index did not answer: {answered_by.get()}")
                answered_by.reset(token)
        s50, s99, i50, i99 = (
            1000 * percentile(times[name], q) for name, q in (("sql", 50), ("sql", 99), ("index", 50), ("index", 99))
        )
        shared = len(set(pages["sql"]) & set(pages["index"]))
        print(
            f"| {label} (q={query}) | {matches.count():,} / {len(indexed):,} | {s50:.1f} | {s99:.1f} | {i50:.1f} "
            f"| {i99:.1f} | {shared} of 50 |",
            flush=True,
        )
    print(f"\nload average (1 min) at the start: {load:.2f}; at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
