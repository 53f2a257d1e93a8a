"""manage.py on a checkout with nothing configured runs as `make run` does (DEBUG=1, the embedded servers), so the
README's commands work as written; anything configured keeps the production-safe defaults. Each in a fresh
interpreter."""

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
CONFIGURATION = {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}


def manage(*args: str, env: dict[str, str], var: Path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in CONFIGURATION}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env={**clean, "TALENTDB_VAR_DIR": str(var), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def debug_of(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stderr
    # --all writes a setting left at Django's default as "### DEBUG = False".
    [line] = [line for line in result.stdout.splitlines() if line.removeprefix("### ").startswith("DEBUG = ")]
    return line.removeprefix("### ")


def test_nothing_configured_is_a_local_run_with_debug_on(tmp_path):
    # diffsettings opens no connection, so nothing is started for it (tests/talentdb/test_settings.py).
    assert debug_of(manage("diffsettings", "--all", env={}, var=tmp_path)) == "DEBUG = True"
    assert list(tmp_path.iterdir()) == []


def test_a_configured_secret_or_database_keeps_debug_off(tmp_path):
    secret = {"SECRET_KEY": "production-like-secret-" + "k" * 40}

    assert debug_of(manage("diffsettings", "--all", env=secret, var=tmp_path)) == "DEBUG = False"
    assert debug_of(manage("diffsettings", "--all", env={**secret, "DEBUG": "0"}, var=tmp_path)) == "DEBUG = False"


def test_a_configured_database_without_a_secret_is_still_refused(tmp_path):
    result = manage("diffsettings", env={"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/talentdb"}, var=tmp_path)

    assert result.returncode != 0
    assert "Set the SECRET_KEY environment variable" in result.stderr


def test_debug_off_asked_for_without_a_secret_is_still_refused(tmp_path):
    result = manage("diffsettings", env={"DEBUG": "0"}, var=tmp_path)

    assert result.returncode != 0
    assert "Set the SECRET_KEY environment variable" in result.stderr
