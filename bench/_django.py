"""Set up Django for a benchmark on a database of its own (never the development data)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def setup(database: str) -> str:
    """Point DATABASE_URL at ``database`` on the configured (or embedded) server, create it, and set Django up.

    Returns the database URL, for worker processes the benchmark starts.
    """
    sys.path.insert(0, str(BASE_DIR))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talentdb.settings")
    os.environ.setdefault("DEBUG", "1")
    from talentdb import embedded

    embedded.start()
    base_url = os.environ.get("DATABASE_URL") or embedded.postgres_url(embedded.var_dir())
    if not os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = embedded.redis_url(embedded.var_dir())
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{database}"')
    url = _with_database(base_url, database)
    os.environ["DATABASE_URL"] = url
    # Cached rows are keyed by primary keys, which every database numbers from 1: a prefix of this database's own keeps
    # a benchmark's users apart from those of the database it was started beside (a test run's export slots, say).
    os.environ["CACHE_KEY_PREFIX"] = f"{os.environ.get('CACHE_KEY_PREFIX') or 'talentdb'}-{database}"
    import django

    django.setup()
    return url


def fresh_database(database: str) -> str:
    """Drop and create ``database``, set Django up on it, migrate it and seed the skill vocabulary; returns its URL."""
    recreate(database)
    url = setup(database)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("seed_skills", stdout=open(os.devnull, "w"))  # noqa: SIM115
    return url


def celery_worker_command(*, queue: str, concurrency: int) -> list[str]:
    """A ``celery worker`` on one private queue, quiet, without the cluster chatter a lone worker does not need."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "talentdb",
        "worker",
        "-Q",
        queue,
        "--concurrency",
        str(concurrency),
        "-l",
        "WARNING",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]


def recreate(database: str) -> None:
    """Drop and create ``database`` (before Django connects to it)."""
    from talentdb import embedded

    embedded.start()
    base_url = os.environ.get("DATABASE_URL") or embedded.postgres_url(embedded.var_dir())
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def _with_database(url: str, database: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))
