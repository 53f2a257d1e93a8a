"""The settings' embedded fallback and production checks, each in a fresh interpreter."""

import os
import subprocess
import sys
from pathlib import Path

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


def test_without_urls_settings_start_an_embedded_postgres_and_redis(tmp_path):
    code = (
        "import django; django.setup();"
        "from django.conf import settings; from django.db import connection; from django.core.cache import cache;"
        "cur = connection.cursor(); cur.execute('select version()'); print(cur.fetchone()[0]);"
        "cache.set('k', 'v'); print('cache', cache.get('k'));"
        "print(settings.DATABASES['default']['HOST']); print(settings.CELERY_BROKER_URL)"
    )
    env = {"DJANGO_SETTINGS_MODULE": "talentdb.settings", "DEBUG": "1", "TALENTDB_VAR_DIR": str(tmp_path)}
    try:
        result = _run(code, env)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0].startswith("PostgreSQL")
        assert lines[1] == "cache v"
        assert lines[2] == str(tmp_path / "postgres")
        assert lines[3] == f"redis+socket://{tmp_path / 'redis' / 'redis.sock'}?db=0"
        # A second process reuses the running servers instead of starting new ones.
        again = _run(code, env)
        assert again.returncode == 0, again.stderr
    finally:
        stopped = _run(
            f"from pathlib import Path; from talentdb import embedded; embedded.stop(Path({str(tmp_path)!r}))", {}
        )
    # `make stop` runs this: it must really stop the embedded PostgreSQL.
    assert stopped.returncode == 0, stopped.stderr
    assert not (tmp_path / "postgres" / "postmaster.pid").exists()


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
