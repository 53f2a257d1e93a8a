"""Issue 15, hole 4: an export of the 100,000-candidate benchmark database through a real Celery worker completes,
and its file is whole: as many rows as candidates, with the size and sha256 the job recorded. The work is
bench/export.py's, run as its own process on the benchmark database (reused between runs), as test_load.py does."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.reliability

BASE_DIR = Path(__file__).resolve().parents[2]
CANDIDATES = 100_000


def test_issue_15_hole_4_an_export_job_of_100000_candidates_writes_every_row_and_records_its_hash(tmp_path):
    figures_file = tmp_path / "export.json"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "bench/export.py", "--count", str(CANDIDATES), "--json", str(figures_file)],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    print(result.stdout[result.stdout.find("[export]") :])

    for figures in json.loads(figures_file.read_text()):
        assert figures["status"] == "done", figures
        assert figures["candidates"] >= CANDIDATES
        assert figures["rows_in_file"] == figures["rows_written"] == figures["rows_total"] == figures["candidates"]
        assert figures["size_matches"], figures
        assert figures["sha256_matches"], figures
        assert figures["progress_values_seen"] > 2, "progress was not reported while the job ran"
