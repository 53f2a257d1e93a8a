"""Property tests the parsers' own suite (tests/ingestion/test_parser_properties.py) leaves out: whatever a parser
returns must also be *storable*. Hypothesis' text strategy never draws surrogates or NUL, which is how an unpaired
surrogate escaped in a JSON résumé ("\\ud800") reached PostgreSQL and failed a whole chunk of files. No database.
"""

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, note, seed, settings
from hypothesis import strategies as st

from devtools.synthetic import generate_documents, render_jsonresume, render_progai
from ingestion.documents import ParseError, ProfileDocument
from ingestion.normalise import normalise
from ingestion.parsers import parse
from profiles.vocabulary import SkillVocabulary
from tests.ingestion import adversarial

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INT_COLUMN_MAX = 2**31 - 1  # PositiveIntegerField: commits, comments, active months, declared totals

# Every code point, surrogates and controls included: what a JSON "\\uXXXX" escape or a broken export can carry.
any_character = st.characters(codec=None, categories=None)
hostile_text = st.text(any_character, max_size=40) | st.sampled_from(
    ["\ud800", "\udfff", "\x00", "\u202e", "\ufeff", "\x1b[31m", "<script>alert(1)</script>", "'; DROP TABLE x;--"]
)
BASE = next(d for d in generate_documents(20, seed=7) if d.contributions and d.education)
RESUME = json.loads(render_jsonresume(BASE))
PROGAI_LINES = render_progai(BASE).split("\n")


def assert_storable(document: ProfileDocument) -> None:
    """What the loader needs: text PostgreSQL can hold, integers that fit their columns, a normalised profile with
    its keys and fingerprint."""

    def walk(value, where: str) -> None:
        if isinstance(value, str):
            value.encode("utf-8")  # raises on an unpaired surrogate
            assert "\x00" not in value, f"{where} holds a NUL character"
        elif isinstance(value, bool) or value is None:
            return
        elif isinstance(value, int):
            assert 0 <= value <= INT_COLUMN_MAX, f"{where} = {value} does not fit its column"
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{where}.{key}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{where}[{i}]")

    walk(document.to_dict(), "document")
    for entry in document.skills + document.programming_languages:
        assert 0 <= entry.score <= 10
    profile = normalise(document, SkillVocabulary())
    assert profile.values["name"].strip()
    assert profile.identity_keys
    assert len(profile.fingerprint) == 64


def parse_storable(data: bytes) -> ProfileDocument | None:
    try:
        document = parse(data)
    except ParseError as exc:
        message = str(exc)
    else:
        assert_storable(document)
        return document
    assert message.strip(), "a ParseError must say what is wrong"
    return None


@FAST
@given(field=st.sampled_from(["name", "label", "summary", "email", "url"]), value=hostile_text)
def test_a_json_resume_with_any_characters_in_basics_parses_to_a_storable_document(field, value):
    data = json.loads(json.dumps(RESUME))
    data["basics"][field] = value if field != "name" else f"Ada {value}"
    parse_storable(json.dumps(data).encode())  # ensure_ascii: every odd character arrives as a \\u escape


@FAST
@given(
    section=st.sampled_from(["work", "education", "skills", "projects", "languages"]),
    values=st.lists(
        st.dictionaries(
            st.sampled_from(
                ["name", "institution", "level", "keywords", "url", "startDate", "endDate", "roles", "area", "language"]
            ),
            hostile_text | st.integers() | st.lists(hostile_text, max_size=3),
            max_size=6,
        ),
        max_size=4,
    ),
)
def test_a_json_resume_with_any_characters_in_its_sections_parses_to_a_storable_document(section, values):
    data = {**json.loads(json.dumps(RESUME)), section: values}
    parse_storable(json.dumps(data).encode())


@FAST
@given(
    position=st.integers(min_value=0, max_value=len(PROGAI_LINES)),
    line=st.text(any_character.filter(lambda c: not 0xD800 <= ord(c) <= 0xDFFF), max_size=60),
    number=st.integers(min_value=0, max_value=10**30),
)
def test_a_progai_export_with_any_line_inserted_parses_to_a_storable_document(position, line, number):
    lines = [*PROGAI_LINES[:position], line, *PROGAI_LINES[position:]]
    text = "\n".join(lines).replace("commits", f"{number} commits", 1).replace("Skills (", f"Skills ({number}", 1)
    parse_storable(text.encode("utf-8"))


@FAST
@given(
    encoding=st.sampled_from(["utf-8", "utf-16", "utf-16-le", "utf-32", "cp1252", "latin-1"]),
    cut=st.integers(min_value=1, max_value=4000),
)
def test_a_profile_in_any_encoding_cut_anywhere_parses_to_a_storable_document(encoding, cut):
    text = "\n".join(PROGAI_LINES).replace("’", "'")
    parse_storable(text.encode(encoding, errors="replace")[:cut])


# The wide run of tests/ingestion/test_parser_properties.py's bounded-time property: many more random and adversarial
# inputs, from a new seed each run (printed; TALENTDB_FUZZ_SEED=<seed> runs the same inputs again). Hypothesis also
# prints the failing input and a @reproduce_failure line.
FUZZ_SEED = int(os.environ.get("TALENTDB_FUZZ_SEED") or random.SystemRandom().randrange(2**32))


@pytest.fixture(scope="module")
def fuzz_seed() -> int:
    print(f"\nParser fuzzing seed: TALENTDB_FUZZ_SEED={FUZZ_SEED}")
    return FUZZ_SEED


@pytest.mark.reliability
@seed(FUZZ_SEED)
@settings(
    max_examples=1500,
    deadline=None,
    print_blob=True,
    suppress_health_check=adversarial.HEALTH_CHECKS_OFF,
)
@given(adversarial.cases)
def test_every_parser_reads_random_and_adversarial_text_in_bounded_time_wide(fuzz_seed, case):
    note(f"TALENTDB_FUZZ_SEED={fuzz_seed}")
    adversarial.read_everywhere(case)
