"""Sections the language CVs do not carry: a projects section, by its heading in each of the six languages, is a
section of its own (its dated lines are no positions) and counts as one of a CV's headings."""

import pytest

from ingestion.parsers import detect_format
from ingestion.parsers.cv import parse_cv

PROJECTS_HEADINGS = ["Projects", "Projekte", "Projets personnels", "Proyectos", "Projetos", "Progetti"]


@pytest.mark.parametrize("heading", PROJECTS_HEADINGS)
def test_a_projects_section_in_each_language_holds_no_positions(heading):
    text = "\n".join(
        [
            "Ilvy Marchetti",
            "ilvy.marchetti@example.org",
            "",
            "Experience",
            "Backend Engineer, Brumeval GmbH",
            "2019 - 2023",
            "",
            heading,
            "Lanternfish, a tide-table app",
            "2021 - 2022",
            "",
            "Skills",
            "Go",
        ]
    )

    document = parse_cv(text)

    assert [(p.title, p.company, p.start, p.end) for p in document.positions] == [
        ("Backend Engineer", "Brumeval GmbH", "2019-01", "2023-01")
    ]
    assert [skill.label for skill in document.skills] == ["Go"]


@pytest.mark.parametrize("heading", PROJECTS_HEADINGS)
def test_a_projects_heading_counts_as_one_of_a_text_cvs_two_headings(heading):
    text = f"Ilvy Marchetti\n\n{heading.upper()}\nLanternfish, a tide-table app\n\nSkills\nGo, Rust\n"
    assert detect_format(text.encode()) == "cv"
    assert detect_format(f"Ilvy Marchetti\n\n{heading}\nLanternfish, a tide-table app\n".encode()) == "unknown"
