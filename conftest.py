"""Shared fixtures: a seeded test database on real PostgreSQL, the test fixtures and the shared corpus,
production-like settings."""

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import factory.random
import pytest
from django.core.management import call_command

from tests.fixtures import CORPUS_DIR, JSONRESUME_DIR, NO_CORPUS, PROGAI_DIR, VOCAB_DIR


def pytest_sessionstart(session):
    """Start (or reuse) the embedded PostgreSQL and Redis unless DATABASE_URL / REDIS_URL name servers: pytest-django
    creates the test database on that server before the first test."""
    from django.conf import settings

    from talentdb import embedded

    embedded.start()
    # The tests share Redis with a developer's running TalentDB and with other test runs: a cache key prefix of their
    # own keeps their cached vocabulary and sidebar choices apart. Worker processes the tests start inherit it.
    prefix = f"talentdb-test-{os.getpid()}"
    os.environ["CACHE_KEY_PREFIX"] = prefix
    settings.CACHES["default"]["KEY_PREFIX"] = prefix
    # The suite sends thousands of requests without credentials from one address (every endpoint's 401), which the
    # anonymous rate would soon answer with 429s; tests/security/test_rate_limits.py sets the rates it tests.
    from api.throttling import TokenRateThrottle

    TokenRateThrottle.THROTTLE_RATES = {**TokenRateThrottle.THROTTLE_RATES, "anonymous": None}


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Seed the skill vocabulary once: the curated aliases and the tests' own small GitHub/Linguist vocabulary
    (tests/fixtures/vocab), the same with or without the shared corpus."""
    with django_db_blocker.unblock():
        call_command("seed_skills", vocab=VOCAB_DIR)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "corpus: reads the shared corpus (../shared/corpus), an extra layer left out when it is absent"
    )


_CORPUS_FIXTURES = {"corpus_dir", "corpus_documents"}


def pytest_collection_modifyitems(config, items):
    """Without the shared corpus, its layer is not run at all: deselected, and said once in the summary, so that a
    fresh clone's skips are only the reliability tests (which ask for an option) and every behaviour still runs on
    the project's own fixtures."""
    if CORPUS_DIR.is_dir():
        return
    layer = [item for item in items if item.get_closest_marker("corpus") or _CORPUS_FIXTURES & set(item.fixturenames)]
    if layer:
        config.hook.pytest_deselected(items=layer)
        left_out = set(layer)
        items[:] = [item for item in items if item not in left_out]
        config.stash[_CORPUS_LEFT_OUT] = len(layer)


_CORPUS_LEFT_OUT = pytest.StashKey[int]()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if left_out := config.stash.get(_CORPUS_LEFT_OUT, 0):
        terminalreporter.write_line(f"{left_out} tests of the corpus layer deselected: {NO_CORPUS}")


@pytest.fixture
def corpus_dir() -> Path:
    """The shared corpus folder (a test that asks for it belongs to the corpus layer)."""
    if not CORPUS_DIR.is_dir():
        pytest.skip(NO_CORPUS)
    return CORPUS_DIR


def _parsed(paths: list[Path]) -> list:
    from ingestion.parsers import parse
    from profiles.vocabulary_copy import skill_vocabulary

    vocabulary = skill_vocabulary()
    return [parse(path.read_bytes(), vocabulary=vocabulary.words) for path in paths]


@pytest.fixture
def fixture_documents(db) -> list:
    """The fictional Prog.AI reference and every valid JSON Resume of tests/fixtures, parsed as imports parse them."""
    return _parsed([PROGAI_DIR / "ingrid-valtonen.txt", *sorted(JSONRESUME_DIR.glob("*.json"))])


@pytest.fixture
def corpus_documents(db, corpus_dir: Path) -> list:
    """The seed profile and every valid JSON Resume of the shared corpus, parsed as an import parses them."""
    return _parsed([corpus_dir / "progai" / "jinliang-wei.txt", *sorted((corpus_dir / "jsonresume").glob("*.json"))])


@pytest.fixture(params=["fixture", pytest.param("corpus", marks=pytest.mark.corpus)])
def profile_documents(request) -> list:
    """Whole profiles of every format: the fixtures' always, the shared corpus's as well when it is there."""
    return request.getfixturevalue(f"{request.param}_documents")


@pytest.fixture(autouse=True)
def _fresh_cached_reads():
    """What the selectors cache outlives a test's rolled-back rows: the admin sidebar's suggestions (in the shared
    cache) and this process's copy of the skill vocabulary. Every test starts from its own data."""
    from profiles import selectors, vocabulary_copy

    selectors.candidate_filter_choices_forget()
    vocabulary_copy.skill_vocabulary_forget()


@pytest.fixture(autouse=True)
def _same_fake_data_every_run(request):
    """The factories' Faker names, companies and paragraphs are drawn from a seed of the test's own id: a test sees
    the same data on every run (make test never fails by chance), and different tests still see different data.
    A module- or session-scoped fixture runs before it: one that draws Faker values sets its fields instead."""
    factory.random.reseed_random(request.node.nodeid)


@pytest.fixture(autouse=True)
def _plain_http(settings):
    """Production settings redirect to HTTPS; the test client and live server speak plain HTTP."""
    settings.SECURE_SSL_REDIRECT = False
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


@pytest.fixture(scope="session")
def plain_http_live_server(request):
    """The live server, started while HTTPS redirects are off: SecurityMiddleware reads SECURE_SSL_REDIRECT once, when
    the server thread loads its middleware, before the function-scoped ``_plain_http`` fixture could turn it off."""
    from django.test.utils import override_settings

    with override_settings(SECURE_SSL_REDIRECT=False):
        return request.getfixturevalue("live_server")


@pytest.fixture
def seeded_vocabulary(django_db_blocker):
    """Transactional tests truncate every table afterwards: seed the skill vocabulary again for them."""
    with django_db_blocker.unblock():
        call_command("seed_skills", vocab=VOCAB_DIR)


TEST_QUEUE_PREFIX = f"talentdb-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
# The settings' three queues (settings.CELERY_TASK_ROUTES), each private to this run.
TEST_DEFAULT_QUEUE = f"{TEST_QUEUE_PREFIX}-default"
TEST_INGEST_QUEUE = f"{TEST_QUEUE_PREFIX}-ingest"
TEST_EXPORT_QUEUE = f"{TEST_QUEUE_PREFIX}-exports"
# The same queues for the processes the tests start (workers, manage.py).
TEST_QUEUE_ENV = {
    "CELERY_DEFAULT_QUEUE": TEST_DEFAULT_QUEUE,
    "CELERY_INGEST_QUEUE": TEST_INGEST_QUEUE,
    "CELERY_EXPORT_QUEUE": TEST_EXPORT_QUEUE,
}


@pytest.fixture(scope="session", autouse=True)
def _private_celery_queue():
    """Tests publish to queues of their own, so a developer's running worker never takes their messages. The routes
    are the settings' with each queue renamed, so a task routed there is routed here too."""
    from django.conf import settings

    from talentdb.celery import app

    private = {
        settings.CELERY_TASK_DEFAULT_QUEUE: TEST_DEFAULT_QUEUE,
        settings.INGEST_QUEUE: TEST_INGEST_QUEUE,
        settings.EXPORT_QUEUE: TEST_EXPORT_QUEUE,
    }
    app.conf.task_default_queue = TEST_DEFAULT_QUEUE
    app.conf.task_routes = {
        task: {**route, "queue": private[route["queue"]]} for task, route in settings.CELERY_TASK_ROUTES.items()
    }
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)  # a router made before this would keep the settings' routes
    yield
    with contextlib.suppress(Exception):
        app.control.purge()


def database_url_of_test_db() -> str:
    """A libpq URL of the test database, for worker processes the tests start."""
    from django.db import connection

    db = connection.settings_dict
    user = quote(db["USER"] or "")
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    host = db["HOST"] or "127.0.0.1"
    if host.startswith("/"):
        return f"postgres://{user}{password}@/{db['NAME']}?host={host}"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{user}{password}@{host}{port}/{db['NAME']}"


class WorkerProcess:
    """A real ``celery worker`` process on the test database and the tests' private queue."""

    def __init__(self, name: str, env: dict[str, str], concurrency: int = 2, queues: tuple[str, ...] | None = None):
        self.name = name
        self.log = Path(tempfile.mkstemp(prefix=f"{name}-", suffix=".log")[1])
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "talentdb",
                "worker",
                "-Q",
                # One worker for every queue unless told (tests are small); a host of one role consumes one.
                ",".join(queues or TEST_QUEUE_ENV.values()),
                "-n",
                f"{name}@%h",
                "--concurrency",
                str(concurrency),
                "--pool",
                "prefork",
                "-l",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=Path(__file__).resolve().parent,
            env=env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def send(self, sig: int) -> None:
        """Signal the whole process group: the main process and its pool children."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        self.send(sig)
        self.process.wait(timeout=30)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def start_worker(transactional_db, seeded_vocabulary, settings):
    """Start real Celery workers against the test database; all are stopped when the test ends."""
    from django.conf import settings as django_settings

    workers: list[WorkerProcess] = []

    def start(
        name: str = "worker", concurrency: int = 2, queues: tuple[str, ...] | None = None, **extra_env: str
    ) -> WorkerProcess:
        env = {
            **os.environ,
            "DATABASE_URL": database_url_of_test_db(),
            "REDIS_URL": django_settings.REDIS_URL,
            **TEST_QUEUE_ENV,
            "DEBUG": "0",
            "SECRET_KEY": django_settings.SECRET_KEY,
            "VOCAB_DIR": str(VOCAB_DIR),
            **extra_env,
        }
        worker = WorkerProcess(name, env, concurrency, queues)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        if worker.process.poll() is None:
            worker.kill(signal.SIGTERM)


def wait_for(condition, timeout: float = 60, interval: float = 0.2, message: str = "condition"):
    """Poll until ``condition()`` is truthy; fail with ``message`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {message}")
