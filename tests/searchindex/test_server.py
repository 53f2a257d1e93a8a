"""The index process outlives its database: a refresh that fails (the database restarting, still down when the
process reconnects) is retried with backoff, and the process goes on serving. It answers while it compacts its
columns: the compacted copy is built outside the lock the requests take."""

import logging
import threading
from random import Random

import psycopg
import pytest
from django.db import connection
from django.db.models import F, Value
from django.db.models.functions import Coalesce, Now
from psycopg.conninfo import make_conninfo

from jobs.criteria import Criteria
from jobs.ranking import RankOptions
from jobs.ranking.formula import resolve
from profiles.models import Candidate
from searchindex import columns as index_columns
from searchindex import server
from searchindex.protocol import encode_cut, encode_query
from searchindex.rank import Cut
from tests.searchindex.helpers import make_pool, query_for


class FlakyIndex:
    """An index whose database is down for ``failures`` refreshes, reconnecting included; stops the loop once it has
    refreshed ``until`` times."""

    def __init__(self, stop: threading.Event, *, failures: int, until: int = 1):
        self.stop, self.failures, self.until = stop, failures, until
        self.columns = object()
        self.refreshed = self.builds = self.disconnects = 0

    def build(self) -> None:
        self.builds += 1

    def refresh(self) -> int:
        if self.failures:
            self.failures -= 1
            raise psycopg.OperationalError("connection refused")
        self.refreshed += 1
        if self.refreshed >= self.until:
            self.stop.set()
        return 0

    def disconnect(self) -> None:
        self.disconnects += 1


def test_the_refresh_loop_survives_a_database_that_stays_down_for_a_while():
    stop = threading.Event()
    index = FlakyIndex(stop, failures=3)

    server._keep_fresh(index, stop, 0.0)

    assert index.refreshed == 1
    assert index.disconnects == 3


def test_the_refresh_loop_survives_any_error_not_only_the_drivers():
    stop = threading.Event()
    index = FlakyIndex(stop, failures=0, until=2)
    calls = iter([RuntimeError("a bug in applying a change")])

    original = index.refresh

    def refresh():
        error = next(calls, None)
        if error:
            raise error
        return original()

    index.refresh = refresh

    server._keep_fresh(index, stop, 0.0)

    assert index.refreshed == 2


def test_an_index_not_yet_built_is_built_by_the_loop_once_the_database_answers():
    stop = threading.Event()
    index = FlakyIndex(stop, failures=0)
    index.columns = None
    attempts = iter([psycopg.OperationalError("the database is starting up")])

    def build():
        error = next(attempts, None)
        if error:
            raise error
        index.builds += 1
        index.columns = object()

    index.build = build

    server._keep_fresh(index, stop, 0.0)

    assert index.builds == 1
    assert index.refreshed == 1


def test_an_index_behind_the_outbox_retention_rebuilds_instead_of_polling():
    stop = threading.Event()
    index = FlakyIndex(stop, failures=0)
    index.build = stop.set  # the loop ends at the first rebuild

    server._keep_fresh(index, stop, 0.0, keep_seconds=-1.0)  # every gap is longer than the retention

    assert stop.is_set()
    assert index.refreshed == 0


def test_the_backoff_grows_with_each_failure_and_is_capped():
    waits = [server.backoff(0.5, failures) for failures in range(12)]

    assert waits[0] == 0.5
    assert waits == sorted(waits)
    assert waits[-1] == server.MAX_BACKOFF_SECONDS


@pytest.mark.django_db(transaction=True)
def test_the_process_serves_building_while_its_database_is_unreachable(settings, tmp_path):
    from searchindex import client
    from tests.searchindex.helpers_server import wait_until

    settings.SEARCH_INDEX_SOCKET = tmp_path / "index.sock"
    stop = threading.Event()
    thread = threading.Thread(
        target=server.serve,
        args=(settings.SEARCH_INDEX_SOCKET, "host=127.0.0.1 port=1 connect_timeout=1"),
        kwargs={"stop": stop, "poll_seconds": 0.05},
        daemon=True,
    )
    thread.start()
    try:
        wait_until(lambda: client.status().get("state") == "building")
        assert thread.is_alive()
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


def _serving_in_a_thread(socket_path, stop):
    thread = threading.Thread(
        target=server.serve,
        args=(socket_path, "host=127.0.0.1 port=1 connect_timeout=1"),
        kwargs={"stop": stop, "poll_seconds": 0.05},
        daemon=True,
    )
    thread.start()
    return thread


def test_a_second_process_refuses_to_take_over_a_live_index_socket(tmp_path):
    import socket

    path = tmp_path / "index.sock"
    live = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    live.bind(str(path))
    live.listen()
    try:
        with pytest.raises(server.AlreadyServing):
            server.serve(path, "host=127.0.0.1 port=1 connect_timeout=1", stop=threading.Event())
        assert path.exists()  # the live server's socket is left alone
    finally:
        live.close()


def test_a_stale_socket_left_by_a_dead_process_is_replaced_and_the_new_one_is_private(tmp_path):
    import os
    import socket
    import stat

    from tests.searchindex.helpers_server import wait_until

    path = tmp_path / "run" / "index.sock"
    path.parent.mkdir()
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(path))
    dead.close()  # the file stays, nothing listens
    before = os.umask(0o022)
    os.umask(before)
    stop = threading.Event()
    thread = _serving_in_a_thread(path, stop)
    try:

        def answers():
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(str(path))
                return True
            except OSError:
                return False
            finally:
                probe.close()

        wait_until(answers)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert os.umask(before) == before  # the process's umask is as it was
    finally:
        stop.set()
        thread.join(timeout=10)


POOL = 40
CRITERIA = Criteria(required=(("python", 3),), preferred=("rust", "go"))


def _rank_request() -> dict:
    query = query_for(CRITERIA, resolve(CRITERIA), options=RankOptions())
    return {"op": "rank", "query": encode_query(query), "cut": encode_cut(Cut(limit=500))}


def _in_a_thread(function) -> tuple[threading.Thread, dict]:
    """``function`` run in a thread of its own; its return value lands in the dictionary under "value"."""
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", function()), daemon=True)
    thread.start()
    return thread, result


def _edit(count: int) -> None:
    """New years of coding for ``count`` candidates: a change the outbox records for each."""
    picked = Random(count).sample(list(Candidate.objects.values_list("id", flat=True)), count)
    Candidate.objects.filter(id__in=picked).update(years_coding=Coalesce(F("years_coding"), Value(0)) + 1)


@pytest.fixture
def index(transactional_db, monkeypatch):
    """An index (as the process holds it) over a pool of fictional candidates, refreshed once; compaction past ten
    appended rows."""
    make_pool(seed=31, size=POOL)
    monkeypatch.setattr(index_columns, "COMPACT_MIN_ROWS", 10)
    monkeypatch.setattr(server.Index, "build_text", lambda index: None)  # these tests read the columns only
    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    index = server.Index(make_conninfo(**params))
    index.build()
    index.refresh()  # the pool's own changes, read again when another session held the build's xmin back
    yield index
    if index.text_builder is not None:
        index.text_builder.join(timeout=30)
    index.disconnect()


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_a_build_serves_the_changes_committed_while_it_ran(index, monkeypatch):
    """A build reads from one snapshot. What was committed meanwhile is applied before the build serves: else its
    first requests would find it a build's length behind and go to SQL until its first poll."""
    built = server.build
    edited_at = []

    def build_then_an_edit(connection):
        columns = built(connection)
        _edit(3)  # committed after the build's snapshot
        edited_at.append(Candidate.objects.values_list(Now(), flat=True)[:1].get())
        return columns

    monkeypatch.setattr(server, "build", build_then_an_edit)
    index.build()

    assert index.columns.built_at < edited_at[0] <= index.freshness.fresh_at
    in_the_database = dict(Candidate.objects.values_list("id", Coalesce("years_coding", -1)))
    assert _years_in(index.columns) == in_the_database  # the three edits included


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_a_build_whose_catch_up_fails_still_serves_and_the_next_poll_applies_the_changes(index, monkeypatch, caplog):
    built, polled = server.build, server.poll

    def build_then_an_edit(connection):
        columns = built(connection)
        _edit(3)
        return columns

    def failing(*args):
        raise psycopg.OperationalError("the database restarted")

    monkeypatch.setattr(server, "build", build_then_an_edit)
    monkeypatch.setattr(server, "poll", failing)
    index.build()
    assert index.state == "ready"
    assert index.freshness.fresh_at == index.columns.built_at
    assert "left to the next poll" in caplog.text

    monkeypatch.setattr(server, "poll", polled)
    assert index.refresh() >= 3
    assert _years_in(index.columns) == dict(Candidate.objects.values_list("id", Coalesce("years_coding", -1)))


def _years_in(columns) -> dict[int, int]:
    rows = zip(columns.ids, columns.years, columns.alive, strict=True)
    return {int(pk): int(years) for pk, years, alive in rows if alive}


def _hold_compaction(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """The index's compaction blocked until the test sets the second event; the first is set once it has begun."""
    begun, release = threading.Event(), threading.Event()
    compacted = server.compacted

    def held(columns):
        begun.set()
        assert release.wait(timeout=30)
        return compacted(columns)

    monkeypatch.setattr(server, "compacted", held)
    return begun, release


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_requests_are_answered_while_the_columns_are_compacted_and_the_copy_is_swapped_in_after(
    index, monkeypatch, caplog
):
    caplog.set_level(logging.INFO, logger="searchindex.server")
    begun, release = _hold_compaction(monkeypatch)
    old = index.columns
    _edit(15)  # past the bound
    refresher, refreshed = _in_a_thread(index.refresh)
    try:
        assert begun.wait(timeout=30)
        asker, asked = _in_a_thread(lambda: (index.answer(_rank_request()), index.answer({"op": "status"})))
        asker.join(timeout=10)
        assert not asker.is_alive(), "a request waited for the compaction"
        answered, status = asked["value"]
        assert index.columns is old  # the old columns serve until the copy is ready
        assert status["state"] == "ready"
        assert status["bytes"] == old.nbytes()
        appended = len(old.ids) - POOL
        assert appended >= 15
    finally:
        release.set()
    refresher.join(timeout=30)
    assert not refresher.is_alive()
    assert refreshed["value"] >= 15

    assert index.columns is not old
    assert len(index.columns.ids) == index.columns.built_rows == POOL
    assert len(old.ids) == POOL + appended  # left as it was, for whoever still read it
    assert index.answer(_rank_request()) == answered
    assert index.answer({"op": "status"})["bytes"] < status["bytes"]
    assert f"search index compacted: {appended} dead rows dropped, {POOL} candidates" in caplog.text


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_a_rebuild_during_a_compaction_is_not_overwritten_by_the_stale_copy(index, monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="searchindex.server")
    begun, release = _hold_compaction(monkeypatch)
    _edit(15)
    refresher, _ = _in_a_thread(index.refresh)
    try:
        assert begun.wait(timeout=30)
        index.build()  # takes the lock while the compaction runs outside it
        rebuilt, freshness = index.columns, index.freshness
    finally:
        release.set()
    refresher.join(timeout=30)
    assert not refresher.is_alive()

    assert index.columns is rebuilt
    assert index.freshness is freshness
    assert "search index compacted" not in caplog.text
    assert "dropped: the columns were rebuilt" in caplog.text


def test_a_client_that_stops_waiting_costs_the_server_no_traceback_and_the_next_one_is_answered(
    tmp_path, monkeypatch, capsys
):
    import socket
    import time

    from tests.searchindex.helpers_server import wait_until

    path, stop = tmp_path / "index.sock", threading.Event()
    answered, answer = threading.Event(), server.Index.answer

    def slow(index, request):
        time.sleep(0.3)  # longer than the client waits
        answered.set()
        return answer(index, request)

    monkeypatch.setattr(server.Index, "answer", slow)
    thread = _serving_in_a_thread(path, stop)
    try:
        wait_until(path.exists)
        impatient = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        impatient.connect(str(path))
        impatient.sendall(b'{"op": "status"}\n')
        impatient.close()
        assert answered.wait(5)
        time.sleep(0.2)  # the reply's write fails meanwhile
        answered.clear()
        unread = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        unread.connect(str(path))
        unread.sendall(b'{"op": "status"}\n')
        assert answered.wait(5)
        time.sleep(0.2)  # the reply waits unread: closing resets the connection the server reads next
        unread.close()
        time.sleep(0.2)
        patient = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        patient.connect(str(path))
        patient.sendall(b'{"op": "status"}\n')
        assert b'"state"' in patient.makefile("rb").readline()
        patient.close()
    finally:
        stop.set()
        thread.join(timeout=10)
    assert "Traceback" not in capsys.readouterr().err
