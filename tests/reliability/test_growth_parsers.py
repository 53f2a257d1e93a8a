"""Every parsing and normalising stage costs time linear in its input: each is timed on inputs that double (x1 .. x8)
and fails on super-linear growth (``tests/reliability/growth.py``).

The stages: the split of one skill label (without its caps, which hide a super-linear split behind a cut), the label
key and its equivalent forms, the Prog.AI and JSON Resume parsers on profiles whose every list grows, the normaliser
on what they parse, and, through ``parse`` as a file arrives, the inputs that were quadratic: a skill name of many
pieces, a run of spaces inside a line, an e-mail of many dots, glued badges, topics lines among many words of the
document's own, many profile accounts and project keywords, a file of trailing commas, a project's counts ("88
commits, 15 comments") followed by many commas or in many highlights, many awards. Pure Python: timed on the process's
CPU clock, the caches emptied before each run (a warm cache would time lookups, not the work).
"""

import dataclasses
import functools
import gc
import importlib
import json
import pkgutil
import time

import pytest

from core import labels, topics
from devtools.synthetic import generate_documents, render_jsonresume, render_progai
from ingestion.documents import EducationEntry, PositionEntry, SkillEntry
from ingestion.normalise import normalise
from ingestion.parsers import jsonresume, parse, progai
from ingestion.parsers.jsonresume import parse_jsonresume, split_skill_label
from ingestion.parsers.progai import parse_progai
from profiles.vocabulary import SkillVocabulary
from tests.reliability.growth import assert_near_linear, measure_growth

pytestmark = pytest.mark.reliability

BASE = next(d for d in generate_documents(50, seed=7) if d.contributions and d.education and len(d.skills) > 5)
VOCABULARY = frozenset({"html", "css", "javascript", "python", "go", "docker", "react", "redux"})


def _modules_of(package) -> list:
    return [
        importlib.import_module(f"{package.__name__}.{info.name}") for info in pkgutil.iter_modules(package.__path__)
    ]


def _caches() -> list:
    """The label and topic caches of the parsers (not the vocabulary's index nor the word table: built once)."""
    kept = {topics._reversed_trie, topics._word_table}
    return [
        value
        for module in (labels, topics, *_modules_of(jsonresume), *_modules_of(progai))
        for value in vars(module).values()
        if hasattr(value, "cache_clear") and value not in kept
    ]


CACHES = _caches()


def cold(work):
    """``work`` run with the caches emptied first, and without the cyclic garbage collector: a full collection walks
    every object alive, and when one starts depends on counts of allocations, not on the work (a step of 5x between
    two sizes of a linear parse was seen)."""

    @functools.wraps(work)
    def run(payload):
        for cache in CACHES:
            cache.cache_clear()
        gc.disable()
        try:
            return work(payload)
        finally:
            gc.enable()

    return run


def grow(what: str, work, make_input, *, base: int) -> None:
    growth = measure_growth(cold(work), make_input, base=base, clock=time.process_time)
    print(f"{what}: {growth.describe()}")
    assert_near_linear(growth, what=what)


def _word(i: int) -> str:
    """A distinct lower-case word for each number (letters only: a Prog.AI skill line ends in its score's digits)."""
    letters = ""
    while True:
        i, digit = divmod(i, 26)
        letters += chr(97 + digit)
        if not i:
            return letters


def grown_document(n: int):
    """BASE with ``n`` of each list: skills, programming languages, contributions (topics glued), jobs, education."""
    contribution = BASE.contributions[0]
    return dataclasses.replace(
        BASE,
        skills=[SkillEntry(f"{skill.label} {_word(i)}", skill.score) for i in range(n) for skill in BASE.skills[:1]],
        programming_languages=[SkillEntry(f"Lang {_word(i)}", 7) for i in range(n)],
        contributions=[
            dataclasses.replace(
                contribution,
                repository=f"owner-{_word(i)}/repo-{_word(i)}",
                topics=[f"topic{_word(i)}", "python", "deep-learning"],
                topics_raw=f"topic{_word(i)}pythondeep-learning",
            )
            for i in range(n)
        ],
        positions=[
            PositionEntry(company=f"Company {_word(i)}", title="Engineer", start="2019-01", end="2020-02", order=i)
            for i in range(n)
        ],
        education=[
            EducationEntry(degree="BSc", field=f"Field {_word(i)}", school=f"School {_word(i)}") for i in range(n)
        ],
    )


@pytest.mark.parametrize("separator", ["/", ", ", " / "])
def test_the_split_of_one_skill_label_is_linear_without_its_caps(separator, monkeypatch):
    monkeypatch.setattr("ingestion.parsers.jsonresume.skills.MAX_LABEL_CHARS", 10**9)
    monkeypatch.setattr("ingestion.parsers.jsonresume.skills.MAX_LABEL_PIECES", 10**9)
    grow(
        f"split_skill_label of 'html{separator}html{separator}…'",
        lambda label: split_skill_label(label, VOCABULARY),
        lambda n: separator.join(["html"] * n),
        base=5_000,
    )


@pytest.mark.parametrize("key", ["a-", "a+", "a.1", "a1-", "c++1", "html/"])
def test_a_label_key_and_its_equivalent_forms_are_linear_in_its_length(key):
    grow(
        f"label_variants(label_key('{key}' x n))",
        lambda label: labels.label_variants(labels.label_key(label)),
        lambda n: key * n + "-x",
        base=80_000,
    )


@pytest.mark.parametrize(
    ("parser", "render"),
    [(parse_progai, render_progai), (parse_jsonresume, render_jsonresume)],
    ids=["progai", "jsonresume"],
)
def test_each_parser_is_linear_in_the_profile(parser, render):
    grow(
        f"{parser.__name__} of a profile with n skills, languages, contributions, jobs and studies",
        lambda text: parser(text, vocabulary=VOCABULARY),
        lambda n: render(grown_document(n)),
        base=100,
    )


@pytest.mark.parametrize("render", [render_progai, render_jsonresume], ids=["progai", "jsonresume"])
def test_the_normaliser_is_linear_in_the_document(render):
    grow(
        f"normalise of a parsed {render.__name__.removeprefix('render_')} profile with n of everything",
        lambda document: normalise(document, SkillVocabulary()),
        lambda n: parse(render(grown_document(n)).encode(), vocabulary=VOCABULARY),
        base=100,
    )


def _resume(**sections) -> bytes:
    return json.dumps({"basics": {"name": "Ada Growth", **sections.pop("basics", {})}, **sections}).encode()


def _progai(*lines: str) -> bytes:
    return "\n".join(["Ada Growth", "Summary", *lines]).encode()


ADVERSARIAL = {
    "a skill name 'html/html/…' of n pieces": (
        lambda n: _resume(skills=[{"name": "/".join(["html"] * n)}]),
        160_000,
    ),
    "a run of n spaces inside a line": (
        lambda n: _progai("a" + " " * n + "b ", "Github Skills (1)", "python9"),
        500_000,
    ),
    "an e-mail of n dots": (lambda n: _resume(basics={"email": "a@" + "b." * n + "@"}), 200_000),
    "n unknown badges glued on one line": (lambda n: _progai("🎓xyz" * n, "Github Skills (1)", "python9"), 5_000),
    "n contributions whose topics lines meet the document's own words": (
        lambda n: render_progai(
            dataclasses.replace(grown_document(1), contributions=grown_document(n).contributions)
        ).encode(),
        100,
    ),
    "n profile accounts and URLs": (
        lambda n: _resume(
            basics={"profiles": [{"network": "GitHub", "url": f"https://github.com/u{i}"} for i in range(n)]}
        ),
        1_000,
    ),
    "a spoken language written in n words": (
        lambda n: _resume(languages=[{"language": "English " + "fluent " * n}]),
        20_000,
    ),
    "a project of n keywords": (
        lambda n: _resume(projects=[{"url": "https://github.com/a/b", "keywords": [f"k{i}" for i in range(n)]}]),
        4_000,
    ),
    "a project highlight of 'commits' and n commas": (
        lambda n: _resume(projects=[{"url": "https://github.com/a/b", "highlights": ["commits" + "," * n + "x"]}]),
        80_000,  # quadratic, 40,000 commas took 20 s
    ),
    "a project of n highlights that are counts": (
        lambda n: _resume(
            projects=[{"url": "https://github.com/a/b", "highlights": [f"{i} commits" for i in range(n)]}]
        ),
        4_000,
    ),
    "n awards": (lambda n: _resume(awards=[{"title": f"Award {_word(i)}"} for i in range(n)]), 2_000),
    "n skills around trailing commas and comments (repaired JSON)": (
        lambda n: (
            '{"basics": {"name": "Ada Growth"}, // a comment\n "skills": ['
            + ",".join(['{"name": "Go", "keywords": ["a", "b"]}'] * n)
            + ',], "work": [{"name": "A",},], /* another */}'
        ).encode(),
        4_000,
    ),
}


@pytest.mark.parametrize("what", list(ADVERSARIAL))
def test_a_file_that_was_quadratic_to_read_is_read_in_linear_time(what):
    make_input, base = ADVERSARIAL[what]
    grow(f"parse of {what}", lambda data: parse(data, vocabulary=VOCABULARY), make_input, base=base)
