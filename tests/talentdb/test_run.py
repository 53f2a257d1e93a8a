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


# --- The optional ranking index ---------------------------------------------------------------------------------------

EXITS = [sys.executable, "-c", "import sys; sys.exit(3)", "talentdb"]


def test_an_optional_child_that_exits_is_started_again_after_a_growing_backoff_and_stops_nothing():
    child = run.OptionalChild(EXITS)
    child.start()
    first = child.process
    first.wait(timeout=30)

    assert child.check(now=100.0) is False  # it exited: a restart is planned, not made at once
    assert child.check(now=100.0 + run.RESTART_BACKOFF_SECONDS - 0.1) is False
    assert child.check(now=100.0 + run.RESTART_BACKOFF_SECONDS) is True
    assert child.process is not first
    child.process.wait(timeout=30)

    assert child.check(now=110.0) is False  # exited again soon after its start
    assert child.check(now=110.0 + run.RESTART_BACKOFF_SECONDS) is False  # the second wait is longer
    assert child.check(now=110.0 + 2 * run.RESTART_BACKOFF_SECONDS) is True
    child.process.wait(timeout=30)


def test_the_backoff_of_an_optional_child_is_capped():
    child = run.OptionalChild(EXITS)
    child.restarts = 50

    assert child.delay() == run.RESTART_BACKOFF_MAX_SECONDS


def test_a_running_optional_child_is_left_alone():
    child = run.OptionalChild(SLEEPER)
    child.start()
    try:
        assert child.check(now=0.0) is False
        assert child.check(now=10_000.0) is False
        assert child.process.poll() is None
    finally:
        child.process.terminate()
        child.process.wait(timeout=30)


def test_the_run_stops_for_a_required_process_but_not_for_an_optional_one():
    required, optional = [subprocess.Popen(SLEEPER)], run.OptionalChild(EXITS)
    optional.start()
    optional.process.wait(timeout=30)
    try:
        assert run.keep_running(required) is True
        required[0].terminate()
        required[0].wait(timeout=30)
        assert run.keep_running(required) is False
    finally:
        for process in required:
            if process.poll() is None:
                process.kill()


def test_an_optional_child_that_ran_a_while_before_it_exited_waits_the_first_backoff_again():
    child = run.OptionalChild(EXITS)
    child.restarts = 5  # five exits in a row before
    child.start(now=1_000.0)
    child.process.wait(timeout=30)

    assert child.check(now=1_000.0 + run.RESTART_STABLE_SECONDS) is False
    assert child.check(now=1_000.0 + run.RESTART_STABLE_SECONDS + run.RESTART_BACKOFF_SECONDS) is True
    child.process.wait(timeout=30)
