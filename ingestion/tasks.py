"""Celery tasks: thin, idempotent, id-based. The work lives in ingestion.services."""

import gc
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from celery import shared_task
from celery.signals import worker_process_init
from django.db import DatabaseError
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from db.errors import is_transient
from ingestion import privacy, services


class TransientDatabaseError(Exception):
    """A database error a retry can get past (``db.errors.is_transient``: the connection, a serialization
    failure, a deadlock), raised from it so that Celery's ``autoretry_for``, which matches classes, can tell it apart
    from the rest of Django's ``OperationalError``s ("string is too long for tsvector" is one too)."""


@contextmanager
def _transient_database_errors() -> Iterator[None]:
    try:
        yield
    except DatabaseError as exc:
        if is_transient(exc):
            raise TransientDatabaseError(f"{exc.__class__.__name__}: {exc}") from exc
        raise  # not worth a retry: the task fails, and its files are the sweeper's


# The database, the broker or the cache (Redis, which the vocabulary's version lives in) out of reach for a moment, or
# a transaction the database aborted because of a concurrent one. Nothing else: any other error comes back on every
# retry (an import fails a file its content breaks on its own, with a message, and never raises for it).
TRANSIENT_ERRORS = (TransientDatabaseError, BrokerOperationalError, RedisConnectionError, RedisTimeoutError)


@worker_process_init.connect
def _freeze_startup_objects(**_kwargs) -> None:
    """Take what a worker process starts with (Django, the app, their modules) out of the cyclic GC's sight.

    An import allocates tens of thousands of objects a chunk, which set off a full collection every few chunks; each
    walked that whole startup heap again, a measurable share of an import's CPU (docs/benchmarks.md). Frozen objects are
    still freed by reference counting; only a reference cycle among them would never be collected.
    """
    gc.freeze()


# A chunk of files: acknowledged once done, re-delivered when its worker dies, retried on a transient database error.
_CHUNK_TASK = {
    "bind": True,
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 10,
}


@shared_task(**_CHUNK_TASK)
def import_files(self, file_ids: list[int]) -> str:
    """Import these stored files. A retry or a re-delivery of this same task re-claims its own files."""
    with _transient_database_errors():
        return services.source_files_import(file_ids=file_ids, token=self.request.id or uuid.uuid4().hex).line()


@shared_task(**_CHUNK_TASK)
def rebuild_files(self, file_ids: list[int]) -> str:
    """Rebuild the candidates of these stored files (``manage.py reparse --all``); a retry re-claims its own files."""
    with _transient_database_errors():
        return services.source_files_rebuild(file_ids=file_ids, token=self.request.id or uuid.uuid4().hex).line()


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def sweep_stale() -> int:
    """Beat: re-queue files a lost message or a killed worker left behind."""
    with _transient_database_errors():
        return services.source_files_sweep()


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def scan_inbox() -> int | None:
    """Beat: new files in INGEST_INBOX become a batch (none when no file could be read); copies of erased people's
    files still waiting to be deleted go (an erasure's request lost with a worker is made up here)."""
    with _transient_database_errors():
        batch = services.inbox_scan()
        privacy.inbox_copies_delete()
    return batch.pk if batch else None


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def delete_inbox_copies() -> int:
    """After an erasure or a refusal: delete the copies the inbox kept of those files (on the default queue, whose
    worker is where the inbox is)."""
    with _transient_database_errors():
        return privacy.inbox_copies_delete()
