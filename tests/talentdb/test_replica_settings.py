"""Issue 19: DATABASE_REPLICA_URLS adds read replicas to the settings; without it nothing changes. Each case imports the
settings in a fresh interpreter, as a process starts; nothing there connects to the servers named (none listens)."""

import json
import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
SHOW = (
    "import json, django; django.setup(); from django.conf import settings\n"
    "print(json.dumps({'databases': settings.DATABASES, 'replicas': settings.REPLICA_DATABASES,"
    " 'routers': settings.DATABASE_ROUTERS, 'middleware': settings.MIDDLEWARE,"
    " 'pin': settings.MULTIDB_PINNING_SECONDS, 'lag': settings.DATABASE_REPLICA_MAX_LAG_SECONDS}))\n"
)
MIDDLEWARE = "talentdb.db_router.ReplicaRoutingMiddleware"


def _run(**extra: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env = {
        **clean,
        "DJANGO_SETTINGS_MODULE": "talentdb.settings",
        "DEBUG": "1",
        "DATABASE_URL": "postgres://app@127.0.0.1:1/talentdb",  # port 1: nothing listens
        "REDIS_URL": "redis://127.0.0.1:1/0",
        **extra,
    }
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def _settings(**extra: str) -> dict:
    result = _run(**extra)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_without_replicas_there_is_one_database_no_router_and_no_pinning_middleware():
    shown = _settings()

    assert list(shown["databases"]) == ["default"]
    assert shown["replicas"] == []
    assert shown["routers"] == []
    assert MIDDLEWARE not in shown["middleware"]


def test_each_replica_url_is_a_database_alias_mirroring_the_primary_in_tests():
    shown = _settings(
        DATABASE_REPLICA_URLS="postgres://reader@10.0.0.2:5432/talentdb,postgres://reader@/talentdb?host=/run/pg",
        DATABASE_REPLICA_PIN_SECONDS="20",
        DATABASE_REPLICA_MAX_LAG_SECONDS="7.5",
    )
    databases = shown["databases"]

    assert list(databases) == ["default", "replica_0", "replica_1"]
    assert shown["replicas"] == ["replica_0", "replica_1"]
    first, second = databases["replica_0"], databases["replica_1"]
    assert (first["HOST"], first["PORT"], first["USER"], first["NAME"]) == ("10.0.0.2", 5432, "reader", "talentdb")
    assert (second["HOST"], second["NAME"]) == ("/run/pg", "talentdb")  # a unix socket, as for DATABASE_URL
    for replica in (first, second):
        assert replica["TEST"]["MIRROR"] == "default"
        assert replica["OPTIONS"]["options"] == databases["default"]["OPTIONS"]["options"]  # the planner settings
        assert replica["OPTIONS"]["connect_timeout"] == 3
        assert replica["CONN_HEALTH_CHECKS"] is True
        assert replica["CONN_MAX_AGE"] == databases["default"]["CONN_MAX_AGE"]
    assert shown["routers"] == ["talentdb.db_router.ReplicaRouter"]
    assert shown["middleware"].index(MIDDLEWARE) < shown["middleware"].index(
        "django.contrib.sessions.middleware.SessionMiddleware"
    )
    assert shown["pin"] == 20
    assert shown["lag"] == 7.5


def test_the_pin_outlasts_the_lag_a_replica_may_have_plus_the_time_its_last_check_is_trusted():
    """A replica checked just under the lag limit serves reads until the next check: a writer pinned for less than both
    could read from one that has not seen their write."""
    assert _settings(DATABASE_REPLICA_URLS="postgres://reader@10.0.0.2:5432/talentdb")["pin"] >= 30 + 5

    refused = _run(DATABASE_REPLICA_URLS="postgres://reader@10.0.0.2:5432/talentdb", DATABASE_REPLICA_PIN_SECONDS="30")

    assert refused.returncode != 0
    assert (
        "DATABASE_REPLICA_PIN_SECONDS (30) must be at least DATABASE_REPLICA_MAX_LAG_SECONDS (30) "
        "+ DATABASE_REPLICA_CHECK_SECONDS (5)" in refused.stderr
    )
