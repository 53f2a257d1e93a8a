"""The index process outlives its database: a refresh that fails (the database restarting, still down when the
process reconnects) is retried with backoff, and the process goes on serving."""

import threading

import psycopg
import pytest

from searchindex import server


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
