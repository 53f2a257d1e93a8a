"""The API under 50 concurrent clients for 60 s on 100,000 candidates, served by gunicorn on loopback while an import
batch runs: zero 5xx, p99 reported. The work is bench/load.py's, run as its own process: it sets Django up on the
benchmark database (reused between runs), not on this suite's test database."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.reliability

BASE_DIR = Path(__file__).resolve().parents[2]
CANDIDATES, CLIENTS, SECONDS, IMPORT_FILES = 100_000, 50, 60, 2000


def test_the_api_serves_50_clients_on_100000_candidates_during_an_import_without_a_server_error(tmp_path):
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
