"""A CV's skill scores by recency: a position counts as recent when it is current or ended near the import day (the
registry gives it), not near the CV's own newest date, so a skill named only in an old job scores below one named in
the current job; and the skills section's scores stay as they were."""

import datetime as dt

import pytest

from devtools.cvs import FictionalCv, cv_plain_text
from ingestion.parsers import parse
from ingestion.parsers.cv import parse_cv
from ingestion.parsers.cv.skills import LISTED_SCORE, MENTION_SCORE

IMPORT_DAY = dt.date(2026, 12, 2)
VOCABULARY = frozenset({"kotlin", "swift", "java", "firebase", "rust"})


def career(now_word: str, skills: list[str]) -> FictionalCv:
    """An invented mobile developer: Kotlin in the current job, Swift, Java and Firebase only in a 2016-2020 job."""
    return FictionalCv(
        name="Oskar Fenwright",
        contacts=["oskar.fenwright@example.org"],
        sections=[
            (
                "Experience",
                [
                    "Senior Android Developer — Harrowgate Mobile",
                    f"Mar 2021 – {now_word}",
                    "Rewrote the booking app in Kotlin.",
                    "",
                    "Mobile Developer — Pebblecombe Apps",
                    "2016-2020",
                    "Built the iOS app in Swift and the Android one in Java, with Firebase behind both.",
                    "",
                ],
            ),
            ("Skills", [", ".join(skills)] if skills else []),
        ],
    )


@pytest.mark.parametrize("now_word", ["Present", "heute", "oggi", "actualidad"])
@pytest.mark.parametrize(
    ("listed", "base"),
    [(["Kotlin", "Swift", "Java", "Firebase"], LISTED_SCORE), ([], MENTION_SCORE)],
    ids=["listed", "mentioned"],
)
def test_a_skill_only_in_an_old_job_scores_below_one_in_the_current_job(now_word, listed, base):
    text = cv_plain_text(career(now_word, listed))

    scores = {s.label: s.score for s in parse_cv(text, vocabulary=VOCABULARY, today=IMPORT_DAY).skills}

    # Kotlin: the current job, which ends on the import day (+2). Swift, Java, Firebase: a job that ended six years
    # before the import day (+0), though it ended three months before the CV's newest date (the current job's start).
    assert scores == {"Kotlin": base + 2, "Swift": base, "Java": base, "Firebase": base}


@pytest.mark.parametrize(
    ("ended", "bonus"),
    [("2025", 2), ("2024", 1), ("2022", 1), ("2021", 0), ("2019", 0)],
)
def test_recency_is_counted_back_from_the_import_day(ended, bonus):
    cv = FictionalCv(
        name="Henrike Mospach",
        contacts=["henrike.mospach@example.org"],
        sections=[
            ("Experience", ["Backend Developer — Saltmarsh Freight", f"2015-{ended}", "Wrote the router in Rust.", ""]),
            ("Skills", ["Rust, Kotlin"]),
        ],
    )

    scores = {s.label: s.score for s in parse_cv(cv_plain_text(cv), vocabulary=VOCABULARY, today=IMPORT_DAY).skills}

    # An end year alone is its January, as stored: Jan 2025 is 23 months before Dec 2026, Jan 2024 35, Jan 2022 59.
    assert scores == {"Rust": LISTED_SCORE + bonus, "Kotlin": LISTED_SCORE}


def test_the_registry_scores_by_the_import_day_it_is_given():
    data = cv_plain_text(career("Present", [])).encode()

    scores = {s.label: s.score for s in parse(data, vocabulary=VOCABULARY, today=IMPORT_DAY).skills}

    assert scores["Kotlin"] > scores["Swift"] == MENTION_SCORE


@pytest.mark.parametrize("today", [None, IMPORT_DAY])
def test_a_skills_section_alone_keeps_its_scores(today):
    cv = FictionalCv(
        name="Ludovica Fenaroli",
        contacts=["ludovica.fenaroli@example.org"],
        sections=[
            ("Experience", ["Developer — Mistral Bay", "2019 – Present", "Looked after the shop.", ""]),
            ("Skills", ["Kotlin, Swift, Rust"]),
        ],
    )

    document = parse_cv(cv_plain_text(cv), vocabulary=VOCABULARY, today=today)

    assert [(s.label, s.score) for s in document.skills] == [("Kotlin", 5), ("Swift", 5), ("Rust", 5)]
