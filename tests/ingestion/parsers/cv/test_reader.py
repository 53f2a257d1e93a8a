"""The CV reader, on one fictional CV laid out every way a CV comes: a one- and a two-column PDF, a DOCX with
paragraphs and one with tables, a text file and a Markdown file. Each parsed field is asserted."""

import dataclasses

import pytest

from devtools.cvs import FictionalCv, cv_docx, cv_pdf, cv_plain_text, sample_cv
from ingestion.documents import EducationEntry, Location, ParseError
from ingestion.parsers import detect_format, parse
from ingestion.parsers.cv import NOT_A_CV_MESSAGE, parse_cv

LAYOUTS = {
    "pdf": lambda cv: cv_pdf(cv),
    "pdf-two-columns": lambda cv: cv_pdf(cv, columns=2),
    "docx": lambda cv: cv_docx(cv),
    "docx-tables": lambda cv: cv_docx(cv, tables=("Experience", "Education")),
    "text": lambda cv: cv_plain_text(cv).encode(),
    "markdown": lambda cv: cv_plain_text(cv, markdown=True).encode(),
}
VOCABULARY = frozenset({"python", "kafka", "kubernetes", "postgresql", "terraform", "team", "release", "routing"})


@pytest.fixture(params=sorted(LAYOUTS), scope="module")
def document(request):
    data = LAYOUTS[request.param](sample_cv())
    assert detect_format(data) == "cv"
    return parse(data, vocabulary=VOCABULARY)


def test_the_header(document):
    assert document.format == "cv"
    assert document.name == "Maelis Duvernoy"
    assert document.headline == "Staff Software Engineer — distributed systems"
    assert document.email == "maelis.duvernoy@example.org"
    assert document.phone == "+33 6 12 34 56 78"
    assert document.location == Location(city="Lyon", country="France", country_code="FR")
    assert document.summary == "Backend engineer who likes queues, databases and quiet on-call rotations."


def test_the_links_are_identifiers(document):
    assert document.identifiers.github == "maelisdv"
    assert document.identifiers.linkedin == "maelis-duvernoy"
    assert document.identifiers.email == "maelis.duvernoy@example.org"


def test_each_position_with_its_dates(document):
    rows = [(p.title, p.company, p.start, p.end, p.is_current) for p in document.positions]
    assert rows == [
        ("Staff Software Engineer", "Quillfeather Analytics", "2021-03", None, True),
        ("Senior Backend Developer", "Brambleworth Logistics GmbH", "2017-04", "2021-02", False),
        ("Software Engineer", "Tinderbox Labs", "2014-01", "2017-03", False),
        ("Junior Developer", "Oakhollow Systems", "2012-01", "2013-01", False),
    ]
    assert (document.title, document.company) == ("Staff Software Engineer", "Quillfeather Analytics")
    first = document.positions[0]
    assert first.highlights[0] == "Built the event pipeline in Python and Kafka, moved the services onto Kubernetes."
    assert len(first.highlights) == 8


def test_education(document):
    assert document.education == [
        EducationEntry(
            degree="MSc", field="Computer Science", school="Université Lumière Lyon 2", start="2009", end="2011"
        )
    ]


@pytest.mark.parametrize(
    ("dates", "start", "end"),
    [
        ("2009 – 2013", "2009", "2013"),
        ("09/2009 – 06/2013", "2009-09", "2013-06"),
        ("Sep 2009 – 2013", "2009-09", "2013"),
        ("Abschluss 2013", None, "2013"),
    ],
)
def test_an_educations_dates_keep_their_precision_a_year_alone_stays_a_year(dates, start, end):
    text = f"Ilvy Marchetti\nilvy@example.org\n\nEDUCATION\nUniversità di Valtorre\nLaurea in Informatica\n{dates}\n"

    (education,) = parse_cv(text).education

    assert (education.start, education.end) == (start, end)


def test_spoken_languages_with_codes_and_levels(document):
    rows = [(language.code, language.name, language.fluency) for language in document.languages]
    assert rows == [
        ("fr", "French", "native"),
        ("en", "English", "full_professional"),
        ("de", "German", "limited_working"),
    ]
    assert document.spoken_languages == ["French", "English", "German"]


def test_listed_skills_then_mentions_scored_by_section_and_recency(document):
    scores = {skill.label: skill.score for skill in document.skills}
    # Listed: 5, plus 2 for a skill the current position names. Not named in any position: 5.
    assert scores == {
        "Python": 7,
        "Go": 5,
        "PostgreSQL": 7,
        "Kafka": 7,
        "Kubernetes": 7,
        "Terraform": 7,
        "Redis": 5,
    }
    assert "team" not in {skill.label.casefold() for skill in document.skills}  # a common word is no mention


def test_a_technology_only_named_in_a_position_is_a_mention_scored_below_every_listed_skill():
    cv = FictionalCv(
        name="Oskar Fenwright",
        contacts=["oskar.fenwright@example.com"],
        sections=[
            (
                "Experience",
                [
                    "Platform Engineer — Lanternfield Ltd",
                    "Jan 2022 – Present",
                    "Ran the clusters on Kubernetes and wrote the tooling in Go.",
                    "",
                    "Developer — Copperbeech Studio",
                    "2012 – 2015",
                    "Wrote the billing service with Terraform and Python scripts.",
                    "",
                ],
            ),
            ("Skills", ["Go, Rust"]),
        ],
    )
    document = parse_cv(cv_plain_text(cv), vocabulary=frozenset({"kubernetes", "terraform", "python", "go"}))
    scores = {skill.label: skill.score for skill in document.skills}
    # Go: listed (5) and named in the current position (+2). Rust: listed, never named (5).
    # Kubernetes: a mention (2) in the current position (+2). Terraform, Python: mentions in a job that ended more
    # than five years before the CV's newest date (+0).
    assert scores == {"Go": 7, "Rust": 5, "Kubernetes": 4, "Terraform": 2, "Python": 2}
    assert max(score for label, score in scores.items() if label in ("Kubernetes", "Terraform", "Python")) < min(
        scores["Go"], scores["Rust"]
    )


def test_a_cv_without_headings_is_read_by_its_layout():
    text = "\n".join(
        [
            "Idris Calloway-Penn",
            "idris.calloway@example.net | +44 7700 900123",
            "",
            "Data Engineer, Hollowmere Insights",
            "Feb 2019 - Present",
            "Pipelines for the retail team.",
            "",
            "Analyst, Stonebridge Partners",
            "2015 - 2019",
            "Reports and dashboards.",
            "",
            "University of Ashcombe",
            "BSc Mathematics",
            "2011 - 2015",
        ]
    )
    document = parse_cv(text)
    assert document.name == "Idris Calloway-Penn"
    assert document.phone == "+44 7700 900123"
    assert [(p.title, p.company, p.start, p.is_current) for p in document.positions] == [
        ("Data Engineer", "Hollowmere Insights", "2019-02", True),
        ("Analyst", "Stonebridge Partners", "2015-01", False),
    ]
    assert [(e.school, e.degree, e.field) for e in document.education] == [
        ("University of Ashcombe", "BSc", "Mathematics")
    ]


def test_a_text_that_is_no_cv_is_refused():
    invoice = "\n".join(
        [
            "Gullwing Printing Co.",
            "INVOICE 2024-0117",
            "Bill to: Ferncastle Books",
            "Billing period 01/2024 - 02/2024",
            "Posters (A2), 40 pcs      EUR 320.00",
            "Total due                 EUR 320.00",
        ]
    )
    with pytest.raises(ParseError, match="does not read as a CV"):
        parse_cv(invoice)
    with pytest.raises(ParseError) as refused:
        parse(cv_pdf(FictionalCv(name="Gullwing Printing Co.", contacts=invoice.split("\n")[1:])))
    assert str(refused.value) == NOT_A_CV_MESSAGE


def test_a_position_that_ends_before_it_starts_is_kept_with_a_warning():
    cv = FictionalCv(
        name="Oskar Fenwright",
        sections=[("Experience", ["Platform Engineer — Lanternfield Ltd", "2021 – 2019", ""]), ("Skills", ["Go"])],
    )
    document = parse_cv(cv_plain_text(cv))
    assert (document.positions[0].start, document.positions[0].end) == ("2021-01", "2019-01")
    assert document.warnings == [
        "Position 1 (Platform Engineer): starts (2021-01) after it ends (2019-01); stored the other way round."
    ]


def test_a_cv_of_skills_and_languages_alone_is_read():
    cv = FictionalCv(
        name="Tamsin Quill",
        contacts=["tamsin.quill@example.org"],
        sections=[("Skills", ["Go, Rust"]), ("Languages", ["English — native", "Welsh — B2"])],
    )
    document = parse_cv(cv_plain_text(cv))
    assert [skill.label for skill in document.skills] == ["Go", "Rust"]
    assert [language.code for language in document.languages] == ["en", "cy"]
    assert document.warnings == ["No positions with dates were found in this CV: check its Experience section."]


@pytest.mark.parametrize("title", ["Curriculum Vitae", "RÉSUMÉ", "Lebenslauf"])
def test_a_title_over_the_name_is_neither_the_name_nor_a_summary(title):
    text = f"{title}\n" + cv_plain_text(sample_cv())
    document = parse_cv(text)
    assert document.name == "Maelis Duvernoy"
    assert document.summary.startswith("Backend engineer")


def test_the_phone_and_place_of_a_contact_section():
    cv = FictionalCv(
        name="Tamsin Quill",
        sections=[
            ("Contact", ["tamsin.quill@example.org", "+44 7700 900456", "Cardiff, United Kingdom"]),
            ("Skills", ["Go"]),
        ],
    )
    document = parse(cv_pdf(cv))
    assert (document.email, document.phone) == ("tamsin.quill@example.org", "+44 7700 900456")
    assert (document.location.city, document.location.country_code) == ("Cardiff", "GB")


def test_a_summary_paragraph_wrapped_over_lines_reads_as_one_and_keeps_its_paragraphs_and_bullets():
    text = "\n".join(
        [
            "Ilvy Marchetti",
            "ilvy@example.org",
            "",
            "SUMMARY",
            "Staff engineer with ten years of building payment systems",
            "Python, Go and Kafka are my daily tools. I mentor",
            "Juniors.",
            "",
            "Looking for a remote role.",
            "- Led the Lanternfish rewrite",
            "- Cut the cloud bill by a third, moving the batch jobs",
            "Onto spot instances",
            "",
            "EXPERIENCE",
            "Software Engineer — Globex",
            "2016 - 2020",
            "",
        ]
    )

    document = parse_cv(text)

    assert document.summary == (
        "Staff engineer with ten years of building payment systems Python, Go and Kafka are my daily tools. I mentor "
        "Juniors.\n\n"
        "Looking for a remote role.\n"
        "• Led the Lanternfish rewrite\n"
        "• Cut the cloud bill by a third, moving the batch jobs Onto spot instances"
    )


def test_a_pdf_cv_summary_wrapped_by_its_column_is_one_paragraph():
    summary = (
        "Backend engineer who has spent twelve years building queues Databases Kafka clusters and the quiet "
        "on-call rotations Globex engineers still talk about"
    )
    cv = dataclasses.replace(sample_cv(), sections=[("Summary", [summary]), *sample_cv().sections[1:]])

    document = parse(cv_pdf(cv, columns=2))

    assert document.summary == summary
