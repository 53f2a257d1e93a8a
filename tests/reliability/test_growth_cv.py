"""The CV reader and its text extraction cost time linear in their input: each is timed on inputs that double (x1 ..
x8) and fails on super-linear growth (``tests/reliability/growth.py``): many positions, many listed skills named in
many positions, many languages, a CV without headings of many dated entries, a PDF of many lines in two columns, a
DOCX of many table rows. Pure Python: timed on the process's CPU clock."""

import gc
import time

import pytest

from core.languages import read_spoken_language
from devtools.cvs import FictionalCv, cv_docx, cv_pdf, cv_plain_text
from ingestion.parsers import parse
from ingestion.parsers.cv import parse_cv
from ingestion.parsers.cv.skills import MAX_LISTED
from tests.reliability.growth import assert_near_linear, measure_growth

pytestmark = pytest.mark.reliability

CONTACTS = ["maelis.duvernoy@example.org · +33 6 12 34 56 78", "Lyon, France"]
VOCABULARY = frozenset({"python", "kafka", "kubernetes", "postgresql", "terraform"})


def grow(what: str, work, make_input, *, base: int) -> None:
    growth = measure_growth(without_gc(work), make_input, base=base, clock=time.process_time)
    print(f"{what}: {growth.describe()}")
    assert_near_linear(growth, what=what)


def without_gc(work):
    """``work`` without the cyclic garbage collector, whose full collections start by counts of allocations, not by the
    work (as ``test_growth_parsers`` times)."""

    def run(payload):
        gc.disable()
        try:
            return work(payload)
        finally:
            gc.enable()

    return run


def _positions(n: int) -> list[str]:
    lines = []
    for i in range(n):
        dates = f"{2000 + i % 20} – {2001 + i % 20}"
        lines += [f"Engineer — Company{i} Ltd", dates, "Built it in Python and Kafka.", ""]
    return lines


def _cv(sections) -> FictionalCv:
    return FictionalCv(name="Maelis Duvernoy", contacts=CONTACTS, sections=sections)


def test_many_positions():
    grow(
        "CV text of n positions",
        lambda text: parse_cv(text, vocabulary=VOCABULARY),
        lambda n: cv_plain_text(_cv([("Experience", _positions(n)), ("Skills", ["Go"])])),
        base=50,
    )


def test_many_listed_skills_named_in_many_positions():
    def make(n: int) -> str:
        skills = [f"Tool{i}" for i in range(min(n, MAX_LISTED))]
        positions = []
        for i in range(n):
            positions += [f"Engineer — Company{i}", "2019 – 2020", f"Used {skills[i % len(skills)]} daily.", ""]
        return cv_plain_text(_cv([("Experience", positions), ("Skills", [", ".join(skills)])]))

    grow("CV text of n listed skills and n positions", lambda text: parse_cv(text), make, base=60)


def test_many_languages():
    names = ["English — C1", "Deutsch (Muttersprache)", "Français : courant", "Italiano madrelingua", "Español: B2"]

    def work(text: str):
        read_spoken_language.cache_clear()  # a warm cache would time lookups, not the reading
        return parse_cv(text)

    grow(
        "CV text of n languages",
        work,
        lambda n: cv_plain_text(_cv([("Skills", ["Go"]), ("Languages", [names[i % 5] + f" {i}" for i in range(n)])])),
        base=200,
    )


def test_a_cv_without_headings_of_many_entries():
    grow(
        "CV text without headings, n dated entries",
        lambda text: parse_cv(text),
        lambda n: "Maelis Duvernoy\nmaelis@example.org\n\n" + "\n".join(_positions(n)),
        base=50,
    )


def test_a_pdf_of_many_lines_in_two_columns():
    def make(n: int) -> bytes:
        cv = _cv([("Skills", [f"Tool{i}, Go" for i in range(n // 4)]), ("Experience", _positions(n // 4))])
        return cv_pdf(dataclass_sidebar(cv), columns=2)

    grow("PDF of n lines in two columns", lambda data: parse(data), make, base=100)


def dataclass_sidebar(cv: FictionalCv) -> FictionalCv:
    return FictionalCv(name=cv.name, contacts=cv.contacts, sections=cv.sections, sidebar=("Skills",))


def test_a_docx_of_many_table_rows():
    grow(
        "DOCX of n table rows",
        lambda data: parse(data),
        lambda n: cv_docx(_cv([("Experience", _positions(n)), ("Skills", ["Go"])]), tables=("Experience",)),
        base=50,
    )
