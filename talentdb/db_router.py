"""Read replicas (issue 19): a web request's reads go to a healthy PostgreSQL streaming replica, everything else to the
primary. Configured only when DATABASE_REPLICA_URLS names replicas (talentdb/settings.py); the README's "Read
replicas" says how to run one.

django-multidb-router (``multidb``) gives the rules for writes and migrations (the primary, always) and
read-your-writes: a request that may write (any method but GET, HEAD, OPTIONS and TRACE) is served by the primary and
sets a cookie, and that browser's reads stay on the primary for MULTIDB_PINNING_SECONDS (DATABASE_REPLICA_PIN_SECONDS),
longer than the replicas lag. What multidb lacks is added here:

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

import logging
import random
import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.signals import request_finished
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from multidb import PinningReplicaRouter
from multidb.middleware import PinningRouterMiddleware
from multidb.pinning import this_thread_is_pinned

logger = logging.getLogger(__name__)

# How far a replica is behind, in seconds. `now() - pg_last_xact_replay_timestamp()` alone grows while the primary is
# idle, with nothing to replay: a replica that has replayed all it received, from a primary it is streaming from,
# is not behind. Without a WAL receiver (the primary is unreachable) it cannot know, and the age of its last replayed
# transaction is the honest answer. NULL: nothing replayed since it started, and more to replay: unknown.
_LAG_SQL = """
SELECT pg_is_in_recovery(),
       CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()
                 AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver) THEN 0
            ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float
       END
"""

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

    def _check(self, alias: str, *, was: _ReplicaState | None) -> bool:
        try:
            with connections[alias].cursor() as cursor:
                cursor.execute(_LAG_SQL)
                in_recovery, lag = cursor.fetchone()
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


class ReplicaRoutingMiddleware(PinningRouterMiddleware):
    """Marks the thread as serving a web request, for ``ReplicaRouter``, and pins a writer's reads to the primary
    (multidb's cookie). Synchronous only: the mark and the pin belong to the thread that runs the request's views, as
    multidb's own pin does (gunicorn serves talentdb.wsgi, one thread a request)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        super().__init__(get_response)
        # After the response's last byte (a streamed export's too), not when the view returns.
        request_finished.connect(_request_finished, dispatch_uid="talentdb.db_router.request_finished")

    def process_request(self, request):
        _request_started()
        return super().process_request(request)
