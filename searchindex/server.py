"""The index process: one per host, beside the web server's workers, which ask it over a unix socket.

It builds the columns from the host's database, then polls the outbox every ``POLL_SECONDS`` and answers requests:
one JSON line in (``{"op": "rank", "query": ..., "cut": ...}``, ``{"op": "text", "tsquery": ..., "limit": ...}`` or
``{"op": "status"}``), one JSON line out. The
gunicorn workers hold no copy of the index: a million candidates are one set of arrays on the host, not one per
worker. Requests are answered one at a time (the arithmetic is numpy's; a second core would only contend for the same
memory bandwidth), under the lock that the poll takes to apply changes. Compacting the columns (searchindex.columns)
takes a second or two at a million candidates, so it is not done under that lock: the refresh makes the compacted copy
outside it, while requests go on ranking over the columns it copies, then swaps the copy in.

Beside the columns it holds the BM25 text index (searchindex.text), built once the columns are, in a process of its
own into files this one then opens (the columns answer and stay fresh meanwhile, without sharing the interpreter with
a million documents' parsing), then refreshed with them: until it is built, a text search answers
"building" and the job match's keywords are read from PostgreSQL, as they are while the text index is further behind
than SEARCH_INDEX_MAX_LAG_SECONDS. A rebuild drops the text index with the columns it replaces: the outbox rows it had
not read may be gone, so polling it again would call it fresh while it misses them.

``manage.py searchindex_serve`` runs it; ``make run`` starts that command with the other processes.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import socketserver
import stat
import threading
import time
from pathlib import Path

import numpy as np
import psycopg
from django.conf import settings
from django.utils import timezone

from searchindex.columns import Columns, build, compacted, needs_compaction
from searchindex.freshness import Freshness, poll
from searchindex.pages import keywords_matched
from searchindex.protocol import decode_cut, decode_query
from searchindex.rank import rank
from searchindex.text import TextIndex
from searchindex.tsquery import Node, Unsupported, parse_tsquery

logger = logging.getLogger(__name__)

POLL_SECONDS = 1.0
MAX_BACKOFF_SECONDS = 30.0
_KEYWORDS_KEPT = 1_024  # parsed keywords remembered (a job's keywords come again with each of its pages)


class Index:
    """The columns and their freshness, behind one lock, and the text index."""

    def __init__(self, dsn: str, text_root: Path | None = None):
        self.dsn = dsn
        self.text_root = text_root  # where the text index's files go (None: the system's temporary directory)
        self.lock = threading.Lock()
        self.columns: Columns | None = None
        self.freshness: Freshness | None = None
        self.text: TextIndex | None = None
        self.text_builder: threading.Thread | None = None
        self.text_failed_at: float | None = None
        self.generation = 0  # a text index built for an earlier build of the columns is dropped, not installed
        self.keywords: dict[str, Node | None] = {}
        self.state = "building"
        self.connection: psycopg.Connection | None = None  # opened by the refresh loop, again after a failure

    def connect(self) -> psycopg.Connection:
        if self.connection is None or self.connection.closed:
            self.connection = psycopg.connect(self.dsn, autocommit=True)
        return self.connection

    def disconnect(self) -> None:
        """Drop the connection after a failure; the next refresh opens another."""
        if self.connection is not None:
            self.connection.close()
        self.connection = None

    def build(self) -> None:
        started = time.monotonic()
        with psycopg.connect(self.dsn) as connection:
            columns = build(connection)
        freshness = self._caught_up(columns)
        with self.lock:
            self.columns, self.freshness = columns, freshness
            self.state = "ready"
            self.text, self.generation = (
                None,
                self.generation + 1,
            )  # text searches go to SQL until the new text is built
        logger.info(
            "search index built: %d candidates, %.1f MiB, %.1f s",
            len(columns),
            columns.nbytes() / 2**20,
            time.monotonic() - started,
        )
        self.build_text()

    def _caught_up(self, columns: Columns) -> Freshness:
        """The freshness of ``columns`` once what was committed while they were read from their one snapshot is
        applied: else the first requests would find them a build's length behind and go to SQL until the next poll.
        On a connection of its own (the process's is the requests', under the lock) in autocommit (the build's would
        read the build's snapshot again). Should it fail, the columns serve as built (a poll moves the freshness only
        once it has applied everything) and the next poll reads the same changes: a build is not thrown away for a
        poll."""
        freshness = Freshness(xmin=columns.xmin, fresh_at=columns.built_at)
        try:
            with psycopg.connect(self.dsn, autocommit=True) as connection:
                poll(columns, freshness, connection)
        except psycopg.Error:
            logger.warning("search index: the changes made during the build are left to the next poll", exc_info=True)
        return freshness

    def build_text(self) -> None:
        """Start building the text index in a thread, unless one is building or the last build failed a moment ago.
        One still building for an earlier build of the columns is dropped when done, and the refresh starts another."""
        if self.text_builder is not None and self.text_builder.is_alive():
            return
        if self.text_failed_at is not None and time.monotonic() - self.text_failed_at < MAX_BACKOFF_SECONDS:
            return
        self.text_builder = threading.Thread(
            target=self._build_text, args=(self.generation,), name="searchindex-text", daemon=True
        )
        self.text_builder.start()

    def _build_text(self, generation: int) -> None:
        started = time.monotonic()
        try:
            # In a process of its own: the ranking keeps this one's interpreter.
            text = TextIndex.build_apart(self.dsn, parent=self.text_root)
            with psycopg.connect(self.dsn) as connection:
                text.poll(connection)  # the changes committed while it was built: it starts as fresh as the columns
        except Exception:  # any failure: text searches run in SQL, and the refresh loop tries again later
            self.text_failed_at = time.monotonic()
            logger.exception("search index: the text index failed to build; retrying in %.0f s", MAX_BACKOFF_SECONDS)
            return
        with self.lock:
            if generation != self.generation:  # the columns were rebuilt meanwhile: its outbox rows may be gone
                logger.info("search index: a text index built before the last rebuild is dropped")
                return
            self.text, self.text_failed_at = text, None
        logger.info("search index: text of %d candidates indexed in %.1f s", len(text), time.monotonic() - started)

    def refresh(self) -> int:
        connection = self.connect()
        with self.lock:
            changed = poll(self.columns, self.freshness, connection)
            if self.text is not None:
                changed += self.text.poll(connection)
            elif self.text_builder is None or not self.text_builder.is_alive():
                self.build_text()  # its last build failed
            columns = self.columns
        if needs_compaction(columns):
            self.compact(columns)
        return changed

    def compact(self, columns: Columns) -> None:
        """Swap in a compacted copy of ``columns``, made outside the lock: requests rank over ``columns`` meanwhile.
        Nothing applies a change to them meanwhile: only the refresh loop's thread writes (``refresh``, ``build``), and
        it is making the copy. Should a rebuild have replaced them meanwhile, the rebuild stays and the copy is dropped:
        it holds the old columns' rows. The freshness stays as it is: the copy holds what ``columns`` held."""
        started = time.monotonic()
        new, dropped = compacted(columns)
        with self.lock:
            if self.columns is not columns:
                logger.info("search index: a compacted copy dropped: the columns were rebuilt meanwhile")
                return
            self.columns = new
        logger.info(
            "search index compacted: %d dead rows dropped, %d candidates, %.1f MiB, %.2f s",
            dropped,
            len(new),
            new.nbytes() / 2**20,
            time.monotonic() - started,
        )

    def keywords_ids(self, keywords: tuple[str, ...], ids: np.ndarray) -> list[np.ndarray]:
        """For each of ``keywords``, which of ``ids`` match it as ``plainto_tsquery('english')`` reads it: the text
        index answers once built and while within the lag bound, PostgreSQL otherwise. Called under the lock, as the
        refresh is: the connection is not shared."""
        if self.text is None or self.text_lag() > settings.SEARCH_INDEX_MAX_LAG_SECONDS:
            with self.connect().cursor() as cursor:
                return keywords_matched(cursor, keywords, ids)
        found = self.text.matching_each([self._parsed(keyword) for keyword in keywords], ids.tolist())
        return [np.array(matches, dtype=np.int64) for matches in found]

    def _parsed(self, keyword: str) -> Node | None:
        """``keyword`` as ``plainto_tsquery('english')`` reads it, remembered (a job's keywords come again with each
        of its pages)."""
        if keyword in self.keywords:  # None too: a keyword of stop words only
            return self.keywords[keyword]
        [parsed] = self.connect().execute("SELECT plainto_tsquery('english', %s)::text", [keyword]).fetchone()
        if len(self.keywords) >= _KEYWORDS_KEPT:
            self.keywords.clear()
        node = self.keywords[keyword] = parse_tsquery(parsed)
        return node

    def text_lag(self) -> float:
        """Seconds since the snapshot of the text index's last poll, as the web workers measure the columns' lag."""
        return (timezone.now() - self.text.freshness.fresh_at).total_seconds()

    def status(self) -> dict:
        if self.columns is None:
            return {"state": self.state}
        return {
            "state": self.state,
            "candidates": len(self.columns),
            "bytes": self.columns.nbytes(),
            "built_at": self.columns.built_at.isoformat(),
            "fresh_at": self.freshness.fresh_at.isoformat(),
            "text": {"state": "building"} if self.text is None else {"state": "ready", **self.text.status()},
        }

    def search_text(self, request: dict) -> dict:
        """``{"op": "text", "tsquery": <websearch_to_tsquery's text>, "limit": n, "offset": n, "after": [score, id]}``:
        the (score, id) of the matches, most relevant first. A searcher is a snapshot: no lock."""
        text = self.text
        if text is None:
            return {"error": "building"}
        after = request.get("after")
        try:
            hits = text.search(
                parse_tsquery(request["tsquery"]),
                limit=int(request["limit"]),
                offset=int(request.get("offset", 0)),
                after=(float(after[0]), int(after[1])) if after is not None else None,
            )
        except Unsupported as exc:
            return {"error": f"unsupported: {exc}"}
        return {
            "ids": [pk for _, pk in hits],
            "scores": [score for score, _ in hits],
            "fresh_at": text.freshness.fresh_at.isoformat(),
        }

    def answer(self, request: dict) -> dict:
        if request.get("op") == "status":
            return self.status()
        if request.get("op") == "text":
            return self.search_text(request)
        if self.columns is None:
            return {"error": "building", **self.status()}
        with self.lock:
            ranked = rank(self.columns, decode_query(request["query"]), decode_cut(request["cut"]), self.keywords_ids)
            fresh_at = self.freshness.fresh_at.isoformat()
        return {
            "ids": ranked.ids.tolist(),
            "match": ranked.match.tolist(),
            "missing": ranked.missing.tolist(),
            "pool": ranked.pool,
            "fresh_at": fresh_at,
        }


class _Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        try:
            for line in self.rfile:
                try:
                    reply = self.server.index.answer(json.loads(line))
                except (KeyError, TypeError, ValueError) as exc:
                    reply = {"error": f"bad request: {exc}"}
                self.wfile.write(json.dumps(reply).encode() + b"\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return  # the client stopped waiting (its timeout) and asks again on a new connection


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def backoff(poll_seconds: float, failures: int) -> float:
    """The wait before the next attempt after ``failures`` failures in a row: doubling, capped."""
    return min(max(poll_seconds, 0.5) * 2 ** min(failures, 16), MAX_BACKOFF_SECONDS) if failures else poll_seconds


def _keep_fresh(index: Index, stop: threading.Event, poll_seconds: float, keep_seconds: float | None = None) -> None:
    """Build the index, then poll the outbox until ``stop`` is set. A failure (the database restarting or still down,
    or a bug in applying a change) is logged and retried with backoff: the index is optional, the web workers rank in
    SQL while it is behind, and a process that exits would have to be restarted and rebuilt. An index whose last
    successful poll is older than ``keep_seconds`` (the outbox's retention) rebuilds: rows it had not read may be gone.
    """
    failures, last_fresh, wait = 0, time.monotonic(), 0.0
    while not stop.wait(wait):
        try:
            if index.columns is None or (keep_seconds is not None and time.monotonic() - last_fresh > keep_seconds):
                index.build()
            else:
                changed = index.refresh()
                if changed:
                    logger.info("search index: %d changes applied", changed)
        except Exception:  # any failure: the process keeps serving and retries
            failures += 1
            wait = backoff(poll_seconds, failures)
            logger.exception("search index: refresh failed (%d in a row); retrying in %.1f s", failures, wait)
            index.disconnect()
            continue
        failures, last_fresh, wait = 0, time.monotonic(), poll_seconds


class AlreadyServing(RuntimeError):
    """Another index process answers on the socket: this one does not take it over."""


def _claim(socket_path: Path) -> None:
    """Remove a socket left by a process that died; refuse when something still listens on it, or when the path is
    not a socket."""
    if not socket_path.exists():
        return
    if not stat.S_ISSOCK(socket_path.stat().st_mode):
        raise AlreadyServing(f"{socket_path} exists and is not a socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(socket_path))
    except ConnectionRefusedError:
        socket_path.unlink()  # nothing listens: a dead process's socket
        return
    finally:
        probe.close()
    raise AlreadyServing(f"an index already serves on {socket_path}")


def serve(
    socket_path: Path,
    dsn: str,
    *,
    stop: threading.Event | None = None,
    poll_seconds: float = POLL_SECONDS,
    keep_seconds: float | None = None,
) -> None:
    """Listen on ``socket_path`` at once (answering "building" until the columns are built), build, keep fresh
    until ``stop`` is set; rebuild when the last poll is older than ``keep_seconds``."""
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    _claim(socket_path)
    # The text index's files, beside the socket this process now owns: whatever a process killed before it could
    # clean up is removed here.
    text_root = socket_path.with_name(socket_path.name + ".text")
    shutil.rmtree(text_root, ignore_errors=True)
    text_root.mkdir(mode=0o700)
    index = Index(dsn, text_root)
    server, bound, serving = None, False, False
    # One cleanup from here on: a SIGTERM (an exit) the moment the socket exists still removes it.
    try:
        server = _Server(str(socket_path), _Handler, bind_and_activate=False)
        # The web server's user only, from the moment it exists: the socket answers without authentication.
        umask = os.umask(0o177)
        try:
            server.server_bind()  # fails if another process took the path since _claim: its socket is not ours
            bound = True
        finally:
            os.umask(umask)
        server.server_activate()
        server.index = index
        threading.Thread(target=server.serve_forever, daemon=True).start()
        serving = True
        _keep_fresh(index, stop or threading.Event(), poll_seconds, keep_seconds)
    finally:
        if serving:
            server.shutdown()
        if server is not None:
            server.server_close()
        index.disconnect()
        if bound:
            socket_path.unlink(missing_ok=True)
        index.text = None
        shutil.rmtree(text_root, ignore_errors=True)
