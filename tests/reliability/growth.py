"""How a cost grows with its input: run one piece of work on inputs that double, and fail on super-linear growth.

Timings on a shared two-core machine swing by up to 2x, so one figure proves nothing; a ratio between the same work at
two sizes, each the best of a few runs, is steady enough. Linear work doubles its time when its input doubles,
quadratic work quadruples it: the check allows a generous margin over 2 and fails well below 4, and it looks at the
whole run (8x the input must cost at most 16x the time, quadratic would be 64x) as well as the worst single doubling.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# One doubling may cost up to this factor (linear is 2, quadratic 4): a single step is the noisiest figure, so it
# only catches work that is plainly quadratic; the whole run below is the finer check.
MAX_STEP_RATIO = 4.0
# The whole run (sizes x1 .. x8) may cost up to this factor (linear is 8, quadratic 64).
MAX_TOTAL_RATIO = 16.0
# Below this, a timing is mostly the clock's and the interpreter's noise: the caller should start larger.
MIN_BASE_SECONDS = 0.002


@dataclass(frozen=True)
class Growth:
    sizes: tuple[int, ...]
    seconds: tuple[float, ...]

    @property
    def step_ratios(self) -> tuple[float, ...]:
        return tuple(b / a for a, b in zip(self.seconds, self.seconds[1:], strict=False))

    @property
    def total_ratio(self) -> float:
        return self.seconds[-1] / self.seconds[0]

    def describe(self) -> str:
        points = ", ".join(
            f"{size:,} -> {seconds * 1000:.1f} ms" for size, seconds in zip(self.sizes, self.seconds, strict=True)
        )
        ratios = ", ".join(f"{ratio:.2f}" for ratio in self.step_ratios)
        factor = self.sizes[-1] // self.sizes[0]
        return f"{points}; ratio per doubling {ratios}; x{factor} input -> x{self.total_ratio:.1f} time"


def measure_growth(
    work: Callable[[Any], object],
    make_input: Callable[[int], Any],
    *,
    base: int,
    doublings: int = 3,
    repeats: int = 3,
    clock: Callable[[], float] = time.perf_counter,
) -> Growth:
    """Time ``work(make_input(n))`` for n = base, 2*base, ... (``doublings`` times), each the best of ``repeats``.

    Inputs are built before the clock starts. Pass ``clock=time.process_time`` for pure-Python work, so that another
    process on the machine does not count; keep the wall clock for work that waits on the database."""
    sizes = tuple(base * 2**step for step in range(doublings + 1))
    seconds = []
    for size in sizes:
        payload = make_input(size)
        best = float("inf")
        for _ in range(repeats):
            started = clock()
            work(payload)
            best = min(best, clock() - started)
        seconds.append(max(best, 1e-9))
    return Growth(sizes=sizes, seconds=tuple(seconds))


def assert_near_linear(growth: Growth, *, what: str) -> None:
    """Fail when ``growth`` looks super-linear; the message gives every figure."""
    assert growth.seconds[0] >= MIN_BASE_SECONDS, (
        f"{what}: the smallest input took {growth.seconds[0] * 1000:.2f} ms, too little to time; start larger"
    )
    allowed = f"(allowed: {MAX_STEP_RATIO:g} per doubling, {MAX_TOTAL_RATIO:g} over the run)"
    assert max(growth.step_ratios) <= MAX_STEP_RATIO, (
        f"{what} grows faster than its input: {growth.describe()} {allowed}"
    )
    assert growth.total_ratio <= MAX_TOTAL_RATIO, f"{what} grows faster than its input: {growth.describe()} {allowed}"
