"""Read replicas: a web request's reads go to a healthy PostgreSQL streaming replica, everything else to the
primary. Configured only when DATABASE_REPLICA_URLS names replicas (talentdb/settings/base.py); the README's "Read
replicas" says how to run one.

django-multidb-router (``multidb``) gives the rules for writes and migrations (the primary, always) and
read-your-writes: a request that may write (any method but GET, HEAD, OPTIONS and TRACE) is served by the primary and
sets a cookie, and that browser's reads stay on the primary for MULTIDB_PINNING_SECONDS (DATABASE_REPLICA_PIN_SECONDS),
longer than the replicas lag. What multidb lacks is added here:

- An API client keeps no cookie: the token it wrote with is pinned for as long in Django's cache, which all web
  processes and hosts share (``ReplicaRoutingMiddleware``).

- Only web requests read from replicas. multidb sends every read that is not pinned to a replica, in Celery workers
  and management commands too; but an import worker reads back what it has just written, and a migration the schema it
  changes, and behind a replica's lag both would go wrong. ``ReplicaRoutingMiddleware`` marks the thread while it serves
  a request (until ``request_finished``, so that a streamed export's rows are read from the replica too); an unmarked
  thread reads from the primary. A mark set by the web is safer than a list of replicas each other entry point must
  remember to empty: a new command, the beat or a shell reads from the primary without anyone thinking of it.
- A replica that is down, lags more than DATABASE_REPLICA_MAX_LAG_SECONDS behind, or is no longer in recovery (it was
  promoted: it does not follow the primary any more) is skipped with a log line, and the request reads from another
  replica or the primary. Its state is asked at most every DATABASE_REPLICA_CHECK_SECONDS per process, not on every
  read; between two checks, the first read of each request still finds a connection that broke (Django's health
  check), so a replica stopped since the last check costs no request an error.
- One request reads from one replica (chosen at random among the healthy ones, to spread the load): its pages and
  counts come from one server. Reads inside a transaction of the primary stay on the primary, which alone sees the
  transaction's writes.
"""

import hashlib
import logging
import random
import threading
import time
from collections import deque
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.signals import request_finished
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from multidb import PinningReplicaRouter
from multidb.middleware import READ_ONLY_METHODS, PinningRouterMiddleware, pinning_seconds
from multidb.pinning import pin_this_thread, this_thread_is_pinned
from redis.exceptions import RedisError
from rest_framework.authentication import TokenAuthentication, get_authorization_header

logger = logging.getLogger(__name__)

PINNED_API_CLIENT_KEY_PREFIX = "db-pin:token:"

# How far a replica is behind, in seconds. Each check reads the primary's flushed WAL position (all a replica can have
# received; not pg_current_wal_insert_lsn, which runs ahead of it while a transaction writes) and the replica's replay
# position. A replica that has replayed up to the primary's position has everything: 0, however old its last replayed
# transaction is (an idle primary writes nothing to replay). One that has not is at most as stale as the newest
# position this process saw the primary at, in an earlier check, that it has replayed: the time since then (an upper
# bound, by up to DATABASE_REPLICA_CHECK_SECONDS). Positions and transactions are not the same clock, so the age of
# the replica's last replayed transaction is used only without such a sample (the first check, or a replica further
# behind than the samples kept): a primary busy with one long transaction (an import chunk, a vacuum) then reads as
# lagging, which errs towards the primary. The replica's own view is never enough: a WAL receiver that is connected
# but receives nothing (a stuck link or WAL sender) has replayed all it received, and would look current while the
# primary writes on. NULL: nothing replayed since it started: unknown.
#
# The flushed position is past the header of a new WAL page (24 bytes, 40 for a segment's first page) when the last
# record ended on a page boundary, as after every segment switch (archive_timeout): a replica that replayed up to that
# boundary is not behind. A record cannot start on the boundary itself, and none is shorter than 24 bytes, so "up to
# 40 bytes short of it, from a page boundary" hides no record.
_PRIMARY_WAL_SQL = "SELECT pg_current_wal_flush_lsn()::text"
_LAG_SQL = """
WITH replica AS (
    SELECT pg_last_wal_replay_lsn() AS replayed,
           pg_wal_lsn_diff(%s::pg_lsn, pg_last_wal_replay_lsn()) AS missing
)
SELECT pg_is_in_recovery(),
       missing <= 0
           OR (missing <= 40 AND pg_wal_lsn_diff(replayed, '0/0') %% current_setting('wal_block_size')::int = 0),
       pg_wal_lsn_diff(replayed, '0/0')::bigint,
       EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float
FROM replica
"""
# The primary's positions this process saw, newest last: enough to cover DATABASE_REPLICA_MAX_LAG_SECONDS many times
# over at one check every DATABASE_REPLICA_CHECK_SECONDS.
_POSITIONS_KEPT = 64


def _lsn(text: str) -> int:
    high, low = text.split("/")
    return (int(high, 16) << 32) + int(low, 16)


# This thread's request: whether it may read from a replica, and the replica it reads from (None: not chosen yet).
_request = threading.local()


def _request_started() -> None:
    _request.serving = True
    _request.replica = None


def _request_finished(**kwargs) -> None:
    _request.serving = False
    _request.replica = None


@dataclass(frozen=True)
class _ReplicaState:
    checked_at: float  # time.monotonic()
    usable: bool


class ReplicaRouter(PinningReplicaRouter):
    """multidb's pinning router, reading from a replica only in a web request and only from a healthy one."""

    def __init__(self):
        # Each replica's last known state, for this process. Threads share it; two that check at once cost one query
        # more, never a wrong answer, so there is no lock.
        self._states: dict[str, _ReplicaState] = {}
        self._positions: deque[tuple[float, int]] = deque(maxlen=_POSITIONS_KEPT)

    def db_for_read(self, model, **hints):
        if not getattr(_request, "serving", False) or this_thread_is_pinned():
            return DEFAULT_DB_ALIAS
        if connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return DEFAULT_DB_ALIAS
        if _request.replica is None:
            _request.replica = self._healthy_replica()
        return _request.replica

    def _healthy_replica(self) -> str:
        aliases = list(settings.REPLICA_DATABASES)
        random.shuffle(aliases)
        for alias in aliases:
            if self._usable(alias):
                return alias
        return DEFAULT_DB_ALIAS

    def _usable(self, alias: str) -> bool:
        now = time.monotonic()
        state = self._states.get(alias)
        if state is None or now - state.checked_at >= settings.DATABASE_REPLICA_CHECK_SECONDS:
            state = self._states[alias] = _ReplicaState(checked_at=now, usable=self._check(alias, was=state))
            return state.usable
        if not state.usable:
            return False
        connection = connections[alias]
        try:
            # Is this thread's persistent connection still alive? Django's own check (CONN_HEALTH_CHECKS), once a
            # request, asked here rather than on the request's first query, whose failure would be an error page.
            connection.health_check_done = False
            connection.close_if_health_check_failed()
            connection.ensure_connection()
        except DatabaseError as error:
            logger.warning("Read replica %s is unreachable (%s); reads go to the primary.", alias, error)
            self._states[alias] = _ReplicaState(checked_at=now, usable=False)
            return False
        return True

    def replica_lag(self, alias: str) -> tuple[bool, float | None]:
        """Whether the replica is in recovery (following a primary), and how many seconds it is behind the primary
        (None: unknown). Raises DatabaseError if either server cannot be asked."""
        return self._lag_behind(alias, self._primary_wal_position())

    def _primary_wal_position(self) -> str:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute(_PRIMARY_WAL_SQL)
            position = cursor.fetchone()[0]
        self._positions.append((time.monotonic(), _lsn(position)))
        return position

    def _lag_behind(self, alias: str, primary_position: str) -> tuple[bool, float | None]:
        with connections[alias].cursor() as cursor:
            cursor.execute(_LAG_SQL, [primary_position])
            in_recovery, caught_up, replayed, replay_age = cursor.fetchone()
        if caught_up:
            return in_recovery, 0.0
        if replayed is not None:
            # The newest position seen before this check's that the replica has replayed.
            for seen_at, position in reversed(list(self._positions)[:-1]):
                if position <= replayed:
                    return in_recovery, time.monotonic() - seen_at
        return in_recovery, replay_age

    def _check(self, alias: str, *, was: _ReplicaState | None) -> bool:
        # The primary's errors are not caught: a request that cannot reach the primary fails anyway.
        primary_position = self._primary_wal_position()
        try:
            in_recovery, lag = self._lag_behind(alias, primary_position)
        except DatabaseError as error:
            logger.warning("Read replica %s is unreachable (%s); reads go to the primary.", alias, error)
            return False
        limit = settings.DATABASE_REPLICA_MAX_LAG_SECONDS
        if not in_recovery:
            logger.warning("Read replica %s is not in recovery (promoted?); reads go to the primary.", alias)
            return False
        if lag is None or lag > limit:
            shown = "an unknown time" if lag is None else f"{lag:.1f} s"
            logger.warning(
                "Read replica %s is %s behind the primary (more than DATABASE_REPLICA_MAX_LAG_SECONDS, %s s); "
                "reads go to the primary.",
                alias,
                shown,
                limit,
            )
            return False
        if was is not None and not was.usable:
            logger.info("Read replica %s is back (%.1f s behind the primary); reads go to it again.", alias, lag)
        return True


def _token_pin_key(request) -> str | None:
    """The cache key of the pin of the API token this request carries (Authorization: Token KEY), or None. A digest:
    the cache holds no credential."""
    parts = get_authorization_header(request).split()
    if len(parts) != 2 or parts[0].lower() != TokenAuthentication.keyword.lower().encode():
        return None
    return f"{PINNED_API_CLIENT_KEY_PREFIX}{hashlib.sha256(parts[1]).hexdigest()}"


class ReplicaRoutingMiddleware(PinningRouterMiddleware):
    """Marks the thread as serving a web request, for ``ReplicaRouter``, and pins a writer's reads to the primary.
    Synchronous only: the mark and the pin belong to the thread that runs the request's views, as multidb's own pin
    does (gunicorn serves talentdb.wsgi, one thread a request).

    Two pins, each for MULTIDB_PINNING_SECONDS after a request that may write. A browser gets multidb's cookie. An API
    client need keep no cookie: its token is pinned in Django's cache (Redis), which every web process and host shares,
    so its next request reads from the primary wherever it is served. The pin is the token's, not the user's, because
    it must be known before the request's first read, which is the token's own lookup (on a replica that may not have
    the token yet either); the Authorization header is there from the start, the user only after that read. Only an
    authenticated request's write pins its token: a refused one stores nothing. If the cache cannot be reached, a
    token's reads go to the primary (never to a replica that may not have its write)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        super().__init__(get_response)
        # After the response's last byte (a streamed export's too), not when the view returns.
        request_finished.connect(_request_finished, dispatch_uid="talentdb.db_router.request_finished")

    def process_request(self, request):
        _request_started()
        super().process_request(request)
        key = _token_pin_key(request)
        if key is not None and not this_thread_is_pinned():
            try:
                pinned = cache.get(key) is not None
            except RedisError as error:
                logger.warning("The cache is unreachable (%s); this API token's reads go to the primary.", error)
                pinned = True
            if pinned:
                pin_this_thread()

    def process_response(self, request, response):
        response = super().process_response(request, response)
        wrote = request.method not in READ_ONLY_METHODS or getattr(response, "_db_write", False)
        user = getattr(request, "user", None)  # DRF sets it here once it has authenticated the token
        key = _token_pin_key(request)
        if wrote and key is not None and user is not None and user.is_authenticated:
            try:
                cache.set(key, 1, timeout=pinning_seconds())
            except RedisError as error:
                logger.warning("The cache is unreachable (%s); this API token's reads are not pinned.", error)
        return response
