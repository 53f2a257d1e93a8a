"""The shell examples of the README and the guides, found and run as a reader copies them.

A ```` ```sh ```` block is an example to run as written against a live server (``run_block``); a ```` ```sh slow ````
block holds commands that take minutes to hours (the benchmarks, ``make reliability``, ``make run``): those are
checked, not run, by asking each command for its usage (``make -n``, ``--help``, ``manage.py help``), so that a renamed
script, target or command still fails a test. ``docs/benchmarks-history.md`` is a record of what was run, not an
example, and is left out."""

from __future__ import annotations

import importlib
import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps as django_apps
from django.conf import settings
from django.core.management import call_command

from conftest import TEST_QUEUE_ENV, database_url_of_test_db

BASE_DIR = Path(__file__).resolve().parent.parent
DOCUMENTS = [BASE_DIR / "README.md", *sorted((BASE_DIR / "docs").glob("*.md"))]
NOT_EXAMPLES = {BASE_DIR / "docs" / "benchmarks-history.md"}
# The data migrations that make the groups the examples' users join, with their permissions, in order: a transactional
# test's flush takes them away, and the examples run on what a fresh database has.
GROUP_MIGRATIONS = [
    ("profiles.migrations.0004_create_recruiter_and_viewer_groups", "create_groups"),
    ("profiles.migrations.0014_position_and_spoken_language_permissions", "grant"),
    ("profiles.migrations.0027_contact_details_permission", "grant"),
    ("jobs.migrations.0002_recruiter_and_viewer_permissions", "grant"),
    ("exports.migrations.0002_export_permissions_for_recruiter_and_viewer", "grant"),
]
# The examples' requests reach a live server, whose router also reads from the replica aliases the settings name
# (DATABASE_REPLICA_URLS, which .ci/run sets for the whole suite): a test running them must allow every database.
EVERY_DATABASE = "__all__"
_FENCE = re.compile(r"^```(sh[^\n]*)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Block:
    path: Path
    number: int  # the block's place among the document's shell blocks, from 1
    info: str  # the fence's info string: "sh" or "sh slow"
    text: str

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(BASE_DIR)}#{self.number}"

    @property
    def slow(self) -> bool:
        return self.info.split()[1:2] == ["slow"]


def shell_blocks(path: Path) -> list[Block]:
    """Every shell block of the document, in order."""
    found = _FENCE.findall(path.read_text())
    return [Block(path, number, info.strip(), text) for number, (info, text) in enumerate(found, start=1)]


def every_shell_block() -> list[Block]:
    return [block for path in DOCUMENTS if path not in NOT_EXAMPLES for block in shell_blocks(path)]


def fresh_database_with_samples(*, samples: bool = True) -> None:
    """What a fresh ``make run`` has: the groups, the shipped vocabulary and (unless told) the samples imported."""
    for module, function in GROUP_MIGRATIONS:
        getattr(importlib.import_module(module), function)(django_apps, None)
    call_command("seed_skills", verbosity=0)
    if samples:
        call_command("ingest", "--sync", "--no-progress", str(BASE_DIR / "samples"))


def example_env(live_server_url: str) -> dict[str, str]:
    """The environment of a reader's second terminal: the server's port, the test database, the tests' queues."""
    return {
        **os.environ,
        "PORT": live_server_url.rsplit(":", 1)[1],
        "DATABASE_URL": database_url_of_test_db(),
        "REDIS_URL": settings.REDIS_URL,
        **TEST_QUEUE_ENV,
        "DEBUG": "1",
    }


def run_block(text: str, env: dict[str, str], *, cwd: Path = BASE_DIR) -> subprocess.CompletedProcess:
    """The block as a reader pastes it into bash, stopping at the first command that fails."""
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", text],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def commands_of(text: str) -> list[str]:
    """The block's commands, one per logical line: comments dropped, continued lines joined."""
    joined = re.sub(r"\\\n\s*", " ", text)
    lines = (line.split(" #", 1)[0].strip() for line in joined.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def usage_checks(command: str) -> list[list[str]]:
    """How to ask the command's parts for their usage without running them: each ``make`` target, each bench script
    and each ``manage.py`` command named in it (after ``(cd DIR && …)``, ``VAR=value`` and ``/usr/bin/time -v``)."""
    checks = []
    for target in re.findall(r"\bmake ([\w-]+)", command):
        checks.append(["make", "-n", target])
    for script in re.findall(r"\b(bench/\w+\.py)\b", command):
        checks.append([".venv/bin/python", script, "--help"])
    for name in re.findall(r"\bmanage\.py (\w+)", command):
        checks.append([".venv/bin/python", "manage.py", "help", name])
    for tests in re.findall(r"\bpytest ((?:tests/[\w/.]+ ?)+)", command):
        checks.extend(["test", "-e", path] for path in shlex.split(tests))
    return checks
