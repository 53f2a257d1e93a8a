"""Spoken languages (issue 14): which language a file names, in English, and how well, on one scale."""

import pytest

from core.languages import (
    ELEMENTARY,
    FLUENCY_LEVELS,
    FULL_PROFESSIONAL,
    LIMITED_WORKING,
    NATIVE,
    PROFESSIONAL_WORKING,
    SpokenLanguage,
    fluency_level,
    is_language_name,
    read_spoken_language,
    resolve_language,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fr", ("fr", "French")),  # issue 14: '"language": "fr"' was stored as "fr"
        ("Inglés", ("en", "English")),  # issue 14: stored as is, so a search for English missed her
        ("English", ("en", "English")),
        ("Français", ("fr", "French")),
        ("Deutsch", ("de", "German")),
        ("日本語", ("ja", "Japanese")),
        ("英語", ("en", "English")),
        ("Hindi", ("hi", "Hindi")),  # an English name the all-languages index leaves out
        ("pt_BR", ("pt", "Portuguese")),
        ("Eng", ("en", "English")),
        ("Cantonese", ("yue", "Cantonese")),  # ISO 639-3 when there is no 639-1 code
        ("Bengali", ("bn", "Bengali")),  # not CLDR's "Bangla"
        ("Farsi", ("fa", "Persian")),
        ("Japanese language", ("ja", "Japanese")),
    ],
)
def test_resolve_language_by_code_or_name_in_any_language(text, expected):
    assert resolve_language(text) == expected


@pytest.mark.parametrize("text", ["Code", "JavaScript", "Bilingual", "Native", "xx", "", "C1"])
def test_resolve_language_refuses_what_is_no_language(text):
    """language-data matches a name by its first letters: "JavaScript" is not Javanese, "Bilingual" not Blin."""
    assert resolve_language(text) is None


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("Native speaker", NATIVE),
        ("Native or bilingual proficiency", NATIVE),
        ("bilingual", NATIVE),
        ("Langue maternelle", NATIVE),
        ("Muttersprache", NATIVE),
        ("Nativo", NATIVE),
        ("母国語", NATIVE),
        ("C2", FULL_PROFESSIONAL),
        ("C1", FULL_PROFESSIONAL),
        ("fluent", FULL_PROFESSIONAL),
        ("Full professional proficiency", FULL_PROFESSIONAL),
        ("Advanced", FULL_PROFESSIONAL),
        ("fließend", FULL_PROFESSIONAL),
        ("Professional", PROFESSIONAL_WORKING),
        ("Professional working proficiency", PROFESSIONAL_WORKING),
        ("B2", PROFESSIONAL_WORKING),
        ("ビジネスレベル", PROFESSIONAL_WORKING),
        ("Intermediate", LIMITED_WORKING),
        ("Limited working proficiency", LIMITED_WORKING),
        ("conversational", LIMITED_WORKING),
        ("B1", LIMITED_WORKING),
        ("中級", LIMITED_WORKING),
        ("Elementary", ELEMENTARY),
        ("Beginner", ELEMENTARY),
        ("A2", ELEMENTARY),
        ("Grundkenntnisse", ELEMENTARY),
        ("Working proficiency (C1)", PROFESSIONAL_WORKING),  # the words come first
        ("", ""),
        ("Wizard", ""),
        ("affairs", ""),  # whole words only: not "fair"
    ],
)
def test_fluency_words_map_onto_one_scale(text, level):
    assert fluency_level(text) == level
    assert level == "" or level in FLUENCY_LEVELS


def test_the_scale_runs_from_native_down():
    assert FLUENCY_LEVELS == (NATIVE, FULL_PROFESSIONAL, PROFESSIONAL_WORKING, LIMITED_WORKING, ELEMENTARY)


@pytest.mark.parametrize(
    ("language", "fluency", "expected"),
    [
        # issue 14: "Japanese – Intermediate" was stored as "Japanese", the level lost
        ("Japanese – Intermediate", "", SpokenLanguage("ja", "Japanese", LIMITED_WORKING)),
        ("English (fluent)", "", SpokenLanguage("en", "English", FULL_PROFESSIONAL)),
        ("German: B2", "", SpokenLanguage("de", "German", PROFESSIONAL_WORKING)),
        ("English fluent", "", SpokenLanguage("en", "English", FULL_PROFESSIONAL)),
        ("Native English", "", SpokenLanguage("en", "English", NATIVE)),
        ("Muttersprache: Deutsch", "", SpokenLanguage("de", "German", NATIVE)),
        ("Français", "Langue maternelle", SpokenLanguage("fr", "French", NATIVE)),
        ("Spanish", "Wizard", SpokenLanguage("es", "Spanish", "")),
        ("Code", "Native", SpokenLanguage("", "Code", NATIVE)),  # no language: kept as written
    ],
)
def test_read_spoken_language(language, fluency, expected):
    assert read_spoken_language(language, fluency) == expected


def test_read_spoken_language_of_nothing():
    assert read_spoken_language("", "Native") is None
    assert read_spoken_language(None) is None  # type: ignore[arg-type]


def test_is_language_name_stays_strict():
    assert is_language_name("Finnish")
    assert not is_language_name("Inglés")  # the Prog.AI export writes English names; a line of others is not one
