"""``make run``: everything a fresh machine needs to show TalentDB working, in one process tree.

Starts (or reuses) the embedded PostgreSQL and Redis unless DATABASE_URL / REDIS_URL are set, migrates, seeds the skill
vocabulary, creates a first admin login (printed once), loads the sample profiles, then runs the web server, a Celery
worker for each queue (settings.CELERY_TASK_ROUTES: imports, the periodic tasks, export jobs) and Celery beat until
Ctrl-C: the services of docker-compose.yml, on one machine.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talentdb.settings")
    os.environ.setdefault("DEBUG", "1")  # a local run; production sets DEBUG=0 and SECRET_KEY
    from talentdb import embedded

    for name, url in embedded.start().items():  # the processes below compute the same URLs
        print(f"Embedded {name}: {url}")
    var_dir = embedded.var_dir()

    python = sys.executable
    manage = [python, str(BASE_DIR / "manage.py")]
    subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], check=True)
    subprocess.run([*manage, "seed_skills"], check=True)
    subprocess.run([*manage, "collectstatic", "--no-input", "-v", "0"], check=True)
    _create_first_admin()
    subprocess.run([*manage, "ingest", "--sync", "--no-progress", str(BASE_DIR / "samples")], check=False)

    from django.conf import settings  # reading the settings starts nothing

    port = os.environ.get("PORT", "8000")
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
    print(f"\nTalentDB is running: admin http://127.0.0.1:{port}/admin/  API http://127.0.0.1:{port}/api/docs/")
    print("Press Ctrl-C to stop.\n")

    # Each process is asked to stop once: a second signal reaches Celery while it is already shutting down, and it
    # prints a traceback. Ctrl-C has already sent SIGINT to the whole process group, the servers included.
    asked = False

    def stop(*_):
        nonlocal asked
        if not asked:
            asked = True
            for process in processes:
                if process.poll() is None:
                    process.terminate()

    signal.signal(signal.SIGTERM, stop)
    try:
        while all(process.poll() is None for process in processes):
            time.sleep(0.5)
    except KeyboardInterrupt:
        asked = True
    stop()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return 0


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


def _create_first_admin() -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    if user_model.objects.filter(is_superuser=True).exists():
        return
    password = secrets.token_urlsafe(12)
    user_model.objects.create_superuser("admin", "admin@example.com", password)
    print("\n" + "=" * 60)
    print(f"First admin login (shown once):  user admin  password {password}")
    print("=" * 60 + "\n")


if __name__ == "__main__":
    sys.exit(main())
