"""JSON Resume skills and spoken languages (issue 14), on a fictional résumé that holds every defect the issue saw:
group headings stored as skills, comma-joined keywords kept whole, spoken languages without level or identity.

tests/fixtures/jsonresume/ruth-okonkwo.skill-groups-and-languages.json. Pure: no database.
"""

import json

import pytest

from core.languages import ELEMENTARY, FULL_PROFESSIONAL, LIMITED_WORKING, NATIVE
from ingestion.parsers import parse
from ingestion.parsers.jsonresume import parse_jsonresume, split_skill_label
from ingestion.vocabulary import vocabulary_from_files
from tests.fixtures import JSONRESUME_DIR, VOCAB_DIR

RESUME = JSONRESUME_DIR / "ruth-okonkwo.skill-groups-and-languages.json"
# The small test vocabulary, plus what the seeded one knows too: every piece of "CI/CD" and "TCP/IP" is a skill.
VOCABULARY = vocabulary_from_files(VOCAB_DIR) | {"redux", "ci", "cd", "tcp", "ip", "frontend", "backend"}


@pytest.fixture(scope="module")
def document():
    return parse(RESUME.read_bytes(), vocabulary=VOCABULARY)


def test_group_headings_are_categories_not_skills(document):
    """Issue 14: "Languages", "Tools", "Frameworks / Libraries", "Databases" (with keywords) were skills at 9."""
    labels = [skill.label for skill in document.skills]
    for heading in ("Languages", "Tools", "Frameworks / Libraries", "Frameworks", "Libraries", "Databases"):
        assert heading not in labels
    categories = {skill.label: skill.category for skill in document.skills}
    assert categories["Python"] == categories["TypeScript"] == "Languages"
    assert categories["Docker"] == "Tools"
    assert categories["PostgreSQL"] == "Databases"
    assert categories["HTML5"] == ""  # a lone name is a skill of no group


def test_comma_joined_keywords_are_split(document):
    """Issue 14: "Selenium, Jasmine, Mocha, nUnit, jUnit" was one skill; "HTML5, HTML" became html5-html."""
    scores = {skill.label: skill.score for skill in document.skills}
    for label in ("Selenium", "Jasmine", "Mocha", "nUnit", "jUnit"):
        assert scores[label] == 8  # the group's level, Advanced
    assert scores["HTML5"] == scores["HTML"] == 9  # a lone name, split too, at its own level (Master)
    assert not any("," in label for label in scores)


def test_a_slash_splits_only_between_known_skills_or_with_spaces_around(document):
    labels = [skill.label for skill in document.skills]
    assert {"React", "Redux"} <= set(labels)  # both known skills
    assert "React/Redux" not in labels
    assert {"CI/CD", "TCP/IP", "PL/SQL", "A/B testing"} <= set(labels)  # one name each, whatever is known
    assert {"Frontend", "Backend"} <= set(labels)  # " / " always separates


@pytest.mark.parametrize(
    ("label", "vocabulary", "pieces"),
    [
        ("HTML5, HTML", set(), ["HTML5", "HTML"]),
        ("Python (Django, Flask)", set(), ["Python (Django, Flask)"]),  # a comma inside parentheses stays
        ("HTML/CSS", {"html", "css"}, ["HTML", "CSS"]),
        ("HTML/CSS", {"html"}, ["HTML/CSS"]),  # one piece unknown: whole
        ("HTML/CSS", set(), ["HTML/CSS"]),
        ("CI/CD", {"ci", "cd"}, ["CI/CD"]),
        ("Vue.js/Vuex", {"vue", "vuex"}, ["Vue.js", "Vuex"]),  # a piece known by an equivalent form
        ("node/express", {"node/express", "node", "express"}, ["node/express"]),  # the whole is known
        ("Frameworks / Libraries", set(), ["Frameworks", "Libraries"]),
        ("Go; Rust", set(), ["Go", "Rust"]),
        (" , ", set(), []),
    ],
)
def test_split_skill_label(label, vocabulary, pieces):
    assert split_skill_label(label, frozenset(vocabulary)) == pieces


def test_a_skill_name_past_the_caps_is_cut_at_a_separator_with_one_warning_for_each_kind_of_cut():
    long_names = ", ".join(f"Skill{i:02d}" + "x" * 33 for i in range(30))  # 30 names of 40 characters: 1,258
    many = "/".join(["HTML", "CSS"] * 30)  # 60 known skills, 239 characters
    long_and_many = ", ".join(f"Tool{i:03d}" for i in range(200))  # 1,598 characters, 200 skills
    data = {
        "basics": {"name": "Ada Capped"},
        "skills": [{"name": long_names}, {"name": many}, {"name": "Go"}, {"name": long_and_many}],
    }
    document = parse_jsonresume(json.dumps(data), vocabulary=frozenset({"html", "css"}))

    labels = [skill.label for skill in document.skills]
    # 1,000 characters hold 23 whole names and part of a 24th, which is left out rather than half read.
    assert labels[:23] == [f"Skill{i:02d}" + "x" * 33 for i in range(23)]
    assert labels[23:26] == ["HTML", "CSS", "Go"]  # "HTML/CSS/..." kept 50 pieces, two skills
    assert labels[26:] == [f"Tool{i:03d}" for i in range(50)]
    assert document.warnings == [
        "2 skill names were longer than 1,000 characters; only the first 1,000 of each were read.",
        "2 skill names list more than 50 skills; the first 50 of each were kept.",
    ]


def test_a_skill_name_within_the_caps_gives_no_warning():
    label = ", ".join(f"Skill{i:02d}" for i in range(50))
    document = parse_jsonresume(json.dumps({"basics": {"name": "Ada Fits"}, "skills": [{"name": label}]}))
    assert len(document.skills) == 50
    assert document.warnings == []


def test_level_words_and_numbers_map_by_the_table(document):
    scores = {skill.label: skill.score for skill in document.skills}
    assert scores["Python"] == 9  # Expert
    assert scores["CI/CD"] == 6  # Intermediate
    assert scores["PostgreSQL"] == 3  # Beginner
    assert scores["A/B testing"] == 8  # 75%
    assert scores["Frontend"] == 8  # 4/5


def test_spoken_languages_resolve_with_code_english_name_and_fluency(document):
    """Issue 14: "Japanese – Intermediate" lost its level, "fr" was stored as "fr", "Inglés" as is."""
    assert [(lang.code, lang.name, lang.fluency) for lang in document.languages] == [
        ("ja", "Japanese", LIMITED_WORKING),
        ("fr", "French", ""),
        ("en", "English", NATIVE),
        ("de", "German", NATIVE),  # Muttersprache
        ("it", "Italian", FULL_PROFESSIONAL),  # C1
        ("pt", "Portuguese", NATIVE),  # Langue maternelle
        ("sw", "Swahili", NATIVE),  # bilingual
        ("nl", "Dutch", LIMITED_WORKING),
        ("pl", "Polish", ELEMENTARY),  # A2
    ]
    assert document.spoken_languages == [lang.name for lang in document.languages]
    assert document.languages[0].raw == "Japanese – Intermediate"
    assert document.languages[2].raw == "Inglés (Nativo)"
    assert document.warnings == []


def test_an_unknown_language_is_kept_as_written_with_a_warning():
    languages = [{"language": "Code", "fluency": "Native"}, {"language": "English"}, {"language": "en"}]
    data = {"basics": {"name": "Ada Quill"}, "languages": languages}
    document = parse_jsonresume(json.dumps(data))
    assert [(lang.code, lang.name) for lang in document.languages] == [("", "Code"), ("en", "English")]  # once
    assert document.spoken_languages == ["Code", "English"]
    assert document.warnings == ["languages[0]: 'Code' is not a language we know; kept as written."]


def test_empty_keywords_leave_the_name_a_skill():
    data = {"basics": {"name": "Ada Quill"}, "skills": [{"name": "Go", "level": "Advanced", "keywords": []}]}
    assert [(s.label, s.score, s.category) for s in parse_jsonresume(json.dumps(data)).skills] == [("Go", 8, "")]
