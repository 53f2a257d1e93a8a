"""The framework bypasses of the API's request path, each timed against the stock class it replaces.

    DEBUG=1 .venv/bin/python bench/bypasses.py [--count 100000] [--rounds 20] [--calls 200]

On the ``bench.dataset`` database of ``count`` candidates (built once, then reused), times one request's worth of
each step with the project's class and with the framework's own, in alternating rounds of ``calls`` calls (this
machine's speed swings within minutes, so both sides share every minute), and prints the median time per call of
each side and their difference, in CPU time of this process (what the step costs, whatever else the machine runs) and
in wall time (with the database's and Redis's part, and any wait for a core):

* token authentication: ``api.authentication.TokenAuthentication`` against DRF's ``TokenAuthentication``;
* throttle: ``api.throttling.TokenRateThrottle`` against DRF's ``SimpleRateThrottle`` (same key, on Django's cache),
  whose cost grows with the requests of the last window it keeps: measured with 0, 2,000 and 6,000 of them;
* filter set: ``CandidateFilterSet`` as declared against the same class with ``LeanFilterSet``'s two overrides
  removed (django-filter's ``FilterSet.__init__`` and ``get_form_class``): created, validated and filtered;
* list serializer: a page of candidates (the default and the largest page size) through ``CandidateListSerializer``
  against DRF's generic ``ModelSerializer.to_representation``.

A step whose bypass is gone (the project runs the stock class) is reported as such: run this file in a checkout of
1296fd9, which still has all four, to time them (docs/benchmarks.md). Requests run with DEBUG off.
"""

from __future__ import annotations

import argparse
import contextlib
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dataset import ensure_dataset

QUERY = "skill=python:8&skill=go:7&country=US"
NOT_BYPASSED = (None,) * 4  # the project uses the stock class itself


def alternate(ours: Callable[[], object], stock: Callable[[], object], *, rounds: int, calls: int) -> tuple[float, ...]:
    """Median µs per call of ``ours`` and of ``stock``, timed in alternating rounds (which goes first alternates):
    (ours CPU, stock CPU, ours wall, stock wall). CPU is this process's alone: what each side costs whatever else
    the machine runs; wall time adds the database's and Redis's part and any wait for a core."""
    timings: dict[str, list[tuple[float, float]]] = {"ours": [], "stock": []}
    for _ in range(3):  # warm both: caches, connections, compiled regexes
        ours(), stock()
    for index in range(rounds):
        order = [("ours", ours), ("stock", stock)]
        for name, function in order if index % 2 == 0 else reversed(order):
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(calls):
                function()
            timings[name].append(
                ((time.process_time() - cpu) / calls * 1e6, (time.perf_counter() - wall) / calls * 1e6)
            )
    return tuple(
        statistics.median(sample[measure] for sample in timings[name])
        for measure in (0, 1)
        for name in ("ours", "stock")
    )


def token_request():
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIRequestFactory

    user, _ = get_user_model().objects.get_or_create(username="bench-bypasses")
    token, _ = Token.objects.get_or_create(user=user)
    request = APIRequestFactory(SERVER_NAME="localhost").get(
        f"/api/v1/candidates/?{QUERY}", HTTP_AUTHORIZATION=f"Token {token.key}"
    )
    return request, token


def bench_authentication(rounds: int, calls: int) -> list[tuple[str, float, float]]:
    from rest_framework import authentication

    try:
        from api.authentication import TokenAuthentication
    except ImportError:  # the API authenticates with DRF's own class
        return [("token authentication", *NOT_BYPASSED)]
    request, _ = token_request()
    ours, stock = TokenAuthentication(), authentication.TokenAuthentication()
    return [
        (
            "token authentication",
            *alternate(
                lambda: ours.authenticate(request), lambda: stock.authenticate(request), rounds=rounds, calls=calls
            ),
        )
    ]


def bench_throttle(rounds: int, calls: int) -> list[tuple[str, float, float]]:
    from django.core.cache import cache
    from rest_framework.request import Request
    from rest_framework.throttling import SimpleRateThrottle

    from api.throttling import TokenRateThrottle

    django_request, token = token_request()
    token.key = secrets.token_hex(20)  # a key no earlier run has counted (the throttle never saves the token)
    request = Request(django_request)
    request._user, request._auth = token.user, token
    rates = {"token": "100000000/minute"}  # never refused: both sides do the work of an allowed request

    class StockThrottle(SimpleRateThrottle):
        scope = "token"
        THROTTLE_RATES = rates

        def get_cache_key(self, request, view):
            return TokenRateThrottle.get_cache_key(self, request, view)  # the same digest key

    class OursAtTheSameRate(TokenRateThrottle):
        THROTTLE_RATES = rates

    results = []
    key = StockThrottle().get_cache_key(request, None)
    for history in (0, 2000, 6000):

        def ours() -> None:
            assert OursAtTheSameRate().allow_request(request, None)

        def stock(history: int = history) -> None:
            throttle = StockThrottle()
            assert throttle.allow_request(request, None)
            if len(throttle.history) > history + calls:  # keep the window near `history` requests
                cache.set(key, [throttle.now] * history, throttle.duration)

        cache.set(key, [time.time()] * history, 60)
        label = f"throttle, {history:,} requests in the window"
        if TokenRateThrottle.allow_request is SimpleRateThrottle.allow_request:
            results.append((label, *NOT_BYPASSED))
            continue
        results.append((label, *alternate(ours, stock, rounds=rounds, calls=calls)))
    cache.delete(key)
    return results


@contextlib.contextmanager
def stock_filtersets() -> Iterator[None]:
    """Every FilterSet of ``profiles.filters`` as django-filter builds it: LeanFilterSet's overrides taken away."""
    import django_filters

    from profiles.search.filtersets import LeanFilterSet

    overrides = {name: LeanFilterSet.__dict__[name] for name in ("__init__", "get_form_class")}
    for name in overrides:
        delattr(LeanFilterSet, name)
    try:
        assert LeanFilterSet.__init__ is django_filters.FilterSet.__init__
        yield
    finally:
        for name, value in overrides.items():
            setattr(LeanFilterSet, name, value)


def bench_filterset(rounds: int, calls: int) -> list[tuple[str, float, float]]:
    from django.http import QueryDict

    from profiles.search.filtersets import CandidateFilterSet
    from profiles.selectors import candidates_for_listing

    if not hasattr(CandidateFilterSet, "_copy_filter"):
        return [("candidate filter set", *NOT_BYPASSED)]
    data = QueryDict(QUERY)

    def run() -> None:
        filterset = CandidateFilterSet(data=data, queryset=candidates_for_listing())
        assert filterset.is_valid()
        filterset.qs  # noqa: B018 - the filter methods (and their one query, resolving the skills)

    def stock() -> None:
        with stock_filtersets():
            run()

    return [("candidate filter set (create, validate, filter)", *alternate(run, stock, rounds=rounds, calls=calls))]


def bench_serializer(rounds: int, calls: int) -> list[tuple[str, float, float]]:
    from django.conf import settings
    from rest_framework import serializers
    from rest_framework.test import APIRequestFactory

    from api.candidates.serializers import CandidateListSerializer
    from profiles.selectors import candidate_search, candidates_attach_skills, candidates_for_listing

    sizes = (settings.API_PAGE_SIZE, settings.API_MAX_PAGE_SIZE)
    if CandidateListSerializer.to_representation is serializers.ModelSerializer.to_representation:
        return [(f"list serializer, a page of {size}", *NOT_BYPASSED) for size in sizes]
    request = APIRequestFactory(SERVER_NAME="localhost").get(f"/api/v1/candidates/?{QUERY}")
    search = candidate_search(params={"skill": "python:5", "q": "engineer"}, queryset=candidates_for_listing())
    rows = list(search[: max(sizes)])
    assert len(rows) == max(sizes), len(rows)
    candidates_attach_skills(rows)

    class StockListSerializer(CandidateListSerializer):
        to_representation = serializers.ModelSerializer.to_representation

    results = []
    for size in sizes:
        page = rows[:size]

        def ours(page: list = page) -> None:
            CandidateListSerializer(page, many=True, context={"request": request}).data  # noqa: B018

        def stock(page: list = page) -> None:
            StockListSerializer(page, many=True, context={"request": request}).data  # noqa: B018

        assert (
            CandidateListSerializer(page, many=True, context={"request": request}).data
            == StockListSerializer(page, many=True, context={"request": request}).data
        )
        calls_per_round = max(1, calls * 5 // size)  # a page of 50 takes about as long as 5 filter sets
        results.append(
            (f"list serializer, a page of {size}", *alternate(ours, stock, rounds=rounds, calls=calls_per_round))
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000, help="candidates in the benchmark database")
    parser.add_argument("--rounds", type=int, default=20, help="alternating rounds per step")
    parser.add_argument("--calls", type=int, default=200, help="calls per round (fewer for the serializer's pages)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ensure_dataset(args.count, seed=args.seed)
    from django.conf import settings

    import talentdb.wsgi  # noqa: F401 - set the process up as the WSGI server does (its GC freeze included)

    settings.DEBUG = False
    print(f"\n{args.count:,} candidates, {args.rounds} alternating rounds of {args.calls} calls (µs per call)\n")
    print("| step | CPU: project's class | stock class | stock - project | wall: project's | stock | stock - project |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for bench in (bench_authentication, bench_throttle, bench_filterset, bench_serializer):
        for label, *figures in bench(args.rounds, args.calls):
            if figures[0] is None:
                print(f"| {label} | the stock class | | | | | |", flush=True)
                continue
            ours_cpu, stock_cpu, ours_wall, stock_wall = figures
            print(
                f"| {label} | {ours_cpu:.0f} | {stock_cpu:.0f} | **{stock_cpu - ours_cpu:+.0f}** "
                f"| {ours_wall:.0f} | {stock_wall:.0f} | {stock_wall - ours_wall:+.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
