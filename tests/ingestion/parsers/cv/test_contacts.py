"""The candidate's own contact details: taken from the CV's header and contact section only (an address under
References is a referee's), and a phone number that is no birth date and no ID number."""

import io
import zipfile

import pytest

from ingestion.parsers import parse
from ingestion.parsers.cv import parse_cv
from ingestion.parsers.cv.contacts import ELSEWHERE_EMAIL_WARNING, ELSEWHERE_PHONE_WARNING

BODY = """
Experience
Senior Engineer, Brumeval GmbH
2019 - 2023
Built Python services with my manager.

Education
BSc Computer Science, Hochschule Elsterbrück, 2012 - 2016
"""


def _cv(header: str, tail: str = "") -> str:
    return f"Ilvy Marchetti\nBackend Engineer\n{header}\n{BODY}{tail}"


def test_a_referees_address_is_neither_the_candidates_e_mail_nor_an_identifier():
    references = (
        "\nReferences\nOswin Tarrow, CTO at Brumeval: oswin.tarrow@example.com, Tel. +49 30 5550 1234\n"
        "github.com/oswintarrow\n"
    )
    document = parse_cv(_cv("Leipzig, Germany", references))

    assert document.email == ""
    assert document.identifiers.email == ""
    assert document.identifiers.github == ""
    assert document.phone == ""
    assert ELSEWHERE_EMAIL_WARNING in document.warnings
    assert ELSEWHERE_PHONE_WARNING in document.warnings


def test_the_headers_address_is_taken_and_a_referees_left_alone():
    references = "\nReferences\nOswin Tarrow: oswin.tarrow@example.com · github.com/oswintarrow\n"
    document = parse_cv(_cv("ilvy.marchetti@example.org · github.com/ilvym", references))

    assert document.identifiers.email == "ilvy.marchetti@example.org"
    assert document.identifiers.github == "ilvym"
    assert document.warnings == []


def test_the_contact_sections_address_is_the_candidates():
    document = parse_cv(_cv("Leipzig, Germany", "\nContact\nilvy.marchetti@example.org\nMobil: +49 170 5550199\n"))

    assert (document.email, document.phone) == ("ilvy.marchetti@example.org", "+49 170 5550199")


@pytest.mark.parametrize(
    "line",
    [
        "Geburtsdatum: 12.03.1990",
        "Date of birth: 1990-03-12",
        "Berlin, 12.03.2024",
        "Matrikelnummer 123456789",
        "Née le 12/03/1990",
        "Fecha de nacimiento: 12-03-1990",
        "Personalausweis-Nr. 123456789",
        "DOB 12.03.1990",
        "ID 2019-2023-4471",
    ],
)
def test_a_birth_date_or_an_id_number_is_no_phone_number(line):
    document = parse_cv(_cv(f"ilvy.marchetti@example.org\n{line}"))

    assert document.phone == ""
    assert document.headline == "Backend Engineer"


@pytest.mark.parametrize(
    "lines",
    [
        "Geburtsdatum: 12.03.1990 · Telefon: +49 170 5550199",
        "Matrikelnummer 123456789\nHandy: +49 170 5550199",
        "0341 55501 9876 00\nTel.: +49 170 5550199",
        "Date of birth: 1990-03-12 | Phone: +49 170 5550199",
        "Teléfono: +49 170 5550199",
    ],
)
def test_a_number_labelled_as_the_phone_is_the_phone(lines):
    assert parse_cv(_cv(lines)).phone == "+49 170 5550199"


def _docx_with_links(paragraphs: list[tuple[str, str]]) -> bytes:
    """A DOCX whose paragraphs are (text, link target), a link shown as its text alone."""
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    r = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    body, relationships = [], []
    for index, (text, target) in enumerate(paragraphs):
        run = f"<w:r><w:t>{text}</w:t></w:r>"
        if target:
            relationships.append(
                f'<Relationship Id="rId{index + 10}" Type="{r}/hyperlink" Target="{target}" TargetMode="External"/>'
            )
            run = f'<w:hyperlink r:id="rId{index + 10}">{run}</w:hyperlink>'
        body.append(f"<w:p>{run}</w:p>")
    document = f'<w:document xmlns:w="{w}" xmlns:r="{r}"><w:body>{"".join(body)}</w:body></w:document>'
    rels = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        + "".join(relationships)
        + "</Relationships>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", document)
        archive.writestr("word/_rels/document.xml.rels", rels)
    return out.getvalue()


def test_a_docx_link_shown_as_a_word_is_the_candidates_in_the_header_and_not_under_references():
    paragraphs = [
        ("Ilvy Marchetti", ""),
        ("Backend Engineer", ""),
        ("LinkedIn", "https://www.linkedin.com/in/ilvy-marchetti"),
        ("", ""),
        *((line, "") for line in BODY.strip().split("\n")),
        ("References", ""),
        ("Oswin Tarrow, CTO", ""),
        ("GitHub", "https://github.com/oswintarrow"),
        ("E-mail", "mailto:oswin.tarrow@example.com"),
    ]
    document = parse(_docx_with_links(paragraphs))

    assert document.identifiers.linkedin == "ilvy-marchetti"
    assert document.identifiers.github == ""
    assert document.email == ""
