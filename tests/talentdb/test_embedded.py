"""`make stop` (``python -m talentdb.embedded stop``) says what it stopped. The real servers' start and stop are
tested in tests/talentdb/test_settings.py; here stand-ins play them, to check what is printed."""

import subprocess
import threading
from pathlib import Path

import pytest

from talentdb import embedded


class FakePgServer:
    def __init__(self, fails: bool = False):
        self.calls, self.fails = [], fails

    def pg_ctl(self, args, *, pgdata, user):
        self.calls.append((args, pgdata))
        if self.fails:
            raise subprocess.CalledProcessError(1, ["pg_ctl", *args])


@pytest.fixture
def var(tmp_path) -> Path:
    return tmp_path / "var"


def a_running_postgres(var: Path, monkeypatch, **fake) -> FakePgServer:
    (var / "postgres").mkdir(parents=True)
    (var / "postgres" / "postmaster.pid").write_text("4242\n")
    server = FakePgServer(**fake)
    monkeypatch.setattr(embedded, "_pgserver", lambda var: server)
    return server


def a_running_redis(var: Path) -> subprocess.Popen:
    """A process in Redis's pid file; a thread reaps it once it exits, as init reaps the daemonized server."""
    process = subprocess.Popen(["sleep", "60"])
    threading.Thread(target=process.wait, daemon=True).start()
    (var / "redis").mkdir(parents=True)
    (var / "redis" / "redis.pid").write_text(f"{process.pid}\n")
    return process


def test_stop_names_each_server_it_stopped(var, monkeypatch, capsys):
    postgres = a_running_postgres(var, monkeypatch)
    redis = a_running_redis(var)

    stopped = embedded.stop(var)

    assert postgres.calls == [(["-w", "stop", "-m", "fast"], var / "postgres")]
    assert redis.wait(timeout=5) is not None
    assert stopped == [f"PostgreSQL ({var / 'postgres'})", f"Redis ({var / 'redis' / 'redis.sock'})"]
    assert capsys.readouterr().out == (
        f"Stopped PostgreSQL ({var / 'postgres'}).\nStopped Redis ({var / 'redis' / 'redis.sock'}).\n"
    )


def test_stop_says_so_when_nothing_was_running(var, capsys):
    assert embedded.stop(var) == []
    assert capsys.readouterr().out == f"No embedded server was running under {var}.\n"


def test_a_pid_file_left_by_a_dead_redis_is_not_reported_as_stopped(var, capsys):
    redis = a_running_redis(var)
    redis.kill()
    redis.wait(timeout=5)

    assert embedded.stop(var) == []
    assert capsys.readouterr().out == f"No embedded server was running under {var}.\n"


def test_a_postgres_that_pg_ctl_cannot_stop_is_reported_on_stderr_not_as_stopped(var, monkeypatch, capsys):
    a_running_postgres(var, monkeypatch, fails=True)

    assert embedded.stop(var) == []
    printed = capsys.readouterr()
    assert printed.out == f"No embedded server was running under {var}.\n"
    assert printed.err.startswith(f"PostgreSQL under {var / 'postgres'} was not stopped: ")
