"""Waiting for a server thread of the tests."""

import time


def wait_until(condition, *, limit: float = 30.0) -> None:
    """Until ``condition()`` holds; fails after ``limit`` seconds (a generous bound for a busy machine, not a
    measurement)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)
