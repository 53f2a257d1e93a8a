"""Keeping the index fresh: the outbox (``searchindex_change``, written by triggers in each writing transaction) read
by transaction id.

A poll reads, in one snapshot, the snapshot's ``xmin`` and every change written by a transaction at or after the
previous poll's ``xmin``. Every transaction before an ``xmin`` had ended when the snapshot was taken, so its changes
were visible to that poll or to an earlier one; a transaction still running then is at or after it, so the next poll
reads it again. Nothing committed is skipped, however transactions interleave, and a change read twice is applied
once (its outbox row id is remembered until the ``xmin`` passes it). Applying a change reads the candidate's rows
again, so a change only says *who*, never *what*. A poll only appends: compacting the columns once they pass their
bound of appended rows is its caller's (the index process makes the compacted copy outside the lock its requests
take, searchindex.server).

Old outbox rows are deleted by the beat on the primary (searchindex.tasks.prune_changes) after
SEARCH_INDEX_OUTBOX_KEEP_MINUTES; a replica's index reads the same rows through replication.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass, field

from psycopg import IsolationLevel
from psycopg.pq import TransactionStatus

from searchindex.columns import Columns, apply_candidates, apply_repositories

_BATCH = 2_000  # candidates read again per snapshot

# Ordered by ``xid``, which the range reads through its index: PostgreSQL has no estimate for an ``xid8`` range (it
# guesses a third of the table), and ordered by ``id`` it preferred walking the primary key over every row, 400 ms a
# poll after an import of a million candidates. A poll applies its changes as sets, in no order.
POLL_SQL = """
SELECT c.id, c.xid::text::int8, c.kind, c.object_id FROM searchindex_change c WHERE c.xid >= %s::text::xid8
ORDER BY c.xid
"""


@dataclass
class Freshness:
    """Where the columns stand: every transaction before ``xmin`` is in them; they are as fresh as ``fresh_at``."""

    xmin: int
    fresh_at: dt.datetime
    seen: dict[int, int] = field(default_factory=dict)  # outbox row id -> its xid, for rows at or after xmin


@contextlib.contextmanager
def snapshot(connection):
    """Reads in one snapshot (REPEATABLE READ) on an idle connection, back to READ COMMITTED afterwards; a connection
    already in a transaction (a test's) reads that transaction's."""
    if connection.info.transaction_status != TransactionStatus.IDLE:
        yield
        return
    connection.isolation_level = IsolationLevel.REPEATABLE_READ
    try:
        yield
    finally:
        connection.isolation_level = IsolationLevel.READ_COMMITTED


@dataclass(frozen=True)
class Changes:
    """What one poll read from the outbox: the candidates and repositories to read again, and where ``state`` moves
    once they are applied (``advance``)."""

    candidates: list[int]
    repositories: list[int]
    rows: list[tuple[int, int]]  # (outbox row id, its xid) of the changes read
    xmin: int
    now: dt.datetime


def read_changes(state: Freshness, connection) -> Changes:
    """The changes written since ``state``, in one snapshot with the snapshot's ``xmin``; those already read once are
    left out."""
    with snapshot(connection), connection.transaction(), connection.cursor() as cursor:
        cursor.execute("SELECT now(), pg_snapshot_xmin(pg_current_snapshot())::text::int8")
        [now, xmin] = cursor.fetchone()
        cursor.execute(POLL_SQL, [str(state.xmin)])
        changes = [row for row in cursor.fetchall() if row[0] not in state.seen]
    return Changes(
        candidates=sorted({pk for _, _, kind, pk in changes if kind == "c"}),
        repositories=sorted({pk for _, _, kind, pk in changes if kind == "r"}),
        rows=[(row_id, xid) for row_id, xid, _, _ in changes],
        xmin=xmin,
        now=now,
    )


def advance(state: Freshness, changes: Changes) -> None:
    """Move ``state`` past ``changes``, applied: their rows are remembered until ``xmin`` passes them."""
    state.seen.update(changes.rows)
    state.seen = {row_id: xid for row_id, xid in state.seen.items() if xid >= changes.xmin}
    state.xmin, state.fresh_at = changes.xmin, changes.now


def poll(columns: Columns, state: Freshness, connection) -> int:
    """Apply the changes written since the last poll, appended to ``columns``; returns how many candidates and
    repositories were read again. It does not compact them (``searchindex.columns.needs_compaction`` says when the
    caller should)."""
    changes = read_changes(state, connection)
    for start in range(0, len(changes.candidates), _BATCH):
        apply_candidates(columns, connection, changes.candidates[start : start + _BATCH])
    apply_repositories(columns, connection, changes.repositories)
    advance(state, changes)
    return len(changes.candidates) + len(changes.repositories)
