"""The API under 50 concurrent clients for 60 s on 100,000 candidates, served as in production (nginx in front when it
is installed, gunicorn with gunicorn.conf.py) on loopback while an import batch runs, 8 sockets send their headers a
byte a second and 4 clients stream JSON Lines exports again and again, then these alone for 30 s: zero 5xx, p99
reported, /healthz always answered, and within a second when the slow and long clients are alone (issue 15, hole 5:
8 slow sockets blocked it for 60 s, 4 exports delayed it by 32 s). The work is bench/load.py's, run as its own
process: it sets Django up on the benchmark database (reused between runs), not on this suite's test database."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.reliability

BASE_DIR = Path(__file__).resolve().parents[2]
CANDIDATES, CLIENTS, SECONDS, IMPORT_FILES = 100_000, 50, 60, 2000
SLOW_SOCKETS, LONG_CLIENTS, ATTACK_SECONDS = 8, 4, 30


def test_issue_15_hole_5_the_api_serves_50_clients_during_an_import_and_slow_and_long_clients_and_healthz_stays_fast(
    tmp_path,
):
    figures_file = tmp_path / "load.json"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--count",
            str(CANDIDATES),
            "--clients",
            str(CLIENTS),
            "--duration",
            str(SECONDS),
            "--import-files",
            str(IMPORT_FILES),
            "--slow-clients",
            str(SLOW_SOCKETS),
            "--long-clients",
            str(LONG_CLIENTS),
            "--attack-seconds",
            str(ATTACK_SECONDS),
            "--json",
            str(figures_file),
        ],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    print(result.stdout[result.stdout.find("[load]") - 1 :])
    figures = json.loads(figures_file.read_text())

    assert figures["candidates"] >= CANDIDATES
    assert figures["requests"] >= CLIENTS * 5
    assert figures["server_errors"] == 0, figures["statuses"]
    assert figures["transport_errors"] == {}
    assert set(figures["statuses"]) == {"200"}, figures["statuses"]  # not even a 429: one token per client
    assert figures["import_exit_code"] == 0, figures["import_summary"]
    assert figures["import_unfinished_files"] == 0
    created, updated, unchanged, failed = map(int, re.findall(r"\d+", figures["import_summary"]))
    assert created + updated + unchanged == IMPORT_FILES, figures["import_summary"]
    assert failed == 0, figures["import_summary"]

    # The load balancer's probe was always answered. With the 50 clients saturating two cores every request queues,
    # /healthz's too, but for seconds, well under the red team's 32 s and 60 s (seen: max 8.1-8.6 s on this 2-core
    # machine, so the bound leaves room for a slower one); with the slow sockets and the long requests alone, it
    # answers within a second.
    healthz = figures["healthz"]
    assert healthz["failed"] == 0, healthz
    assert healthz["under_load"]["max_ms"] < 20_000, healthz
    assert healthz["attack_only"]["probes"] >= ATTACK_SECONDS * 2, healthz
    assert healthz["attack_only"]["p99_ms"] < 1000, healthz
    # The slow sockets and the long requests were there all along, and were answered without an error.
    assert figures["slow_sockets"]["connections"] >= SLOW_SOCKETS
    assert figures["long_requests"]["megabytes"] > 0
    assert set(figures["long_requests"]["statuses"]) == {"200"}, figures["long_requests"]
    if shutil.which("nginx") or shutil.which("/usr/sbin/nginx"):
        assert figures["nginx"]
        # nginx hung up on them at its client_header_timeout, and they came back, as a slowloris does.
        assert figures["slow_sockets"]["closed_by_server"] >= SLOW_SOCKETS
