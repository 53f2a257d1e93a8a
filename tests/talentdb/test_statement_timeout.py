"""Issue 15, hole 5: the web's database statements are stopped after DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS, so a
request cannot keep a database connection and a worker thread busy for minutes; Celery workers (long imports) and
management commands (migrations) are not limited. Each process kind starts in a fresh interpreter, as in production."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import database_url_of_test_db

pytestmark = pytest.mark.django_db  # the subprocesses connect to this run's test database

BASE_DIR = Path(__file__).resolve().parents[2]
SHOW = (
    "from django.db import connection\n"
    "with connection.cursor() as cursor:\n"
    "    cursor.execute('SHOW statement_timeout')\n"
    "    print('statement_timeout', cursor.fetchone()[0])\n"
)


def _environment(**extra: str) -> dict[str, str]:
    from django.db import connection

    env = {k: v for k, v in os.environ.items() if k != "DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS"}
    # This run's test database: the processes below connect to it as the app's would to its own.
    env.update(TEST_DATABASE_NAME=connection.settings_dict["NAME"], DJANGO_SETTINGS_MODULE="talentdb.settings")
    env["DATABASE_URL"] = database_url_of_test_db()  # also when the run uses the embedded server (no DATABASE_URL)
    env.update(extra)
    return env


def _run(args: list[str], **extra: str) -> str:
    result = subprocess.run(
        args, cwd=BASE_DIR, env=_environment(**extra), capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def _timeout_of(output: str) -> str:
    [line] = [line for line in output.splitlines() if line.startswith("statement_timeout ")]
    return line.removeprefix("statement_timeout ")


def test_issue_15_hole_5_the_web_processes_connections_stop_statements_after_30_seconds_by_default():
    output = _run([sys.executable, "-c", "import talentdb.wsgi\n" + SHOW])

    assert _timeout_of(output) == "30s"


def test_issue_15_hole_5_a_web_statement_over_the_limit_is_stopped():
    code = (
        "import talentdb.wsgi\n"
        "from django.db import OperationalError, connection\n"
        "try:\n"
        "    with connection.cursor() as cursor:\n"
        "        cursor.execute('SELECT pg_sleep(5)')\n"
        "    print('finished')\n"
        "except OperationalError as exc:\n"
        "    print('stopped:', exc)\n"
    )
    output = _run([sys.executable, "-c", code], DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS="1")

    assert "stopped: canceling statement due to statement timeout" in output


def test_issue_15_hole_5_the_asgi_app_limits_its_statements_too():
    output = _run([sys.executable, "-c", "import talentdb.asgi\n" + SHOW], DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS="7")

    assert _timeout_of(output) == "7s"


def test_issue_15_hole_5_zero_turns_the_web_limit_off():
    output = _run([sys.executable, "-c", "import talentdb.wsgi\n" + SHOW], DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS="0")

    assert _timeout_of(output) == "0"


def test_issue_15_hole_5_celery_workers_and_management_commands_are_not_limited():
    # What a worker process loads: the Celery app, Django, and every task module.
    worker = _run(
        [
            sys.executable,
            "-c",
            "from talentdb.celery import app\nimport django\ndjango.setup()\napp.loader.import_default_modules()\n"
            + SHOW,
        ]
    )
    command = _run([sys.executable, "manage.py", "shell", "-c", SHOW])

    assert _timeout_of(worker) == "0"
    assert _timeout_of(command) == "0"
