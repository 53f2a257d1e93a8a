"""Writes of export jobs: create (with the per-user limit), run, fail, sweep and expire; and the slots of streamed
exports, which count against the same limit.

A job is done only when every row is in the stored file and counted: the rows are written to a local temporary file
(hashed and counted on the way), the file is saved to the ``exports`` storage under a name of this run, and a
compare-and-set on the run's claim marks the job done with the file's name, size, sha256 and row count. A run that
dies, times out or loses its claim never gets there, so a truncated file is never a done job. Every run starts from
scratch, so running a job again (Celery acknowledges late and may deliver twice) rewrites its file whole.
"""

from __future__ import annotations

import hashlib
import logging
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.files import File
from django.core.files.storage import storages
from django.core.files.temp import NamedTemporaryFile
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from core.errors import ApplicationError
from db.queueing import task_on_commit
from exports.formats import export_lines, row_url
from exports.models import Export
from exports.selectors import export_candidates, exports_active_count
from profiles.contacts import may_see_contact_details
from profiles.models import Candidate
from profiles.selectors import candidates_count_up_to

logger = logging.getLogger(__name__)

# The database or Redis out of reach for a moment: the task retries the job from scratch.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError)
# A run reports its progress (and that it is alive) every this many rows: about a second's work.
HEARTBEAT_ROWS = 1000
# A run whose worker was lost this many times is failed rather than queued again.
MAX_ATTEMPTS = 3
# Starting an export job needs it; Recruiters have it, Viewers (read-only: a job writes a row) do not.
EXPORT_PERMISSION = "exports.add_export"
# A streamed export's slot lapses on its own after this long, should its process die before releasing it; streams
# are at most EXPORT_STREAM_MAX_ROWS rows, seconds of work, and the web server ends a request long before this.
STREAM_SLOT_SECONDS = 900


class ExportLimitReached(ApplicationError):
    """The user already runs EXPORT_MAX_CONCURRENT exports (the API answers 429)."""


class _ClaimLost(Exception):
    """Another run holds the job now (this one was taken for lost): stop without touching it."""


def storage():
    return storages["exports"]


# --- Creating, and the per-user limit -------------------------------------------------------------------------------


def export_create(*, owner, format: str, query: str, row_url: str) -> Export:
    """Queue an export of the candidates ``query`` selects, written in ``format``; each row links to ``row_url``
    (``{pk}`` stands for the candidate's id). Raises Django's ValidationError for a bad query, ApplicationError for an
    unknown format, and ExportLimitReached when the owner already runs EXPORT_MAX_CONCURRENT exports."""
    if format not in Export.Format.values:
        raise ApplicationError(f"format: {format!r} is not one of {', '.join(Export.Format.values)}")
    export_candidates(format=format, query=query, user=owner)  # validates the filters, as the list does
    with transaction.atomic():
        _check_limit(owner)
        export = Export.objects.create(
            owner=owner, format=format, query=query, row_url=row_url, heartbeat_at=timezone.now()
        )
        export_enqueue_on_commit(export.pk)
    return export


def _check_limit(user) -> None:
    """Refuse a new export when the user already runs the most allowed. Call inside a transaction: the user's row is
    locked, so two requests of one user never both pass the check."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    running = exports_active_count(user=user) + export_streams_running(user=user)
    limit = settings.EXPORT_MAX_CONCURRENT
    if running >= limit:
        raise ExportLimitReached(
            f"You have {running} exports running (at most {limit} at a time): wait until one has finished.",
            code="too_many_exports",
            details={"running": running, "limit": limit},
        )


RUN_EXPORT = "exports.tasks.run_export"


def export_enqueue_on_commit(export_id: int) -> None:
    """Send the job to the workers once the current transaction commits."""
    task_on_commit(RUN_EXPORT, export_id)


# --- Streamed exports' slots ----------------------------------------------------------------------------------------


def _streams(user_id: int):
    """The Redis client and key of the user's stream slots, through the project's cache (one caching helper: its
    connection pool, its KEY_PREFIX and version). A slot must lapse on its own, which a sorted set scored by expiry
    does and the cache's get/set cannot, so the sorted set is reached through Django's RedisCache client; Django has
    no public name for that client."""
    cache = caches["default"]
    key = cache.make_and_validate_key(f"exports:streams:{user_id}")
    return cache._cache.get_client(key, write=True), key


def export_streams_running(*, user) -> int:
    """The user's streamed exports in progress: members of a Redis sorted set scored by when each lapses."""
    client, key = _streams(user.pk)
    client.zremrangebyscore(key, "-inf", time.time())
    return client.zcard(key)


@dataclass(frozen=True)
class StreamSlot:
    """A streamed export's place among the user's running exports, held until ``release``."""

    user_id: int
    member: str

    def release(self) -> None:
        client, key = _streams(self.user_id)
        client.zrem(key, self.member)

    def releasing(self, lines: Iterator[str]) -> ReleasingLines:
        """``lines`` as a streamed body that gives this slot back when the response is closed."""
        return ReleasingLines(lines, self)


class ReleasingLines:
    """A streamed body that gives its export slot back when the response is closed: Django closes the streaming
    content's iterator in ``response.close()``, which the WSGI server calls once the body is sent or the client has
    gone, and a slot that is never released lapses on its own (STREAM_SLOT_SECONDS)."""

    def __init__(self, lines: Iterator[str], slot: StreamSlot):
        self._lines, self._slot = iter(lines), slot

    def __iter__(self):
        return self

    def __next__(self) -> str:
        return next(self._lines)

    def close(self) -> None:
        try:
            close = getattr(self._lines, "close", None)
            if close is not None:
                close()
        finally:
            self._slot.release()


def export_stream_start(*, user, queryset: QuerySet[Candidate]) -> StreamSlot:
    """Admit a streamed export of ``queryset``: refused (ApplicationError) when it holds more than
    EXPORT_STREAM_MAX_ROWS candidates, which an export job writes instead, and (ExportLimitReached) when the user
    already runs EXPORT_MAX_CONCURRENT exports. The caller releases the slot when the response is closed."""
    limit = settings.EXPORT_STREAM_MAX_ROWS
    if candidates_count_up_to(queryset, limit=limit) > limit:
        # Only a user with the export permission may start a job (a Viewer gets a 403 there).
        if user.has_perm(EXPORT_PERMISSION):
            advice = "start an export job with POST /api/v1/exports/ (format, query) and download its file once done."
        else:
            advice = "narrow the search, or ask a recruiter to run it as an export job."
        raise ApplicationError(
            f"This search matches more than {limit:,} candidates, too many to stream in one response: {advice}",
            code="too_many_rows",
            details={"limit": limit},
        )
    return export_stream_slot(user=user)


def export_stream_slot(*, user) -> StreamSlot:
    """Take one of the user's EXPORT_MAX_CONCURRENT export slots for a stream whose size its caller has bounded
    (ExportLimitReached when every slot is taken). The caller releases it when the response is closed."""
    with transaction.atomic():
        _check_limit(user)
        slot = StreamSlot(user_id=user.pk, member=uuid.uuid4().hex)
        client, key = _streams(user.pk)
        client.pipeline().zadd(key, {slot.member: time.time() + STREAM_SLOT_SECONDS}).expire(
            key, STREAM_SLOT_SECONDS
        ).execute()
    return slot


# --- Running a job --------------------------------------------------------------------------------------------------


def export_run(*, export_id: int) -> Export | None:
    """Run a queued export job; None when there is none to run (done already, running elsewhere, or gone)."""
    token = uuid.uuid4().hex
    now = timezone.now()
    claimed = Export.objects.filter(pk=export_id, status=Export.Status.QUEUED).update(
        status=Export.Status.RUNNING,
        claim_token=token,
        heartbeat_at=now,
        started_at=now,
        finished_at=None,
        attempts=F("attempts") + 1,
        rows_total=None,
        rows_written=0,
        error="",
    )
    if not claimed:
        logger.info("export %s: not queued, nothing to run", export_id)
        return None
    export = Export.objects.select_related("owner").get(pk=export_id)
    try:
        _write(export, token)
    except _ClaimLost:
        logger.warning("export %s: another run took the job over; this one stops", export_id)
        return None
    except SoftTimeLimitExceeded:
        limit = settings.EXPORT_TASK_SOFT_TIME_LIMIT
        _fail(
            export,
            token,
            f"The export ran longer than its time limit ({limit} s) and was stopped: narrow the "
            "search, or raise EXPORT_TASK_SOFT_TIME_LIMIT.",
        )
    except TRANSIENT_ERRORS:
        _release(export, token)  # queued again, for the task's retry
        raise
    except Exception as exc:
        logger.exception("export %s failed", export_id)
        _fail(export, token, f"The export failed ({type(exc).__name__}); try again, or tell an administrator.")
    export.refresh_from_db()
    return export


def _write(export: Export, token: str) -> None:
    queryset = export_candidates(format=export.format, query=export.query, user=export.owner)
    _heartbeat(export, token, rows_total=queryset.order_by().count())
    # Whether the owner may see contact details now, when the file is written, not when the job was asked for.
    contacts = may_see_contact_details(export.owner)
    held: list[int] = []  # the candidates of the rows written, in order: what an erasure looks for
    url = row_url(export.row_url)

    def url_of_row(candidate: Candidate) -> str:
        held.append(candidate.pk)  # export_lines asks for each row's URL once, as it writes the row
        return url(candidate)

    lines = export_lines(export.format, queryset, url=url_of_row, contacts=contacts)
    header_lines = 1 if export.format == Export.Format.CSV else 0
    digest, size, lines_written = hashlib.sha256(), 0, 0
    with NamedTemporaryFile(suffix=".part", dir=settings.FILE_UPLOAD_TEMP_DIR) as part:
        for line in lines:
            data = line.encode("utf-8")
            part.write(data)
            digest.update(data)
            size += len(data)
            lines_written += 1
            if lines_written % HEARTBEAT_ROWS == 0:
                _heartbeat(export, token, rows_written=lines_written - header_lines)
        part.flush()
        rows = lines_written - header_lines
        _heartbeat(export, token, rows_written=rows)
        export_files_delete(export)  # what an earlier, interrupted run of this job left
        part.seek(0)
        name = storage().save(f"{export.pk}/{token}.{export.format}", File(part))
    now = timezone.now()
    done = Export.objects.filter(pk=export.pk, claim_token=token, status=Export.Status.RUNNING).update(
        status=Export.Status.DONE,
        file_name=name,
        file_size=size,
        file_sha256=digest.hexdigest(),
        rows_written=rows,
        rows_total=rows,  # the rows the file holds; the count at the start only measured progress
        candidate_ids=held,
        heartbeat_at=now,
        finished_at=now,
        expires_at=now + timedelta(hours=settings.EXPORT_RETENTION_HOURS),
    )
    if not done:
        storage().delete(name)
        raise _ClaimLost


def _heartbeat(export: Export, token: str, **progress) -> None:
    alive = Export.objects.filter(pk=export.pk, claim_token=token, status=Export.Status.RUNNING).update(
        heartbeat_at=timezone.now(), **progress
    )
    if not alive:
        raise _ClaimLost


def _fail(export: Export, token: str, message: str) -> None:
    Export.objects.filter(pk=export.pk, claim_token=token, status=Export.Status.RUNNING).update(
        status=Export.Status.FAILED, error=message, finished_at=timezone.now()
    )


def _release(export: Export, token: str) -> None:
    """Hand the job back to the queue (best effort: the database may be the thing that is down; then the sweeper
    finds it by its stale heartbeat)."""
    try:
        Export.objects.filter(pk=export.pk, claim_token=token, status=Export.Status.RUNNING).update(
            status=Export.Status.QUEUED, heartbeat_at=timezone.now()
        )
    except TRANSIENT_ERRORS:
        logger.warning("export %s: could not queue it again; the sweeper will", export.pk)


def export_files_delete(export: Export) -> None:
    """Delete whatever files of the job the storage holds (a finished file, or what an interrupted run left)."""
    files = storage()
    try:
        _folders, names = files.listdir(str(export.pk))
    except FileNotFoundError:
        return
    for name in names:
        files.delete(f"{export.pk}/{name}")


# --- Sweeping and expiry (beat) -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SweepResult:
    requeued: int
    failed: int
    expired: int


def exports_sweep() -> SweepResult:
    """Beat: queue again the jobs whose run stopped reporting (its worker was lost) or whose message was lost, fail
    those lost MAX_ATTEMPTS times, and delete the files past EXPORT_RETENTION_HOURS."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.EXPORT_STALE_AFTER_SECONDS)
    lost = Export.objects.filter(status=Export.Status.RUNNING, heartbeat_at__lt=stale)
    failed = lost.filter(attempts__gte=MAX_ATTEMPTS).update(
        status=Export.Status.FAILED,
        finished_at=now,
        error=f"The export was interrupted {MAX_ATTEMPTS} times (its worker was lost or ran out of time).",
    )
    requeue_ids = []
    with transaction.atomic():
        for export in Export.objects.select_for_update(skip_locked=True).filter(
            status__in=Export.ACTIVE, heartbeat_at__lt=stale
        ):
            export.status, export.heartbeat_at = Export.Status.QUEUED, now
            export.save(update_fields=["status", "heartbeat_at"])
            requeue_ids.append(export.pk)
        for export_id in requeue_ids:
            export_enqueue_on_commit(export_id)
    return SweepResult(requeued=len(requeue_ids), failed=failed, expired=exports_expire(now=now))


def exports_expire(*, now=None) -> int:
    """Delete the files of done exports past their expiry; the jobs stay, as expired."""
    now = now or timezone.now()
    expired = 0
    for export in Export.objects.filter(status=Export.Status.DONE, expires_at__lte=now):
        export_files_delete(export)
        expired += Export.objects.filter(pk=export.pk, status=Export.Status.DONE).update(
            status=Export.Status.EXPIRED, file_name=""
        )
    return expired


def export_delete(*, export: Export) -> None:
    """Delete a job and its file (the admin's delete)."""
    export_files_delete(export)
    export.delete()
