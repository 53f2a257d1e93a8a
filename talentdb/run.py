"""``make run``: everything a fresh machine needs to show TalentDB working, in one process tree; ``make stop`` ends it.

Starts (or reuses) the embedded PostgreSQL and Redis unless DATABASE_URL / REDIS_URL are set, migrates, seeds the skill
vocabulary, collects the static files, creates a first admin login, loads the sample profiles, then runs the web
server, a Celery worker for each queue (settings.CELERY_TASK_ROUTES: imports, the periodic tasks, export jobs) and
Celery beat until Ctrl-C or ``make stop``: the services of docker-compose.yml, on one machine.

A second run skips the steps whose inputs did not change since they last ran against this database (the vocabulary
files, the static files, the samples): it starts in a few seconds. The first admin's password is printed last, once
the workers have printed their banners, so that it is not lost above them.

``python -m talentdb.run stop`` (``make stop``) stops the run recorded in ``var/run.json``: the run itself, and then
any of its processes (web server, workers, beat) still running.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
# What each skippable step reads: a step runs again when one of these files changed (added, removed, resized, touched).
STEP_INPUTS = {
    "seed_skills": ["profiles/data", "profiles/management/commands/seed_skills.py"],
    "collectstatic": ["requirements.txt", "talentdb/static", "profiles/static", "jobs/static", "ingestion/static"],
    "ingest_samples": ["samples"],
}
STOP_TIMEOUT_SECONDS = 30
# An optional process (the ranking index) that exits is started again after this wait, doubled at each exit, capped.
RESTART_BACKOFF_SECONDS = 2.0
RESTART_BACKOFF_MAX_SECONDS = 60.0
RESTART_STABLE_SECONDS = 60.0  # an optional process that ran this long before it exited starts the backoff afresh


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talentdb.settings")
    os.environ.setdefault("DEBUG", "1")  # a local run; production sets DEBUG=0 and SECRET_KEY
    from talentdb import embedded

    var_dir = embedded.var_dir()
    running = _recorded_run(var_dir)
    if running and _alive(running["pid"]):
        print(f"TalentDB is already running (process {running['pid']}); `make stop` stops it.", file=sys.stderr)
        return 1
    for name, url in embedded.start().items():  # the processes below compute the same URLs
        print(f"Embedded {name}: {url}")

    python = sys.executable
    manage = [python, str(BASE_DIR / "manage.py")]
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)  # in this process: no second interpreter to start
    done = _steps_done(var_dir)
    database = _database_identity()
    for step, command, check in [
        ("seed_skills", [*manage, "seed_skills"], True),
        ("collectstatic", [*manage, "collectstatic", "--no-input", "-v", "0"], True),
        ("ingest_samples", [*manage, "ingest", "--sync", "--no-progress", str(BASE_DIR / "samples")], False),
    ]:
        fingerprint = _fingerprint(step, database)
        if done.get(step) == fingerprint:
            print(f"{step}: nothing changed since the last run, skipped.")
            continue
        if subprocess.run(command, check=check).returncode == 0:
            done[step] = fingerprint
            _write_json(var_dir / "run-steps.json", done)
    first_login = _create_first_admin()
    from django.db import connections

    connections.close_all()  # this process only watches from here on

    from django.conf import settings  # reading the settings starts nothing

    port = os.environ.get("PORT", "8000")
    # This host's ranking index: it answers "building" until built, and the web server ranks in SQL meanwhile. It is
    # optional: when it exits it is started again, and the rest of the stack goes on.
    index = OptionalChild([*manage, "searchindex_serve"])
    index.start()
    processes = [
        subprocess.Popen([*manage, "runserver", f"127.0.0.1:{port}", "--noreload"]),
        *(subprocess.Popen(command) for command in worker_commands(python, settings)),
        subprocess.Popen(
            [
                python,
                "-m",
                "celery",
                "-A",
                "talentdb",
                "beat",
                "-l",
                "INFO",
                "--schedule",
                str(var_dir / "celerybeat-schedule"),
            ]
        ),
    ]

    def record() -> None:
        children = [p.pid for p in [*processes, index.process]]
        _write_json(var_dir / "run.json", {"pid": os.getpid(), "children": children, "index": index.process.pid})

    record()

    # Each process is asked to stop once: a second signal reaches Celery while it is already shutting down, and it
    # prints a traceback. Ctrl-C has already sent SIGINT to the whole process group, the servers included.
    asked = False

    def stop(*_):
        nonlocal asked
        if not asked:
            asked = True
            for process in [*processes, index.process]:
                if process.poll() is None:
                    process.terminate()

    signal.signal(signal.SIGTERM, stop)
    try:
        _wait_for_banners(processes, port)
        if not asked:
            _print_ready(port, first_login)
        while not asked and keep_running(processes):
            if index.check(now=time.monotonic()):
                record()
            time.sleep(0.5)
    except KeyboardInterrupt:
        asked = True
    stop()
    for process in [*processes, index.process]:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    (var_dir / "run.json").unlink(missing_ok=True)
    return 0


def keep_running(required: list[subprocess.Popen]) -> bool:
    """Whether the run goes on: every required process (web server, workers, beat) is running. The optional index is
    not among them."""
    return all(process.poll() is None for process in required)


class OptionalChild:
    """A process the stack runs without: when it exits it is started again after a backoff that doubles at each exit
    in a row (a crash loop does not spin) and starts afresh after a run of ``RESTART_STABLE_SECONDS`` (a rebuild asked
    for by stopping it waits 2 s, however many came before), and its exit never stops the run."""

    def __init__(self, command: list[str]):
        self.command = command
        self.process: subprocess.Popen | None = None
        self.restarts = 0
        self.restart_at: float | None = None
        self.started_at = 0.0

    def start(self, *, now: float | None = None) -> None:
        self.process = subprocess.Popen(self.command)
        self.started_at = time.monotonic() if now is None else now

    def delay(self) -> float:
        return min(RESTART_BACKOFF_SECONDS * 2 ** min(self.restarts, 16), RESTART_BACKOFF_MAX_SECONDS)

    def check(self, *, now: float) -> bool:
        """Plan a restart when the process has exited, make it when its time has come; True when it was started."""
        code = self.process.poll()
        if code is None:
            return False
        if self.restart_at is None:
            if now - self.started_at >= RESTART_STABLE_SECONDS:
                self.restarts = 0
            self.restart_at = now + self.delay()
            print(
                f"{' '.join(self.command[-1:])} exited ({code}); starting it again in {self.delay():.0f} s",
                file=sys.stderr,
            )
            return False
        if now < self.restart_at:
            return False
        self.restarts += 1
        self.restart_at = None
        self.start(now=now)
        return True


def worker_commands(python: str, settings) -> list[list[str]]:
    """A Celery worker for each queue, named for it (three on one host need three names)."""
    worker = [python, "-m", "celery", "-A", "talentdb", "worker", "-l", "INFO"]
    return [
        [*worker, "-Q", settings.INGEST_QUEUE, "-n", "ingest@%h", "--concurrency", "2"],
        # The periodic tasks take seconds to a minute: one at a time is enough on a laptop.
        [*worker, "-Q", settings.CELERY_TASK_DEFAULT_QUEUE, "-n", "default@%h", "--concurrency", "1"],
        # One export at a time on a laptop's two cores: a second waits in the queue; imports go on beside it.
        [*worker, "-Q", settings.EXPORT_QUEUE, "-n", "exports@%h", "--concurrency", "1"],
    ]


# --- Skipping what did not change -----------------------------------------------------------------------------------


def _fingerprint(step: str, database: str) -> str:
    """A digest of the step's input files (path, size, modification time) and of the database it ran against."""
    digest = hashlib.sha256(database.encode())
    for name in STEP_INPUTS[step]:
        root = BASE_DIR / name
        files = sorted(root.rglob("*")) if root.is_dir() else [root]
        for path in files:
            if path.is_file():
                stat = path.stat()
                digest.update(f"{path.relative_to(BASE_DIR)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _database_identity() -> str:
    """Which database the steps ran against: its server and name, and when it was created (a database dropped and
    made again under the same name is another one)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_database(), inet_server_addr()::text, inet_server_port(), "
            "(SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        return "|".join(str(part) for part in cursor.fetchone())


def _steps_done(var_dir: Path) -> dict:
    try:
        return json.loads((var_dir / "run-steps.json").read_text())
    except (FileNotFoundError, ValueError):
        return {}


def _write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


# --- The first login -------------------------------------------------------------------------------------------------


def _create_first_admin() -> str | None:
    """Create the first admin (user ``admin``) on a database without one; returns the password to print, else None."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    if user_model.objects.filter(is_superuser=True).exists():
        return None
    password = secrets.token_urlsafe(12)
    user_model.objects.create_superuser("admin", "admin@example.com", password)
    return password


def _wait_for_banners(processes: list[subprocess.Popen], port: str, timeout: float = 60) -> None:
    """Until the web server answers and every worker answers a ping (each has printed its banner by then), or
    ``timeout``; beat prints its banner at once."""
    import socket

    from talentdb.celery import app

    deadline = time.monotonic() + timeout
    workers = len(processes) - 2  # the web server and beat are the others
    while time.monotonic() < deadline and all(p.poll() is None for p in processes):
        try:
            with socket.create_connection(("127.0.0.1", int(port)), timeout=0.5):
                pass
        except OSError:
            time.sleep(0.3)
            continue
        if len(app.control.ping(timeout=1.0) or []) >= workers:
            break
    time.sleep(0.5)


def _print_ready(port: str, first_login: str | None) -> None:
    print("\n" + "=" * 72)
    print(f"TalentDB is running: admin http://127.0.0.1:{port}/admin/  API http://127.0.0.1:{port}/api/docs/")
    if first_login:
        print(f"First admin login (shown once):  user admin  password {first_login}")
    else:
        print("Log in with your admin account. Forgotten its password? In another terminal:")
        print("  .venv/bin/python manage.py changepassword admin")
    print("Stop: Ctrl-C here, or `make stop` from another terminal.")
    print("=" * 72 + "\n", flush=True)


# --- make stop -------------------------------------------------------------------------------------------------------


def _recorded_run(var_dir: Path) -> dict | None:
    try:
        return json.loads((var_dir / "run.json").read_text())
    except (FileNotFoundError, ValueError):
        return None


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a running process of TalentDB's (a pid reused by another program does not count)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        try:
            os.kill(pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True  # no /proc (macOS): the pid alone
    if b"<defunct>" in cmdline or not cmdline:
        return False
    return any(word in cmdline for word in (b"talentdb", b"manage.py", b"celery"))


def _wait_gone(pids: list[int], timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = [pid for pid in pids if _alive(pid)]
        if not pids:
            return []
        time.sleep(0.2)
    return [pid for pid in pids if _alive(pid)]


def stop(var_dir: Path) -> list[int]:
    """Stop the recorded run: SIGTERM to it (it stops its processes and waits for them), then to any of its processes
    still running, then SIGKILL to what outlived ``STOP_TIMEOUT_SECONDS``. Returns the pids that were running."""
    run = _recorded_run(var_dir)
    if run is None:
        print("No `make run` is recorded as running.")
        return []
    pids = [pid for pid in [run["pid"], *run.get("children", [])] if _alive(pid)]
    for pid in pids[:1] if pids and pids[0] == run["pid"] else pids:
        os.kill(pid, signal.SIGTERM)
    left = _wait_gone(pids, STOP_TIMEOUT_SECONDS)
    for pid in left:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
    for pid in _wait_gone(left, 5):
        os.kill(pid, signal.SIGKILL)
    (var_dir / "run.json").unlink(missing_ok=True)
    print(
        f"Stopped the web server, workers, beat and ranking index ({len(pids)} processes)."
        if pids
        else "Nothing was running."
    )
    return pids


if __name__ == "__main__":
    if sys.argv[1:] == ["stop"]:
        from talentdb import embedded

        embedded.load_dotenv()
        stop(embedded.var_dir())
        sys.exit(0)
    sys.exit(main())
