"""Reading a job description costs time linear in its length: ``extract_criteria`` is timed on inputs that double (x1
.. x8, the largest near the 100,000-character cap; the fixture posts up to 40,000 characters) and fails on
super-linear growth (``tests/reliability/growth.py``). How fast it reads is a benchmark's (``bench/job_match.py
--reader``), not a test's.

The inputs are the shapes that were quadratic, each a long run of one pattern: a skill named thousands of times in one
line (by commas, by spaces, in sentences, glued by commas, after "must have:"), ambiguous words judged one after another
(capitalised pairs that could be names, a word in mid-sentence), many skills after one migration cue, after one "or
another", between "but"s, a run of spaces after "we" (a regex that split it every way), a title line of spaces, blank
lines and lines of dashes (a remote pattern that crossed them), many places on one line, under many "Location"
headings, after a long run of dashes. Pure Python: timed on the process's CPU clock, the reader's caches emptied and the
garbage collector off during each run.
"""

import functools
import gc
import importlib
import pkgutil
import time

import pytest

from jobs import criteria
from jobs.criteria import extract_criteria
from tests.jobs.helpers import CITIES, JOBS_DIR, fixture_vocabulary
from tests.reliability.growth import assert_near_linear, measure_growth

pytestmark = pytest.mark.reliability

CAP = criteria.DEFAULT_MAX_CHARS
# The reader's caches of what short windows of text say, in every module of the package (not the vocabulary's
# automaton, built once per vocabulary, nor the shipped vocabulary's labels, read once per process).
_MODULES = [importlib.import_module(f"jobs.criteria.{m.name}") for m in pkgutil.iter_modules(criteria.__path__)]
CACHES = [
    value
    for module in _MODULES
    for name, value in vars(module).items()
    if hasattr(value, "cache_clear")
    and name != "_shipped_labels"
    and getattr(value, "__module__", "") == module.__name__
]


def _read(text: str) -> None:
    for cache in CACHES:
        cache.cache_clear()
    gc.disable()
    try:
        extract_criteria(text, fixture_vocabulary(), cities=CITIES)
    finally:
        gc.enable()


def _repeated(head: str, unit: str, tail: str = ""):
    """``head`` + ``unit`` * n + ``tail``, the largest (x8) just under the cap."""

    def make(n: int) -> str:
        return head + unit * n + tail

    make.base = (CAP - len(head) - len(tail)) // (8 * len(unit))
    return make


SHAPES = {
    "one skill named by commas (the issue's post)": _repeated("Requirements: ", "Python, "),
    "one skill named by spaces": _repeated("Requirements: ", "Kubernetes "),
    "one skill in many sentences of one line": _repeated("Requirements\n", "We use Python. "),
    "skills that could be names": _repeated("Requirements: ", "Go Python "),
    "an ambiguous word in mid-sentence": _repeated("Backend\n\nthe team ", "Rust "),
    "an ambiguous word glued by commas": _repeated("Backend\n\nthe team ", "Rust,"),
    "skills after one migration cue": _repeated("We are moving off PHP to ", "Go, "),
    "skills after one substitute": _repeated("Requirements: Stripe or another ", "Python "),
    "clauses of one sentence": _repeated("Requirements: ", "Python but Go, "),
    "an inline heading's items": _repeated("Must have: ", "Go, "),
    "spaces after 'we'": _repeated("Requirements: Kubernetes we", " ", "x"),
    "a title of spaces": _repeated("a", " ", "b: x\n\nPython"),
    "blank lines": _repeated("Python\n", "\n", "x"),
    "lines of dashes": _repeated("Python\n", "-\n", "x"),
    "places on one line": _repeated("Backend\n\nWe sell in ", "Germany, "),
    "places under many headings": _repeated("Backend\n\n", "Location\nGermany\n\n"),
    "places after a run of dashes": _repeated("Backend\n\n", "-", " Germany Berlin"),
    "a list of one skill a line": _repeated("Requirements\n", "- Python\n"),
    "opening brackets": _repeated("Requirements: Python ", "(", "a plus"),
    "brackets with a cue": _repeated("Requirements: ", "Python (Kotlin is a plus), "),
    "degrees in one sentence": _repeated("Requirements: ", "a degree in Physics, "),
    "cities with country letters": _repeated("Backend\n\nBased in ", "Freiburg (D), Python, "),
    "links and addresses": _repeated("Requirements: ", "Python, https://a.example/x, Go, a@b.example, "),
    "terms the vocabulary lacks": _repeated("Requirements\n- Python with ", "Nextflow, "),
    "years of the company": _repeated("Requirements\n", "In over 35 years, the company has grown. "),
    "team members' places": _repeated("Backend\n\nOur team members live in ", "Poland, "),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_reading_a_description_grows_linearly(shape):
    make = SHAPES[shape]
    assert len(make(8 * make.base)) <= CAP

    growth = measure_growth(_read, make, base=make.base, clock=time.process_time)

    print(f"\n{shape}: {growth.describe()}")
    assert_near_linear(growth, what=f"Reading a description ({shape})")


@functools.cache
def _issue_post() -> str:
    return "Requirements: " + "Python, " * ((CAP - 14) // 8)  # 99,998 characters


def test_the_longest_post_of_one_skill_is_read_well_under_a_second():
    _read(_issue_post())
    best = min(_timed(_issue_post()) for _ in range(3))

    print(f"\n{len(_issue_post()):,} characters read in {best * 1000:.0f} ms")
    assert best < 1.0, f"{len(_issue_post()):,} characters took {best * 1000:.0f} ms of CPU"


def _timed(text: str) -> float:
    started = time.process_time()
    _read(text)
    return time.process_time() - started


def _own_posts(length: int) -> str:
    posts = [path.read_text(encoding="utf-8") for path in sorted(JOBS_DIR.glob("*.txt"))]
    text = "\n\n".join(posts)
    return (text * (length // len(text) + 1))[:length]


# The reader's speed is measured in bench/job_match.py --reader (docs/benchmarks.md); the suite checks only how its
# cost grows, which a machine's speed (its CPU time swung two-fold between runs) does not change.
def test_reading_the_fixture_posts_grows_linearly():
    growth = measure_growth(_read, _own_posts, base=5_000, clock=time.process_time)

    print(f"\nthe fixture posts: {growth.describe()}")
    assert_near_linear(growth, what="Reading the fixture posts")
