"""The keywords of a post's first line (jobs/criteria/keywords.py): a field's line ("Location: London", "Salary:
60k EUR", "Company: Acme GmbH") or a place's line is no title, and a well-known city in a title is a place, not a
keyword, without the caller's cities. Read with the shipped vocabulary and no cities; no database."""

from __future__ import annotations

import pytest

from jobs.criteria import extract_criteria
from tests.jobs.test_criteria_shipped import shipped

REQUIREMENTS = "\n\nRequirements:\n- Python\n"


def keywords(first_line: str) -> tuple[str, ...]:
    return extract_criteria(first_line + REQUIREMENTS, shipped()).keywords


@pytest.mark.parametrize(
    "line",
    [
        "Location: London, Barcelona",
        "Salary: 60k EUR",
        "Company: Acme GmbH",
        "Contract type: Permanent",
        "Based in Lisbon, Portugal",
        "Barcelona, Spain (hybrid)",
    ],
)
def test_a_fields_or_a_places_line_is_no_title(line):
    assert keywords(line) == ()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Backend Engineer Berlin", ("backend",)),
        ("Senior Data Engineer - Barcelona", ("senior", "data")),
        ("Platform Engineer New York", ("platform",)),
        ("Payments Engineer (Lisbon)", ("payments",)),
    ],
)
def test_a_well_known_city_in_the_title_is_no_keyword(line, expected):
    assert keywords(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Staff Engineer: Payments", ("staff", "payments")),
        ("Job Title: Senior Payments Engineer", ("senior", "payments")),
    ],
)
def test_a_title_with_a_colon_is_still_a_title(line, expected):
    assert keywords(line) == expected


def test_the_place_of_a_location_line_is_still_the_jobs():
    assert extract_criteria("Location: London, Barcelona" + REQUIREMENTS, shipped()).countries == ("GB", "ES")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Senior Software Engineer, Data Platform", ("senior", "data", "platform")),
        ("Software Engineer - Data", ()),  # "- Data" reads as the company's name, as "- Acme" does
        ("Software Developer, Payments", ("payments",)),
        ("Développeur logiciel backend", ("backend",)),
        ("Senior Software Engineer", ("senior",)),
    ],
)
def test_software_says_nothing_of_a_software_engineer(line, expected):
    # Every candidate is a software developer: "software" in a title would give its points to whoever's text has the
    # word, not to who fits the role.
    assert keywords(line) == expected
