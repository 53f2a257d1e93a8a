"""Property tests: whatever the bytes, parsing returns a document or raises ParseError, nothing else. No database."""

import contextlib
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.dates import parse_month
from core.labels import label_key
from core.text import clean_text
from core.topics import _segment, split_topics
from ingestion.documents import ParseError, ProfileDocument
from ingestion.parsers import detect_format, parse
from ingestion.parsers.decoding import decode_bytes
from ingestion.parsers.jsonresume import parse_jsonresume
from ingestion.parsers.progai import parse_progai
from tests.fixtures import CORPUS_DIR, PROGAI_DIR
from tests.ingestion import adversarial

REFERENCE_TEXT = (PROGAI_DIR / "ingrid-valtonen.txt").read_text(encoding="utf-8")
REFERENCE_LINES = REFERENCE_TEXT.split("\n")
CORPUS_REFERENCE = CORPUS_DIR / "progai" / "jinliang-wei.txt"

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def parse_or_error(data: bytes) -> ProfileDocument | None:
    """The property itself: a ProfileDocument with a name, or ParseError with a message. Anything else fails."""
    try:
        document = parse(data)
    except ParseError as exc:
        error = exc
    else:
        error = None
    if error is not None:
        assert str(error).strip(), "a ParseError must say what is wrong"
        return None
    assert isinstance(document, ProfileDocument)
    assert document.format in ("progai", "jsonresume")
    assert document.name.strip()
    assert all(isinstance(w, str) and w for w in document.warnings)
    for skill in document.skills + document.programming_languages:
        assert 0 <= skill.score <= 10
        assert skill.label.strip()
    for contribution in document.contributions:
        for topic in contribution.topics:
            assert topic
            assert topic[0] != "-"
            assert topic[-1] != "-"
    assert_plain_values(document.to_dict())
    assert detect_format(data) == document.format
    return document


def assert_plain_values(value) -> None:
    """Text that encodes as UTF-8 without NUL, counts that are small non-negative integers."""
    if isinstance(value, str):
        value.encode("utf-8")
        assert "\x00" not in value
    elif isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int):
        assert 0 <= value <= 2**31 - 1
    elif isinstance(value, dict):
        for item in value.values():
            assert_plain_values(item)
    else:
        for item in value:
            assert_plain_values(item)


@FAST
@given(st.binary(max_size=4000))
def test_arbitrary_bytes(data):
    parse_or_error(data)


@FAST
@given(st.text(max_size=3000))
def test_arbitrary_text(text):
    parse_or_error(text.encode("utf-8"))
    parse_or_error(text.encode("utf-16"))


# Lines that exercise every branch of the Prog.AI parser, mixed with the reference's own lines and noise.
PROGAI_LINES = [
    *REFERENCE_LINES,
    "Summary",
    "🤩",
    "Rockstar🎓",
    "Top School",
    "Github Skills (3)",
    "Github Skills (",
    "Programming languages (2)",
    "Github contributions (1)",
    "python99",
    "html510",
    "10",
    "owner/repo",
    "May 2020 - Present",
    "Jan 1999 - Foo 2020",
    "Role in this project:",
    "Role in this project:Maintainer",
    "MaintainerContributions:1 commit, 1 comment in 1 year 1 month",
    "Contributions:",
    "Contributions summary:",
    "--",
    "a-b--c-",
    "Master's Degree, Master's Degree at MIT",
    ", at , at ",
    "X, X at ",
    "Chinese, English",
    "1 year of coding experience",
    "Find and Hire Top Developers",
    "{",
    "<script>alert(1)</script>",
    "xContributions:99,999,999,999,999 commits, 123456789012 comments in 99999 years",
    "Github Skills (999,999,999,999)",
]


@FAST
@given(
    st.lists(
        st.one_of(st.sampled_from(PROGAI_LINES), st.text(max_size=40)),
        min_size=1,
        max_size=60,
    ),
    st.sampled_from(["\n", "\r\n", "\n\n"]),
)
def test_progai_like_line_soup(lines, newline):
    parse_or_error(("Jane Doe" + newline + newline.join(lines)).encode())
    with contextlib.suppress(ParseError):
        parse_progai(newline.join(lines))


@st.composite
def mutated_reference(draw, text: str):
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        if not text:
            break
        start = draw(st.integers(min_value=0, max_value=len(text)))
        end = draw(st.integers(min_value=start, max_value=min(len(text), start + 200)))
        operation = draw(st.sampled_from(["delete", "insert", "replace", "duplicate"]))
        insert = draw(st.text(max_size=20)) if operation in ("insert", "replace") else ""
        if operation == "delete":
            text = text[:start] + text[end:]
        elif operation == "insert":
            text = text[:start] + insert + text[start:]
        elif operation == "replace":
            text = text[:start] + insert + text[end:]
        else:
            text = text[:end] + text[start:end] + text[end:]
    return text


@FAST
@given(mutated_reference(REFERENCE_TEXT))
def test_mutations_of_the_reference(text):
    document = parse_or_error(text.encode("utf-8"))
    if document is not None:
        assert document.format == "progai"


@pytest.mark.corpus
@FAST
@given(data=st.data())
def test_mutations_of_the_corpus_reference(data):
    text = data.draw(mutated_reference(CORPUS_REFERENCE.read_text(encoding="utf-8")))
    document = parse_or_error(text.encode("utf-8"))
    if document is not None:
        assert document.format == "progai"


any_text = st.text(st.characters(codec=None, categories=None), max_size=20)  # surrogates and controls included
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | any_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=30,
)
RESUME_KEYS = ["basics", "work", "education", "skills", "languages", "projects", "volunteer", "meta"]
BASICS_KEYS = ["name", "label", "email", "url", "summary", "location", "profiles", "website"]


@FAST
@given(
    st.dictionaries(st.sampled_from(RESUME_KEYS), json_values, max_size=6),
    st.dictionaries(st.sampled_from(BASICS_KEYS), json_values, max_size=6),
    st.text(min_size=1, max_size=30).filter(clean_text),
)
def test_json_resume_of_any_shape(data, basics, name):
    parse_or_error(json.dumps(data).encode())
    data = {**data, "basics": {**basics, "name": name}}
    document = parse_jsonresume(json.dumps(data))  # a usable name: always a document
    assert document.name


@FAST
@given(json_values)
def test_any_json_value(value):
    parse_or_error(json.dumps(value).encode())


@FAST
@given(st.text(alphabet="abcdm-", max_size=40), st.sets(st.text(alphabet="abcd-", min_size=1, max_size=5), max_size=8))
def test_topic_segments_cover_the_token_and_never_edge_on_a_hyphen(raw, vocabulary):
    segments = _segment(raw, frozenset(vocabulary))
    assert "".join(segments) == raw.strip("-")
    for segment in segments:
        assert segment
        assert segment[0] != "-"
        assert segment[-1] != "-"
    assert set(split_topics(raw, frozenset(vocabulary))) <= set(segments)


@FAST
@given(st.text(max_size=60))
def test_helpers_are_total(text):
    key = label_key(text)
    assert label_key(key) == key
    month = parse_month(text)
    assert month is None or re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", month)


@FAST
@given(st.text(max_size=500).filter(lambda s: s.strip() and "\x00" not in s))
def test_utf8_and_utf16_decode_to_the_same_text(text):
    try:
        utf8 = decode_bytes(text.encode("utf-8"))
    except ParseError:
        return
    utf16 = decode_bytes(text.encode("utf-16"))
    assert utf16[0] == utf8[0]
    assert utf16[1] == ["The file was UTF-16 encoded; converted."]


# Every parser and stage on random and adversarial text (tests/ingestion/adversarial.py), within a bound of CPU time
# per input; the same examples on every run. tests/reliability/test_parser_fuzzing.py runs many more, seeded anew.
@settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=adversarial.HEALTH_CHECKS_OFF,
)
@given(adversarial.cases)
def test_every_parser_reads_random_and_adversarial_text_in_bounded_time(case):
    adversarial.read_everywhere(case)
