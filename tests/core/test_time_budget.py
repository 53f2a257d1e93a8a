"""A time budget interrupts pure work past it, and leaves the process's SIGALRM as it found it."""

import contextlib
import re
import signal
import threading
import time

import pytest

from core.time_budget import TimeBudgetExceeded, time_budget


def spin(seconds: float) -> bool:
    """Work the CPU for ``seconds``; True when it ran to the end (a budget that failed to stop it)."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        pass
    return True


@pytest.fixture(autouse=True)
def _sigalrm_as_found():
    handler = signal.getsignal(signal.SIGALRM)
    yield
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is handler


def test_work_past_its_budget_is_interrupted():
    started = time.monotonic()
    with pytest.raises(TimeBudgetExceeded), time_budget(0.2):
        spin(10)
    assert time.monotonic() - started < 5


def test_work_within_its_budget_runs_to_the_end():
    with time_budget(5):
        assert spin(0.05)


def test_the_works_own_except_exception_does_not_swallow_the_interruption():
    def careless() -> None:
        with contextlib.suppress(Exception):  # the point of the test
            spin(10)

    with pytest.raises(TimeBudgetExceeded), time_budget(0.2):
        careless()


def test_a_long_regular_expression_match_is_interrupted():
    quadratic = re.compile(r"^(.*?[a-z].*?)[-_]\d+$")
    with pytest.raises(TimeBudgetExceeded), time_budget(0.2):
        quadratic.match("a" * 200_000 + "-x")


def test_no_time_left_is_over_at_once_and_none_is_no_limit():
    with pytest.raises(TimeBudgetExceeded), time_budget(0):
        pytest.fail("the block must not run")
    with time_budget(None):
        assert spin(0.05)


def test_a_budget_inside_a_budget_leaves_the_outer_one_in_charge():
    with pytest.raises(TimeBudgetExceeded), time_budget(0.2), time_budget(60):
        spin(10)


def test_someone_elses_timer_is_left_alone():
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with time_budget(0.05):  # not ours to replace: no limit
            spin(0.1)
        spin(0.5)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert fired == [True]


def test_outside_the_main_thread_the_work_runs_without_a_limit():
    outcome = []

    def work() -> None:
        with time_budget(0.05):
            outcome.append(spin(0.2))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert outcome == [True]


def test_a_handler_not_set_from_python_is_put_back_as_the_default(monkeypatch):
    """signal.signal returns None for a handler set outside Python; putting None back raised TypeError."""
    calls = []
    real_signal = signal.signal

    def recording(signum, handler):
        calls.append(handler)
        previous = real_signal(signum, handler)
        return None if len(calls) == 1 else previous

    monkeypatch.setattr(signal, "signal", recording)
    with time_budget(5):
        pass
    monkeypatch.undo()
    signal.signal(signal.SIGALRM, signal.SIG_DFL)

    assert calls[-1] is signal.SIG_DFL
