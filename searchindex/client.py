"""Asking the host's index process (searchindex.server) for a ranked stretch or a text search's hits, or saying why it
cannot answer."""

from __future__ import annotations

import datetime as dt
import json
import socket
import threading

import numpy as np
from django.conf import settings
from django.utils import timezone

from searchindex.protocol import encode_cut, encode_query
from searchindex.rank import Cut, Ranked, RankQuery


class IndexUnavailable(Exception):
    """The index cannot answer now: not running, building, or further behind than the bound. ``code`` says which in
    one word (``stopped``, ``building``, ``behind``, ``error``, ``query``: a text query it does not evaluate), for the
    response header; the message has the details,
    for the log only."""

    def __init__(self, message: str, *, code: str = "stopped"):
        super().__init__(message)
        self.code = code


_local = threading.local()  # one open socket per thread of a worker

# /healthz is unauthenticated and polled by load balancers: it waits for the index far less than a ranking does.
HEALTH_TIMEOUT_SECONDS = 0.2


def _ask(request: dict, *, timeout: float | None = None) -> dict:
    path = str(settings.SEARCH_INDEX_SOCKET)
    timeout = settings.SEARCH_INDEX_TIMEOUT_SECONDS if timeout is None else timeout
    for attempt in (1, 2):  # a socket the index process closed (a restart) is opened again once
        conn = getattr(_local, "conn", None)
        if conn is not None and getattr(_local, "path", None) != path:  # the socket setting changed: ask the new one
            conn.close()
            conn = _local.conn = None
        try:
            if conn is None:
                conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                conn.settimeout(timeout)
                conn.connect(path)
                _local.conn, _local.file, _local.path = conn, conn.makefile("rb"), path
            conn.settimeout(timeout)
            conn.sendall(json.dumps(request).encode() + b"\n")
            line = _local.file.readline()
            if not line:
                raise ConnectionError("the index closed the connection")
            reply = json.loads(line)
            if not isinstance(reply, dict):
                raise ValueError(f"not an object: {line[:80]!r}")
            return reply
        except ValueError as exc:  # a reply that is not JSON: whatever answers there is not the index
            _local.conn = None
            conn.close()
            raise IndexUnavailable(f"a malformed reply at {path}: {exc}", code="error") from exc
        except OSError as exc:
            _local.conn = None
            if conn is not None:
                conn.close()
            if attempt == 2 or isinstance(exc, TimeoutError):
                raise IndexUnavailable(f"not reachable at {path}: {exc}") from exc
    raise AssertionError("unreachable")


def status() -> dict:
    """The index's state (``ready``, ``building``) and, once built, its size and freshness; ``unavailable`` with the
    reason when it does not answer."""
    try:
        return _ask({"op": "status"}, timeout=HEALTH_TIMEOUT_SECONDS)
    except IndexUnavailable as exc:
        return {"state": "unavailable", "reason": str(exc)}


def lag(fresh_at: str) -> dt.timedelta:
    return timezone.now() - dt.datetime.fromisoformat(fresh_at)


def rank(query: RankQuery, cut: Cut) -> Ranked:
    """The stretch ``cut`` of the ranking of ``query``, from an index no further behind than the bound."""
    reply = _ask({"op": "rank", "query": encode_query(query), "cut": encode_cut(cut)})
    if "error" in reply:
        raise IndexUnavailable(reply["error"], code="building" if reply["error"] == "building" else "error")
    behind = lag(reply["fresh_at"])
    if behind.total_seconds() > settings.SEARCH_INDEX_MAX_LAG_SECONDS:
        raise IndexUnavailable(f"{behind.total_seconds():.0f} s behind the database", code="behind")
    return Ranked(
        ids=np.array(reply["ids"], dtype=np.int64),
        match=np.array(reply["match"], dtype=np.int64),
        missing=np.array(reply["missing"], dtype=np.int64),
        pool=reply["pool"],
    )


def text(tsquery: str, *, limit: int, offset: int = 0, after: tuple[float, int] | None = None) -> list[tuple]:
    """(score, id) of the candidates matching ``tsquery`` (the text of ``websearch_to_tsquery``), most relevant first,
    ties by id, highest first: ``limit`` of them after ``offset`` more, after the hit ``after`` when given."""
    request = {"op": "text", "tsquery": tsquery, "limit": limit, "offset": offset}
    request["after"] = list(after) if after is not None else None
    reply = _ask(request)
    if "error" in reply:
        error = str(reply["error"])
        code = "building" if error == "building" else "query" if error.startswith("unsupported") else "error"
        raise IndexUnavailable(error, code=code)
    try:
        hits = [(float(score), int(pk)) for score, pk in zip(reply["scores"], reply["ids"], strict=True)]
        behind = lag(reply["fresh_at"])
    except (KeyError, TypeError, ValueError) as exc:  # whatever answers there does not speak the index's language
        raise IndexUnavailable(f"a malformed text reply: {exc}", code="error") from exc
    if behind.total_seconds() > settings.SEARCH_INDEX_MAX_LAG_SECONDS:
        raise IndexUnavailable(f"text {behind.total_seconds():.0f} s behind the database", code="behind")
    return hits


def health() -> dict:
    """What ``/healthz`` shows of the index: its state and, once built, how far behind the database it is (seconds
    since the snapshot of its last poll) and when it was built."""
    found = status()
    try:
        if "fresh_at" not in found:
            return {"state": str(found["state"])}
        return {
            "state": str(found["state"]),
            "age_seconds": round(lag(found["fresh_at"]).total_seconds(), 1),
            "built_at": str(found["built_at"]),
        }
    except (KeyError, TypeError, ValueError):  # a reply of the wrong shape: the check never fails on the index
        return {"state": "unavailable"}
