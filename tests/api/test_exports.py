"""GET /api/v1/candidates/export.csv and export.jsonl: the list's filters, streamed, safe in a spreadsheet."""

import csv
import io
import json

import pytest
from django.urls import reverse

from profiles.exports import neutralise
from profiles.models import Skill
from tests.factories import CandidateFactory, CandidateSkillFactory, ContributionFactory, EducationFactory

pytestmark = pytest.mark.django_db
CSV_URL = reverse("api:candidate-export-csv")
JSONL_URL = reverse("api:candidate-export-jsonl")


def csv_rows(response) -> list[dict]:
    assert response.status_code == 200
    assert response.streaming
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://evil")', '\'=HYPERLINK("http://evil")'),
        ("+1 555", "'+1 555"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTabbed", "'\tTabbed"),
        ("\rReturn", "'\rReturn"),
        ("Plain = fine", "Plain = fine"),
        ("", ""),
        (None, ""),
        (12, "12"),
    ],
)
def test_cells_that_a_spreadsheet_would_run_are_neutralised(value, cell):
    assert neutralise(value) == cell


def test_csv_export_neutralises_formula_cells_in_every_column(api):
    CandidateFactory(name="=cmd|' /C calc'!A0", company="@evil", title="-Engineer", headline="+x", city="\tBerlin")

    [row] = csv_rows(api.get(CSV_URL))

    assert row["name"] == "'=cmd|' /C calc'!A0"
    assert (row["company"], row["title"], row["headline"], row["city"]) == ("'@evil", "'-Engineer", "'+x", "'\tBerlin")


def test_csv_export_applies_the_list_filters_and_carries_match(api):
    pythonista = CandidateFactory(name="Ada")
    CandidateSkillFactory(candidate=pythonista, skill=Skill.objects.get(slug="python"), score=9)
    CandidateSkillFactory(candidate=pythonista, skill=Skill.objects.get(slug="go"), score=4, section="language")
    CandidateFactory(name="Bo")

    [row] = csv_rows(api.get(CSV_URL, {"skill": "python:8"}))

    assert (row["id"], row["name"], row["match"]) == (str(pythonista.pk), "Ada", "90")
    assert (row["skills"], row["programming_languages"]) == ("python:9", "go:4")
    assert row["url"] == f"http://testserver/api/v1/candidates/{pythonista.pk}/"


def test_csv_export_has_every_candidate_not_just_a_page(api, settings):
    settings.API_PAGE_SIZE = 2
    for _ in range(5):
        CandidateFactory()

    response = api.get(CSV_URL)

    assert len(csv_rows(response)) == 5
    assert response["Content-Disposition"] == 'attachment; filename="candidates.csv"'


def test_csv_export_rejects_bad_filters_like_the_list(api):
    response = api.get(CSV_URL, {"skill": "python:eleven"})

    assert response.status_code == 400
    assert response.json()["error"]["message"] == (
        "skill: 'python:eleven' is not slug or slug:min_score with a score 0-10"
    )


def test_jsonl_export_writes_one_full_profile_per_line(api):
    candidate = CandidateFactory(name="Ada")
    CandidateSkillFactory(candidate=candidate, skill=Skill.objects.get(slug="python"), score=9, label="py")
    EducationFactory(candidate=candidate)
    ContributionFactory(candidate=candidate, start="2020-05-01")
    CandidateFactory(name="Bo")

    response = api.get(JSONL_URL, {"ordering": "name"})

    assert response.status_code == 200
    assert response["Content-Type"] == "application/jsonl; charset=utf-8"
    lines = b"".join(response.streaming_content).decode().splitlines()
    ada, bo = (json.loads(line) for line in lines)
    assert (ada["id"], bo["name"]) == (candidate.pk, "Bo")
    assert ada["skills"] == [{"slug": "python", "name": "Python", "score": 9, "label": "py"}]
    assert ada["education"][0]["school"] == "Technical University of Munich"
    assert ada["contributions"][0]["start"] == "2020-05"
    assert "sources" not in ada


def test_exports_read_in_chunks_with_a_prefetch_per_chunk(api, django_assert_max_num_queries):
    for _ in range(30):
        candidate = CandidateFactory()
        CandidateSkillFactory(candidate=candidate, skill=Skill.objects.get(slug="python"))

    # token; the size check and the user's export slot (a bounded count; a savepoint, the user's row locked, their
    # running jobs counted, released); whether the user may see contact details (their permissions and their groups',
    # read once); the rows (one server-side cursor), skills, jobs, education, languages, contributions: not one query
    # per candidate
    with django_assert_max_num_queries(14):
        response = api.get(JSONL_URL)
        assert len(b"".join(response.streaming_content).splitlines()) == 30
