"""A CV states no years of experience: they are read from its dated positions, the day of the import ending the
current ones (the parser is given it, it reads no clock)."""

import datetime as dt

import pytest

from devtools.cvs import cv_pdf, sample_cv
from ingestion.parsers import parse
from ingestion.parsers.cv import parse_cv

TODAY = dt.date(2025, 6, 15)


def _cv(*positions: tuple[str, str]) -> str:
    lines = ["Ilvy Marchetti", "ilvy@example.org", "", "EXPERIENCE", ""]
    for title_company, dates in positions:
        lines += [title_company, dates, "Did the work.", ""]
    return "\n".join([*lines, "SKILLS", "Python, Go"]) + "\n"


def test_years_employed_are_the_union_of_the_positions_with_overlaps_counted_once():
    text = _cv(
        ("Backend Developer — Globex", "Jan 2015 – Dec 2018"),
        ("Freelance Developer — Self-employed", "Jan 2017 – Dec 2019"),  # overlaps two years of the one above
        ("Software Engineer — Initech", "Jan 2021 – Dec 2022"),  # after a gap of a year
    )

    document = parse_cv(text, today=TODAY)

    assert (document.years_employed, document.years_coding) == (7, 7)  # 60 + 24 months


def test_a_current_position_runs_to_the_day_of_the_import():
    text = _cv(("Software Engineer — Globex", "Mar 2021 – Present"), ("Developer — Initech", "2016 - 2020"))

    assert parse_cv(text, today=TODAY).years_employed == 8  # Jan 2016 – Jan 2020 and Mar 2021 – Jun 2025
    assert parse_cv(text, today=dt.date(2027, 6, 1)).years_employed == 10


def test_years_coding_count_only_the_software_positions():
    text = _cv(
        ("Software Engineer — Globex", "Jan 2019 – Dec 2022"),
        ("Sales Manager — Initech", "Jan 2010 – Dec 2018"),
        ("Civil Engineer — Bridgeworks", "Jan 2005 – Dec 2009"),
    )

    document = parse_cv(text, today=TODAY)

    assert (document.years_employed, document.years_coding) == (18, 4)


def test_no_software_position_states_no_years_coding_and_no_dated_position_no_years():
    sales = parse_cv(_cv(("Account Manager — Initech", "Jan 2010 – Dec 2018")), today=TODAY)
    undated = parse_cv(_cv(("Software Engineer — Globex", "")), today=TODAY)

    assert (sales.years_employed, sales.years_coding) == (9, None)
    assert (undated.years_employed, undated.years_coding) == (None, None)


def test_without_the_day_of_the_import_the_parser_states_no_years():
    assert parse_cv(_cv(("Software Engineer — Globex", "2016 - 2020"))).years_employed is None


@pytest.mark.parametrize(
    "title",
    ["Senior Entwicklerin", "Développeuse backend", "Desarrollador", "Sviluppatore Java", "DevOps Engineer", "SRE"],
)
def test_software_titles_in_each_language_count_as_coding(title):
    document = parse_cv(_cv((f"{title} — Globex", "2016 - 2020")), today=TODAY)

    assert document.years_coding == 4


def test_the_registry_hands_a_pdf_cv_the_day_it_is_given():
    document = parse(cv_pdf(sample_cv()), today=TODAY)

    # Mar 2021 – Jun 2025, Apr 2017 – Feb 2021, Jan 2014 – Mar 2017, Jan 2012 – Jan 2013: all software positions.
    assert (document.years_employed, document.years_coding) == (12, 12)


@pytest.mark.parametrize(
    "title",
    [
        "Business Development Manager",
        "Programme Manager",
        "Program Manager",
        "Property Developer",
        "Landscape Architect",
        "Software Sales Manager",
        "Mobile Sales Representative",
        "Business Developer",
        "Leiter Geschäftsentwicklung",
        "Vertriebsleiter Software",
        "Projektentwickler Immobilien",
        "Landschaftsarchitektin",
        "Chargée de développement commercial",
        "Architecte paysagiste",
        "Responsable des ventes logiciels",
        "Desarrollador de negocios",
        "Arquitecto paisajista",
        "Gerente de ventas de software",
        "Desenvolvedor de negócios",
        "Gerente de vendas de software",
        "Responsabile sviluppo commerciale",
        "Architetto paesaggista",
    ],
)
def test_business_sales_property_landscape_and_programme_titles_are_no_coding(title):
    document = parse_cv(_cv((f"{title} — Globex", "2016 - 2020")), today=TODAY)

    assert (document.years_employed, document.years_coding) == (4, None)


@pytest.mark.parametrize(
    "title",
    [
        "Software Architect",
        "Solutions Architect",
        "Mobile Developer",
        "Programmer",
        "Programmeur",
        "Business Intelligence Developer",
        "Software Development Manager",
        "Développeur web",
        "Programmatore",
    ],
)
def test_software_titles_with_words_the_exclusions_share_still_count_as_coding(title):
    assert parse_cv(_cv((f"{title} — Globex", "2016 - 2020")), today=TODAY).years_coding == 4


@pytest.mark.parametrize(
    ("dates", "years"),
    [
        ("2020 - 2030", 5),  # counted to the day of the import: Jan 2020 – Jun 2025
        ("Jan 2024 - Dec 2099", 1),
        ("2030 - 2035", None),  # not started yet
        ("1900 - 2099", None),  # no career starts before 1950
        ("1900 - 2020", None),
        ("2020 - 1900", None),
        ("1950 - 1960", 10),
    ],
)
def test_each_range_counts_only_up_to_the_day_of_the_import_and_from_a_plausible_start(dates, years):
    document = parse_cv(_cv(("Software Engineer — Globex", dates)), today=TODAY)

    assert (document.years_employed, document.years_coding) == (years, years)
