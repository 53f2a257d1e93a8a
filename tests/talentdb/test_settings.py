"""The settings: pure when imported, the embedded servers started by the entry points, production checks; each in
a fresh interpreter."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]


def _run(code: str, env: dict[str, str], timeout: int = 120) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _processes_using(path: Path) -> list[str]:
    """Command lines of the running processes that name ``path`` (a server started on it names its directory)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:  # gone meanwhile
                continue
            if str(path) in cmdline:
                found.append(cmdline)
    return found


def test_importing_the_settings_without_urls_starts_nothing_and_creates_nothing(tmp_path):
    var = tmp_path / "var"
    var.mkdir()
    code = (
        "import django; django.setup(); from django.conf import settings;"
        "print(settings.DATABASES['default']['HOST']); print(settings.CACHES['default']['LOCATION']);"
        "print(settings.CELERY_BROKER_URL)"
    )
    result = _run(code, {"DJANGO_SETTINGS_MODULE": "talentdb.settings", "DEBUG": "1", "TALENTDB_VAR_DIR": str(var)})

    assert result.returncode == 0, result.stderr
    # The URLs of the embedded servers, computed...
    assert result.stdout.splitlines() == [
        str(var / "postgres"),
        f"unix://{var / 'redis' / 'redis.sock'}?db=0",
        f"redis+socket://{var / 'redis' / 'redis.sock'}?db=0",
    ]
    # ... and nothing started or written.
    assert list(var.iterdir()) == []
    assert _processes_using(var) == []
    assert result.stderr == ""


def test_the_image_build_collects_static_files_without_urls_or_servers(tmp_path):
    """The Dockerfile runs collectstatic with neither URL set: it starts nothing and writes only the static files."""
    var = tmp_path / "var"
    var.mkdir()
    code = (
        "import sys; sys.argv = ['manage.py', 'collectstatic', '--no-input', '-v', '0']; import manage; manage.main()"
    )

    result = _run(code, {"DEBUG": "1", "TALENTDB_VAR_DIR": str(var)})

    assert result.returncode == 0, result.stderr
    assert [path.name for path in var.iterdir()] == ["static"]
    assert (var / "static" / "admin" / "css" / "base.css").is_file()
    assert _processes_using(var) == []


def test_a_database_command_starts_the_embedded_servers_and_make_stop_stops_them(tmp_path):
    var = tmp_path / "var"
    var.mkdir()
    command = (
        "from django.db import connection; from django.core.cache import cache;"
        "cur = connection.cursor(); cur.execute('select version()'); print(cur.fetchone()[0]);"
        "cache.set('k', 'v'); print('cache', cache.get('k'))"
    )
    code = f"import sys; sys.argv = ['manage.py', 'shell', '-v', '0', '-c', {command!r}]; import manage; manage.main()"
    env = {"DJANGO_SETTINGS_MODULE": "talentdb.settings", "DEBUG": "1", "TALENTDB_VAR_DIR": str(var)}
    try:
        result = _run(code, env)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0].startswith("PostgreSQL")
        assert lines[1] == "cache v"
        postmaster = (var / "postgres" / "postmaster.pid").read_text()
        assert _processes_using(var), "the servers' command lines name their directories"
        # A second command reuses the running servers instead of starting new ones.
        again = _run(code, env)
        assert again.returncode == 0, again.stderr
        assert (var / "postgres" / "postmaster.pid").read_text() == postmaster
        # Quietly: no warning, no pgserver chatter, no Django or django-axes banner.
        assert result.stderr == again.stderr == ""
    finally:
        stopped = subprocess.run(
            [sys.executable, "-m", "talentdb.embedded", "stop"],
            cwd=BASE_DIR,
            env={**os.environ, "TALENTDB_VAR_DIR": str(var)},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    # `make stop` runs this: it must really stop both servers.
    assert stopped.returncode == 0, stopped.stderr
    redis_socket = var / "redis" / "redis.sock"
    assert stopped.stdout == f"Stopped PostgreSQL ({var / 'postgres'}).\nStopped Redis ({redis_socket}).\n"
    assert not (var / "postgres" / "postmaster.pid").exists()
    assert _processes_using(var) == []


def test_production_settings_refuse_to_start_without_a_secret():
    result = _run(
        "import django; django.setup()",
        {
            "DJANGO_SETTINGS_MODULE": "talentdb.settings",
            "DEBUG": "0",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/talentdb",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
        },
    )
    assert result.returncode != 0
    assert "Set the SECRET_KEY environment variable" in result.stderr


def test_check_deploy_is_clean_under_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": "x" * 20 + "production-like-secret-key-0123456789abcdef",
            "ALLOWED_HOSTS": "talentdb.example.com",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_our_database_sessions_plan_for_ram_and_compile_nothing(db):
    """random_page_cost for data in RAM or on SSD; no JIT, whose compilation outweighed our short statements."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('random_page_cost'), current_setting('jit')")
        assert cursor.fetchone() == ("1.1", "off")


def test_jit_can_be_turned_back_on_from_the_environment():
    code = (
        "import django; django.setup(); from django.conf import settings;"
        "print(settings.DATABASES['default']['OPTIONS']['options'])"
    )
    env = {
        "DJANGO_SETTINGS_MODULE": "talentdb.settings",
        "DEBUG": "1",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/unused",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "DATABASE_JIT": "1",
        "DATABASE_RANDOM_PAGE_COST": "4",
    }
    result = _run(code, env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["-c", "random_page_cost=4", "-c", "jit=on"]


def test_servers_named_only_in_dotenv_are_not_started_embedded(tmp_path, monkeypatch):
    from talentdb import embedded

    (tmp_path / ".env").write_text(
        "DATABASE_URL=postgres://postgres@127.0.0.1:5432/talentdb\nREDIS_URL=redis://127.0.0.1:6379/0\n"
    )
    monkeypatch.setattr(embedded, "BASE_DIR", tmp_path)
    for name in ("DATABASE_URL", "REDIS_URL", "TALENTDB_VAR_DIR"):
        monkeypatch.setenv(name, "placeholder")  # so that monkeypatch restores the session's own value afterwards
        monkeypatch.delenv(name)
    monkeypatch.setattr(embedded, "_start_postgres", lambda var: pytest.fail("started an embedded PostgreSQL"))
    monkeypatch.setattr(embedded, "_start_redis", lambda var: pytest.fail("started an embedded Redis"))

    assert embedded.start() == {}
    assert os.environ["DATABASE_URL"] == "postgres://postgres@127.0.0.1:5432/talentdb"


def test_a_replica_pin_shorter_than_the_lag_allowed_is_refused():
    # A replica may be DATABASE_REPLICA_MAX_LAG_SECONDS behind: a user pinned for less could read from one that has
    # not seen their write yet.
    env = {
        "DJANGO_SETTINGS_MODULE": "talentdb.settings",
        "DEBUG": "1",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/talentdb",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "DATABASE_REPLICA_URLS": "postgres://postgres@127.0.0.1:5999/talentdb",
    }
    refused = _run("import django; django.setup()", {**env, "DATABASE_REPLICA_PIN_SECONDS": "5"})
    defaults = _run(
        "import django; django.setup(); from django.conf import settings as s;"
        "print(s.MULTIDB_PINNING_SECONDS >= s.DATABASE_REPLICA_MAX_LAG_SECONDS)",
        env,
    )

    assert refused.returncode != 0
    assert "DATABASE_REPLICA_PIN_SECONDS" in refused.stderr
    assert defaults.returncode == 0, defaults.stderr
    assert defaults.stdout.strip() == "True"
