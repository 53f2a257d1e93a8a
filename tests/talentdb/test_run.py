"""``make run`` skips what did not change, and ``make stop`` stops what ``make run`` started."""

import json
import subprocess
import sys
import time

import pytest

from talentdb import run

# A stand-in for a run's process: its command line names talentdb, as the run's own processes do.
SLEEPER = [sys.executable, "-c", "import sys, time; time.sleep(120)", "talentdb"]
# A run that ignores SIGTERM, as a process stuck in shutting down would.
STUCK = [
    sys.executable,
    "-c",
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)",
    "talentdb",
]


@pytest.fixture
def tree(tmp_path, monkeypatch):
    (tmp_path / "samples").mkdir()
    (tmp_path / "samples" / "ada.json").write_text("{}")
    monkeypatch.setattr(run, "BASE_DIR", tmp_path)
    monkeypatch.setattr(run, "STEP_INPUTS", {"ingest_samples": ["samples"]})
    return tmp_path


def test_a_steps_fingerprint_holds_until_its_inputs_or_the_database_change(tree):
    first = run._fingerprint("ingest_samples", "db|1")

    assert run._fingerprint("ingest_samples", "db|1") == first
    assert run._fingerprint("ingest_samples", "db|2") != first
    (tree / "samples" / "ben.json").write_text("{}")
    assert run._fingerprint("ingest_samples", "db|1") != first


def test_stop_ends_the_run_and_every_process_it_started(tmp_path, monkeypatch):
    monkeypatch.setattr(run, "STOP_TIMEOUT_SECONDS", 1)
    stuck = subprocess.Popen(STUCK)
    children = [subprocess.Popen(SLEEPER) for _ in range(3)]
    (tmp_path / "run.json").write_text(json.dumps({"pid": stuck.pid, "children": [c.pid for c in children]}))
    # A busy machine may take a moment to show a new process's command line.
    deadline = time.monotonic() + 10
    while not all(run._alive(p.pid) for p in [stuck, *children]) and time.monotonic() < deadline:
        time.sleep(0.05)

    stopped = run.stop(tmp_path)

    assert sorted(stopped) == sorted([stuck.pid, *(c.pid for c in children)])
    for process in [stuck, *children]:
        assert process.wait(timeout=10) is not None
    assert not (tmp_path / "run.json").exists()


def test_stop_without_a_run_says_so(tmp_path, capsys):
    assert run.stop(tmp_path) == []
    assert "No `make run`" in capsys.readouterr().out


def test_a_pid_reused_by_another_program_is_not_ours():
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not run._alive(other.pid)
    finally:
        other.kill()
        other.wait()
