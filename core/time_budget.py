"""A time budget for a piece of pure work: past it, the work is interrupted where it stands.

The interruption is SIGALRM from a one-shot real-time timer (``signal.setitimer``), whose handler raises
``TimeBudgetExceeded`` in the work: Python runs signal handlers between two bytecodes and inside a long regular
expression match, so the work needs no checks of its own. That is only possible in the main thread, which is where a
Celery prefork worker, ``manage.py`` and pytest run their work; elsewhere (a thread) and while another timer is running
(someone else's SIGALRM, never replaced), the work runs without a limit. The previous handler is always put back.

Interrupt only work that holds nothing it must release: no database transaction, lock or open file.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["TimeBudgetExceeded", "time_budget"]


class TimeBudgetExceeded(BaseException):
    """Raised inside work that ran past its budget. A BaseException, as KeyboardInterrupt is, so that the work's own
    ``except Exception`` clauses do not swallow it."""


class _Timer:
    armed = False  # True while a budget of ours is running: a SIGALRM then ends it (only once)


def _expired(signum, frame) -> None:
    if _Timer.armed:
        _Timer.armed = False
        raise TimeBudgetExceeded


def _can_interrupt() -> bool:
    return (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL)[0] == 0
    )


@contextmanager
def time_budget(seconds: float | None) -> Iterator[None]:
    """Run the block for at most ``seconds``, or raise ``TimeBudgetExceeded`` (at once when ``seconds`` is 0 or less).
    ``None``: no limit. See the module's docstring for where the limit cannot be kept."""
    if seconds is None:
        yield
        return
    if seconds <= 0:
        raise TimeBudgetExceeded
    if _Timer.armed or not _can_interrupt():  # a budget inside a budget: the outer one holds
        yield
        return
    previous = signal.signal(signal.SIGALRM, _expired)
    try:
        _Timer.armed = True
        signal.setitimer(signal.ITIMER_REAL, seconds)
        yield
    finally:
        # Disarmed first: a SIGALRM that is still on its way finds nothing to end; then the timer stopped, and only
        # then the handler put back (the default one would end the process). One that lands before the disarming
        # raises here, at the budget's end, and the rest still runs.
        try:
            _Timer.armed = False
        finally:
            try:
                signal.setitimer(signal.ITIMER_REAL, 0)
            finally:
                # None: the previous handler was not set from Python; the default is what stood.
                signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
