import csv
import datetime as dt
import io

import pytest

from profiles.exports import candidate_csv_lines, neutralise, shortlist_csv_lines
from profiles.models import Candidate, ShortlistEntry
from profiles.selectors import shortlist_entries_for_export
from profiles.services import shortlist_add_candidates, shortlist_get_or_create
from tests.factories import CandidateFactory, CandidateSkillFactory, PositionFactory, SkillFactory, UserFactory


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("Ada = Lovelace", "Ada = Lovelace"),
        (7, "7"),
        (None, ""),
    ],
)
def test_cells_a_spreadsheet_would_run_as_formulas_get_a_leading_quote(value, cell):
    assert neutralise(value) == cell


@pytest.mark.parametrize(
    "value",
    [
        "\uff1dHYPERLINK(1)",  # FULLWIDTH EQUALS SIGN: NFKC makes it "="
        "\ufe66SUM(1)",  # SMALL EQUALS SIGN
        "\uff0b1",  # FULLWIDTH PLUS SIGN
        "\ufe632",  # SMALL HYPHEN-MINUS, then 2
        "\uff20SUM(A1)",  # FULLWIDTH COMMERCIAL AT
        "\u200b=cmd",  # a zero-width space (format character, Cf) before "="
        "\ufeff\u2060\u200d+1",  # several format characters: BOM, word joiner, zero-width joiner
        "\u200b\uff1d1",  # both at once
    ],
)
def test_look_alike_formula_starts_get_a_leading_quote_and_keep_their_text(value):
    """Issue 15, hole 13: the guard is checked after NFKC and after format characters (Cf) are stripped; the cell
    keeps its text as it was, behind the quote."""
    assert neutralise(value) == f"'{value}"


@pytest.mark.parametrize("value", ["\u00e9=1", "\u200bAda", "\uff21da", "\u22121"])
def test_text_that_only_looks_unusual_is_left_alone(value):
    assert neutralise(value) == value


def read(lines) -> list[dict]:
    return list(csv.DictReader(io.StringIO("".join(lines))))


@pytest.mark.django_db
def test_candidate_csv_has_one_neutralised_row_per_candidate_with_skills():
    candidate = CandidateFactory(name="=cmd|' /C calc'!A0", company="@evil")
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="python"), score=9)

    [row] = read(candidate_csv_lines(Candidate.objects.all(), url=lambda c: f"https://x/{c.pk}"))

    assert row["name"] == "'=cmd|' /C calc'!A0"
    assert row["company"] == "'@evil"
    assert row["skills"] == "python:9"
    assert row["url"] == f"https://x/{candidate.pk}"


@pytest.mark.django_db
def test_shortlist_csv_lists_status_notes_and_the_candidate():
    shortlist, _ = shortlist_get_or_create(owner=UserFactory(), name="Backend")
    candidate = CandidateFactory(name="Ada Quill")
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="go"), score=8)
    shortlist_add_candidates(shortlist=shortlist, candidate_ids=[candidate.pk])
    ShortlistEntry.objects.update(status="contacted", notes="-called twice")

    [row] = read(shortlist_csv_lines(shortlist_entries_for_export(shortlists=[shortlist]), url=lambda c: "u"))

    assert (row["shortlist"], row["status"], row["notes"]) == ("Backend", "Contacted", "'-called twice")
    assert (row["name"], row["skills"]) == ("Ada Quill", "go:8")


@pytest.mark.django_db
def test_candidate_csv_names_current_and_previous_companies_newest_first_each_once():
    """Issue 14: exports gain the work history's companies. Current: the open-ended jobs; previous: the ended ones,
    less the companies the person works at now; a company once per cell, however often (or however cased) listed."""
    candidate = CandidateFactory(company="Northwind Labs")
    jobs = [
        ("Salina Bikes", dt.date(2019, 6, 1), None),
        ("Northwind Labs", dt.date(2021, 3, 1), None),
        ("Trattoria Digitale", dt.date(2014, 6, 1), dt.date(2014, 9, 1)),
        ("Lanternfish GmbH", dt.date(2017, 1, 1), dt.date(2021, 2, 1)),
        ("LANTERNFISH GMBH", dt.date(2015, 1, 1), dt.date(2016, 12, 1)),
        ("Northwind Labs", dt.date(2020, 1, 1), dt.date(2021, 2, 1)),  # promoted: still current there
        ("", dt.date(2013, 1, 1), dt.date(2013, 6, 1)),
    ]
    for company, start, end in jobs:
        PositionFactory(candidate=candidate, company=company, start=start, end=end)
    CandidateFactory(name="No jobs")

    rows = read(candidate_csv_lines(Candidate.objects.order_by("id"), url=lambda c: "u"))

    assert (rows[0]["current_companies"], rows[0]["previous_companies"]) == (
        "Northwind Labs; Salina Bikes",
        "Lanternfish GmbH; Trattoria Digitale",
    )
    assert (rows[1]["current_companies"], rows[1]["previous_companies"]) == ("", "")
    assert list(rows[0])[4:7] == ["company", "current_companies", "previous_companies"]


@pytest.mark.django_db
def test_company_cells_are_neutralised_like_every_other_cell():
    candidate = CandidateFactory()
    PositionFactory(candidate=candidate, company="=HYPERLINK(1)")
    PositionFactory(candidate=candidate, company="\uff0bplus", end=dt.date(2021, 1, 1))

    [row] = read(candidate_csv_lines(Candidate.objects.all(), url=lambda c: "u"))

    assert (row["current_companies"], row["previous_companies"]) == ("'=HYPERLINK(1)", "'\uff0bplus")


@pytest.mark.django_db
def test_the_companies_take_one_query_per_chunk_not_one_per_candidate(django_assert_num_queries):
    for n in range(30):
        PositionFactory(candidate=CandidateFactory(), company=f"Company {n}")

    with django_assert_num_queries(3):  # the candidates, their skills, their jobs
        rows = read(candidate_csv_lines(Candidate.objects.all(), url=lambda c: "u"))

    assert len({row["current_companies"] for row in rows}) == 30


@pytest.mark.django_db
def test_shortlist_csv_has_the_email_and_phone_columns_only_for_a_reader_who_may_see_contact_details():
    shortlist, _ = shortlist_get_or_create(owner=UserFactory(), name="Backend")
    candidate = CandidateFactory(name="Ada Quill", email="ada@example.com", phone="+1 555 010 0199")
    shortlist_add_candidates(shortlist=shortlist, candidate_ids=[candidate.pk])
    entries = shortlist_entries_for_export(shortlists=[shortlist])

    [shown] = read(shortlist_csv_lines(entries, url=lambda c: "u", contacts=True))
    [plain] = read(shortlist_csv_lines(entries, url=lambda c: "u"))

    assert (shown["email"], shown["phone"]) == ("ada@example.com", "'+1 555 010 0199")  # "+" starts a formula
    assert "email" not in plain
    assert "phone" not in plain
    assert plain["name"] == "Ada Quill"
