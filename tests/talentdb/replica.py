"""A real PostgreSQL streaming replica of the tests' server, for tests/talentdb/test_replica*.py.

``pg_basebackup -R`` copies the primary (the server DATABASE_URL names, with the test database already created) into
a temporary folder, and ``pg_ctl`` starts the copy on a free port as a hot standby that streams the primary's WAL.
It streams through a replication slot of its own, which keeps the primary's WAL until the copy has received it: on a
busy server (other tests writing), the segments written during the copy were already recycled when it started, and it
never caught up. ``remove()`` drops the slot; one left by a process that died is dropped by the next ``create()``.
The copy's server runs as the ``postgres`` system user when the tests run as root (PostgreSQL refuses root), as the
tests' own user otherwise. ``why_not()`` says why a machine cannot do it, for a skip.
"""

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

BIN_DIRS = [Path("/usr/lib/postgresql/15/bin"), *(Path(p) for p in os.environ.get("PATH", "").split(os.pathsep))]


def _binary(name: str) -> Path | None:
    for folder in BIN_DIRS:
        if (folder / name).is_file():
            return folder / name
    return None


SLOT_PREFIX = "talentdb_test_replica_"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's
    return True


class StreamingReplica:
    def __init__(self, primary: dict):
        """``primary``: the Django settings of the test database's connection (HOST, PORT, USER, NAME)."""
        self.primary = primary
        self.host = "127.0.0.1"
        self.port = _free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="talentdb-replica-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self._owner = "postgres" if os.geteuid() == 0 else None
        self.slot = f"{SLOT_PREFIX}{os.getpid()}_{self.port}"

    @staticmethod
    def why_not(primary: dict) -> str | None:
        """Why this machine cannot make a replica of ``primary``; None if it can."""
        missing = [name for name in ("pg_basebackup", "pg_ctl") if _binary(name) is None]
        if missing:
            return f"the PostgreSQL binaries {', '.join(missing)} are not installed"
        host = primary.get("HOST") or ""
        if host.startswith("/") or not host:
            return "the tests' database is on a unix socket (the embedded server): set DATABASE_URL to a TCP server"
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root, with no postgres system user to run the replica's server"
        try:
            with psycopg.connect(
                host=host,
                port=primary.get("PORT") or 5432,
                user=primary["USER"],
                dbname="postgres",
                replication="true",
                connect_timeout=5,
            ):
                pass
        except psycopg.Error as error:
            return (
                f"no replication connection to the primary ({str(error).strip()}); pg_hba.conf must allow one, "
                "e.g. `host replication all 127.0.0.1/32 trust` (.ci/run adds it)"
            )
        return None

    def _run(self, args: list[str], timeout: float = 120) -> None:
        command = ["runuser", "-u", self._owner, "--", *args] if self._owner else args
        done = subprocess.run(command, check=False, timeout=timeout, capture_output=True, text=True)
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, args, done.stdout, done.stderr) from RuntimeError(
                done.stderr.strip()[-2000:]
            )

    def create(self) -> None:
        if self._owner:
            shutil.chown(self.folder, self._owner, self._owner)
        self.folder.chmod(0o700)
        self._drop_slots_of_dead_processes()
        self._run(
            [
                str(_binary("pg_basebackup")),
                "-h",
                self.primary["HOST"],
                "-p",
                str(self.primary.get("PORT") or 5432),
                "-U",
                self.primary["USER"],
                "-D",
                str(self.data),
                "-R",
                "-X",
                "stream",
                "--checkpoint=fast",
                "--create-slot",
                "--slot",
                self.slot,
            ]
        )
        with psycopg.connect(**self.primary_params("postgres")) as primary:
            # A hot standby needs at least the primary's number of connections (and of the other shared slots).
            limits = {
                name: primary.execute(f"SHOW {name}").fetchone()[0]
                for name in (
                    "max_connections",
                    "max_worker_processes",
                    "max_prepared_transactions",
                    "max_locks_per_transaction",
                    "max_wal_senders",
                )
            }
        # Debian keeps a cluster's configuration in /etc, so the copy has none: its own, small and unsynced.
        settings = {
            "port": self.port,
            "listen_addresses": f"'{self.host}'",
            "unix_socket_directories": f"'{self.folder}'",
            "hot_standby": "on",
            "hot_standby_feedback": "on",  # as the README advises: the primary's vacuum cancels no read here
            "shared_buffers": "'32MB'",
            "fsync": "off",
            **limits,
        }
        (self.data / "postgresql.conf").write_text("".join(f"{key} = {value}\n" for key, value in settings.items()))
        (self.data / "pg_hba.conf").write_text("local all all trust\nhost all all 127.0.0.1/32 trust\n")
        (self.data / "pg_ident.conf").write_text("")
        if self._owner:
            for name in ("postgresql.conf", "pg_hba.conf", "pg_ident.conf"):
                shutil.chown(self.data / name, self._owner, self._owner)
        self.start()

    def start(self) -> None:
        self._run([str(_binary("pg_ctl")), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start"])
        deadline = time.monotonic() + 60
        while True:
            try:
                with self.connect():
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def stop(self, mode: str = "fast") -> None:
        """Stop the server; its clients' connections are cut."""
        self._run([str(_binary("pg_ctl")), "-D", str(self.data), "-m", mode, "-w", "stop"])

    def running(self) -> bool:
        try:
            with self.connect():
                return True
        except psycopg.OperationalError:
            return False

    def remove(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            if self.running():
                self.stop(mode="immediate")  # it is deleted next: nothing to write down
        shutil.rmtree(self.folder, ignore_errors=True)
        with psycopg.connect(**self.primary_params("postgres")) as primary:
            # The primary's WAL sender of the stopped copy may take a moment to let go of the slot.
            deadline = time.monotonic() + 30
            exists = "SELECT 1 FROM pg_replication_slots WHERE slot_name = %s"
            while primary.execute(exists, [self.slot]).fetchone():
                dropped = primary.execute(
                    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                    "WHERE slot_name = %s AND NOT active",
                    [self.slot],
                ).fetchone()
                if dropped or time.monotonic() > deadline:
                    break
                time.sleep(0.2)

    def _drop_slots_of_dead_processes(self) -> None:
        """A slot keeps the primary's WAL for ever: drop those whose test process is gone (killed before remove())."""
        with psycopg.connect(**self.primary_params("postgres")) as primary:
            slots = primary.execute(
                "SELECT slot_name FROM pg_replication_slots WHERE slot_name LIKE %s AND NOT active",
                [SLOT_PREFIX + "%"],
            ).fetchall()
            for (name,) in slots:
                match = re.fullmatch(rf"{SLOT_PREFIX}(\d+)_\d+", name)
                if match and not _process_exists(int(match.group(1))):
                    primary.execute("SELECT pg_drop_replication_slot(%s)", [name])

    def primary_params(self, dbname: str | None = None) -> dict:
        return {
            "host": self.primary["HOST"],
            "port": self.primary.get("PORT") or 5432,
            "user": self.primary["USER"],
            "dbname": dbname or self.primary["NAME"],
            "autocommit": True,
        }

    def connect(self, dbname: str | None = None) -> psycopg.Connection:
        return psycopg.connect(
            host=self.host,
            port=self.port,
            user=self.primary["USER"],
            dbname=dbname or self.primary["NAME"],
            autocommit=True,
            connect_timeout=5,
        )

    def catch_up(self, timeout: float = 30) -> None:
        """Wait until the replica has replayed everything the primary has written so far."""
        with psycopg.connect(**self.primary_params()) as primary:
            [target] = primary.execute("SELECT pg_current_wal_lsn()::text").fetchone()
        deadline = time.monotonic() + timeout
        with self.connect() as replica:
            while not replica.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target]).fetchone()[0]:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the replica did not replay up to {target} in {timeout} s")
                time.sleep(0.05)

    def received(self, timeout: float = 30) -> None:
        """Wait until the replica has received (not necessarily replayed) everything the primary has written so far."""
        with psycopg.connect(**self.primary_params()) as primary:
            [target] = primary.execute("SELECT pg_current_wal_flush_lsn()::text").fetchone()
        deadline = time.monotonic() + timeout
        with self.connect() as replica:
            while not replica.execute("SELECT pg_last_wal_receive_lsn() >= %s::pg_lsn", [target]).fetchone()[0]:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the replica did not receive up to {target} in {timeout} s")
                time.sleep(0.05)

    @contextlib.contextmanager
    def wal_sender_stopped(self):
        """The primary's WAL sender for this replica is frozen (SIGSTOP): the replica's receiver stays connected and
        streaming, but receives nothing, as behind a stuck link. Needs the right to signal the primary's processes."""
        with psycopg.connect(**self.primary_params("postgres")) as primary:
            [pid] = primary.execute(
                "SELECT active_pid FROM pg_replication_slots WHERE slot_name = %s", [self.slot]
            ).fetchone()
        os.kill(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(pid, signal.SIGCONT)

    @contextlib.contextmanager
    def replay_paused(self):
        """The replica keeps receiving the primary's WAL but applies none of it: it shows the state of now."""
        self.catch_up()
        with self.connect() as replica:
            replica.execute("SELECT pg_wal_replay_pause()")
        try:
            yield
        finally:
            if self.running():
                with self.connect() as replica:
                    replica.execute("SELECT pg_wal_replay_resume()")
