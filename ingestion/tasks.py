"""Celery tasks: thin, idempotent, id-based. The work lives in ingestion.services."""

import gc
import uuid

from celery import shared_task
from celery.signals import worker_process_init
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ingestion import services

# The database, the broker or the cache (Redis, which the vocabulary's version lives in) out of reach for a moment.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerOperationalError, RedisConnectionError, RedisTimeoutError)


@worker_process_init.connect
def _freeze_startup_objects(**_kwargs) -> None:
    """Take what a worker process starts with (Django, the app, their modules) out of the cyclic GC's sight.

    An import allocates tens of thousands of objects a chunk, which set off a full collection every few chunks; each
    walked that whole startup heap again, a measurable share of an import's CPU (docs/benchmarks.md). Frozen objects are
    still freed by reference counting; only a reference cycle among them would never be collected.
    """
    gc.freeze()


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=10,
)
def import_files(self, file_ids: list[int]) -> str:
    """Import these stored files. A retry or a re-delivery of this same task re-claims its own files."""
    return services.source_files_import(file_ids=file_ids, token=self.request.id or uuid.uuid4().hex).line()


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def sweep_stale() -> int:
    """Beat: re-queue files a lost message or a killed worker left behind."""
    return services.source_files_sweep()


@shared_task(acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=True, max_retries=5)
def scan_inbox() -> int | None:
    """Beat: new files in INGEST_INBOX become a batch (none when no file could be read)."""
    batch = services.inbox_scan()
    return batch.pk if batch else None
