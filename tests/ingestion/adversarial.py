"""Random and adversarial text for every parser, and the property they must keep: a document or a ``ParseError``
within a bound of CPU time per input, whatever the text.

Adversarial text is built, not drawn character by character: one piece repeated up to tens of thousands of times
with a separator (the shape that made a label split, a version pattern, an e-mail pattern and a trailing-space pattern
quadratic), deep nesting, long runs of one character, and a word followed by such a run (the shape of a JSON Resume
project's counts that was quadratic). Each is tried as a whole file, as every field of a JSON Resume and as every
kind of line of a Prog.AI export, and straight through the label, topic and normalising stages.
Sizes are such that linear work takes milliseconds and quadratic work minutes.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from hypothesis import HealthCheck, note
from hypothesis import strategies as st

from core.labels import label_key, label_variants
from core.topics import split_topics
from ingestion.documents import ParseError
from ingestion.normalise import normalise
from ingestion.parsers import parse
from ingestion.parsers.jsonresume import parse_jsonresume, split_skill_label
from ingestion.parsers.progai import parse_progai
from profiles.vocabulary import SkillVocabulary

# CPU seconds one input may take through every stage together; the largest inputs take tens of milliseconds.
SECONDS_PER_INPUT = 5.0
# Large inputs are the point here, and some are slow to build: hypothesis must not refuse them.
HEALTH_CHECKS_OFF = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
VOCABULARY = frozenset({"html", "css", "javascript", "python", "go", "react", "redux", "c++", "node.js"})

PIECES = ["html", "a", "1", "a1", "v1.2", "c++1", "x", "é", "🎓", "Rockstar", "in", "at", "contributions", " "]
SEPARATORS = ["/", ", ", ";", " / ", "-", "_", ".", "@", "+", "#", " ", "  ", "\t", "(", ")", "[", "{", ":", " at "]
any_text = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=12)

# Recipes rather than texts, so that a failing example prints as a few words, not as 100,000 characters.
repeated = st.tuples(
    st.just("repeat"),
    st.sampled_from(PIECES) | any_text.filter(bool),
    st.sampled_from(SEPARATORS) | any_text,
    st.integers(1, 50) | st.sampled_from([2_000, 10_000, 30_000]) | st.integers(1, 30_000),
    st.sampled_from(["", "x", "-3", "@", " ", ")", "9", "10", ".x", "+"]),
)
runs = st.tuples(
    st.just("run"), st.sampled_from(" \t-./(@a1,+#:"), st.sampled_from([1_000, 100_000]) | st.integers(1, 200_000)
)
# A word, then a run of one character: "commits" and 40,000 commas were quadratic in the pattern that tells a JSON
# Resume project's counts ("88 commits, 15 comments") from its other highlights; the run alone was not.
after_word = st.tuples(
    st.just("after"),
    st.sampled_from(["commits", "88 commits,", "1 comment and"]),
    st.sampled_from(", ;&1"),
    st.sampled_from([10_000, 40_000]) | st.integers(1, 50_000),
    st.sampled_from(["", "x", "."]),
)
nested = st.tuples(st.just("nest"), st.sampled_from(["[", "{", '{"a":', "(", '{"basics":']), st.integers(1, 50_000))
recipes = st.one_of(repeated, runs, after_word, nested, st.tuples(st.just("text"), st.text(max_size=2000)))


def cook(recipe: tuple) -> str:
    kind, *parts = recipe
    if kind == "repeat":
        piece, separator, count, tail = parts
        return separator.join([piece] * count) + tail
    if kind == "after":
        word, character, count, tail = parts
        return word + character * count + tail
    if kind in ("run", "nest"):
        opening, count = parts
        return opening * count
    return parts[0]


RESUME_FIELDS = [
    ("basics", "name"),
    ("basics", "label"),
    ("basics", "email"),
    ("basics", "url"),
    ("basics", "summary"),
    ("skills", "name"),
    ("skills", "keywords"),
    ("skills", "level"),
    ("projects", "keywords"),
    ("projects", "url"),
    ("projects", "highlights"),
    ("awards", "title"),
    ("profiles", "url"),
    ("profiles", "username"),
    ("work", "name"),
    ("work", "startDate"),
    ("languages", "language"),
    ("education", "institution"),
]
PROGAI_PLACES = ["name", "headline", "location", "summary", "head", "skill", "language", "repository", "dates", "role"]
PROGAI_PLACES += ["stats", "contribution summary", "topics"]


@dataclass(frozen=True)
class Case:
    recipe: tuple  # ``cook`` makes the text
    where: str  # "file", a JSON Resume field ("skills.name"), a Prog.AI place ("progai:skill")

    @property
    def text(self) -> str:
        return cook(self.recipe)


cases = st.builds(
    Case,
    recipe=recipes,
    where=st.sampled_from(
        ["file", *(f"{section}.{key}" for section, key in RESUME_FIELDS), *(f"progai:{p}" for p in PROGAI_PLACES)]
    ),
)


def resume_with(section: str, key: str, text: str) -> str:
    value: object = [text, text] if key in ("keywords", "highlights") else text
    if section == "basics":
        basics = {"name": "Ada Fuzz", key: value}
        if key == "name":
            basics["name"] = f"Ada {text}"
        return json.dumps({"basics": basics})
    if section == "profiles":
        return json.dumps({"basics": {"name": "Ada Fuzz", "profiles": [{"network": "GitHub", key: text}] * 3}})
    entry = {key: value}
    if section == "projects":
        entry.setdefault("url", "https://github.com/ada/fuzz")
    return json.dumps({"basics": {"name": "Ada Fuzz"}, section: [entry, entry]})


def progai_with(place: str, text: str) -> str:
    line = text.replace("\n", " ")
    parts = {
        "name": "Ada Fuzz",
        "headline": "Engineer at Fuzz",
        "location": "Porto, Portugal",
        "summary": "Ada writes parsers.",
        "head": "3 years of coding experience",
        "skill": "python9",
        "language": "Python8",
        "repository": "ada/fuzz",
        "dates": "Jan 2020 - Present",
        "role": "Role in this project: Maintainer",
        "stats": "Contributions: 5 commits in 1 month",
        "contribution summary": "Contributions summary: parsing",
        "topics": "parsingpythonfuzz",
    }
    parts[place] = {
        "skill": f"{line}9",
        "role": f"Role in this project: {line}",
        "stats": f"{line}Contributions: 1",
    }.get(place, line)
    return "\n".join(
        [
            parts["name"],
            parts["headline"],
            parts["location"],
            "Summary",
            parts["summary"],
            parts["head"],
            "Github Skills (1)",
            parts["skill"],
            "Programming languages (1)",
            parts["language"],
            "Github contributions (1)",
            parts["repository"],
            parts["dates"],
            parts["role"],
            parts["stats"],
            parts["contribution summary"],
            parts["topics"],
        ]
    )


def _parsed_or_refused(data: bytes | str, parser) -> None:
    try:
        document = parser(data)
    except ParseError as exc:
        message = str(exc)
    else:
        normalise(document, SkillVocabulary())
        return
    assert message.strip(), "a ParseError must say what is wrong"


def read_everywhere(case: Case) -> None:
    """Every stage on the case's text, within SECONDS_PER_INPUT of CPU time together."""
    text = case.text
    note(f"{len(text):,} characters")
    started = time.process_time()
    if case.where == "file":
        data = text.encode("utf-8", "surrogatepass")
        _parsed_or_refused(data, lambda d: parse(d, vocabulary=VOCABULARY))
        _parsed_or_refused(text, lambda t: parse_progai(t, vocabulary=VOCABULARY))
        _parsed_or_refused(text, lambda t: parse_jsonresume(t, vocabulary=VOCABULARY))
    elif case.where.startswith("progai:"):
        _parsed_or_refused(progai_with(case.where.removeprefix("progai:"), text).encode(), parse)
    else:
        section, key = case.where.split(".")
        _parsed_or_refused(resume_with(section, key, text).encode(), lambda d: parse(d, vocabulary=VOCABULARY))
    pieces = split_skill_label(text, VOCABULARY)
    assert all(piece for piece in pieces)
    label_variants(label_key(text))
    split_topics(text[:5000], VOCABULARY, frozenset(label_key(piece) for piece in pieces[:50]))
    spent = time.process_time() - started
    note(f"{spent:.3f} s of CPU")
    assert spent <= SECONDS_PER_INPUT, f"{case} took {spent:.1f} s of CPU (at most {SECONDS_PER_INPUT:g})"
