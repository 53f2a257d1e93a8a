"""exports.formats: the JSON Lines row, built by hand below the API, is the API's CandidateExportSerializer value for
value and byte for byte (issue 15, hole 4: the job and the stream share one writer)."""

import datetime as dt
import json

import pytest
from django.contrib.auth.models import Permission
from django.core.serializers.json import DjangoJSONEncoder
from django.http import QueryDict
from rest_framework.test import APIRequestFactory

from api.candidates.serializers import CandidateExportSerializer
from exports.formats import candidate_json, candidate_jsonl_lines, export_lines
from profiles.contacts import candidates_with_identifiers
from profiles.models import Skill
from profiles.selectors import candidate_search, candidates_for_profiles, candidates_iterate_with_skills
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    EducationFactory,
    PositionFactory,
    SpokenLanguageFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    full = CandidateFactory(name='Zoë "Quote" Ng', badges=["Top 1%"], spoken_languages=["English"], summary="a\nb")
    CandidateSkillFactory(candidate=full, skill=Skill.objects.get(slug="python"), score=9)
    CandidateSkillFactory(candidate=full, skill=Skill.objects.get(slug="go"), score=4, section="language")
    EducationFactory(candidate=full, start=dt.date(2010, 9, 1))
    ContributionFactory(candidate=full, active_months=None)
    PositionFactory(candidate=full, company="Lumen", end=dt.date(2021, 5, 1), summary="a\nb")
    PositionFactory(candidate=full, company="Quill & Co", location="Köln")
    SpokenLanguageFactory(candidate=full, code="de", name="German", fluency="native")
    bare = CandidateFactory(name="Bare", years_coding=None, years_employed=None, headline="", city="")
    return [full, bare]


@pytest.mark.parametrize("query", ["", "skill=python:1"])
def test_a_jsonl_row_is_the_api_serializers_row_byte_for_byte(people, query):
    request = APIRequestFactory().get("/api/v1/candidates/export.jsonl")
    queryset = candidate_search(params=QueryDict(query), queryset=candidates_for_profiles())

    for candidate in candidates_iterate_with_skills(queryset):
        url = f"http://testserver/api/v1/candidates/{candidate.pk}/"
        ours = candidate_json(candidate, url=url)
        drf = CandidateExportSerializer(candidate, context={"request": request}).data
        assert ours == drf
        assert list(ours) == list(drf)
        assert json.dumps(ours, cls=DjangoJSONEncoder, ensure_ascii=False) == json.dumps(
            drf, cls=DjangoJSONEncoder, ensure_ascii=False
        )
    assert ("match" in ours) == bool(query)


def test_each_candidate_is_one_line_whatever_its_text_holds(people):
    lines = list(candidate_jsonl_lines(candidates_for_profiles(), url=lambda c: "u"))

    assert len(lines) == 2
    assert all(line.endswith("\n") and line.count("\n") == 1 for line in lines)


def test_an_unknown_format_is_a_programming_error(people):
    with pytest.raises(ValueError, match="xlsx"):
        export_lines("xlsx", candidates_for_profiles(), url=lambda c: "u")


def test_a_jsonl_row_has_the_work_history_newest_first_the_languages_and_the_study_months(db):
    """Issue 14: the whole candidate in the export, as the API's detail has it."""
    candidate = CandidateFactory()
    PositionFactory(
        candidate=candidate, order=0, company="Lanternfish", start=dt.date(2017, 1, 1), end=dt.date(2021, 2, 1)
    )
    PositionFactory(
        candidate=candidate,
        order=1,
        company="Northwind Labs",
        title="SRE",
        location="Bologna",
        start=dt.date(2021, 3, 1),
        summary="Pager.",
        highlights=["not exported"],
    )
    PositionFactory(candidate=candidate, order=2, company="Undated", start=None, end=None, is_current=False)
    SpokenLanguageFactory(candidate=candidate, code="it", name="Italian", fluency="native", raw="Italiano")
    SpokenLanguageFactory(candidate=candidate, code="", name="Klingon", fluency="", raw="Klingon")
    EducationFactory(candidate=candidate, start=dt.date(2010, 9, 1), end=None)

    [candidate] = candidates_iterate_with_skills(candidates_for_profiles())
    row = candidate_json(candidate, url="u")

    assert row["experience"] == [
        {
            "company": "Northwind Labs",
            "title": "SRE",
            "location": "Bologna",
            "start": "2021-03",
            "end": None,
            "current": True,
            "summary": "Pager.",
        },
        {
            "company": "Lanternfish",
            "title": "Software Engineer",
            "location": "",
            "start": "2017-01",
            "end": "2021-02",
            "current": False,
            "summary": "",
        },
        {
            "company": "Undated",
            "title": "Software Engineer",
            "location": "",
            "start": None,
            "end": None,
            "current": False,
            "summary": "",
        },
    ]
    assert row["languages"] == [
        {"code": "it", "name": "Italian", "fluency": "native"},
        {"code": "", "name": "Klingon", "fluency": ""},
    ]
    assert (row["education"][0]["start"], row["education"][0]["end"]) == ("2010-09", None)
    assert row["spoken_languages"] == list(candidate.spoken_languages)  # the names list stays


def test_a_jsonl_row_with_contact_details_is_the_api_serializers_row_for_a_reader_who_may_see_them(people):
    reader = UserFactory()
    reader.user_permissions.add(Permission.objects.get(codename="see_contact_details"))
    request = APIRequestFactory().get("/api/v1/candidates/export.jsonl")
    request.user = reader
    people[0].identifiers.create(kind="github", value="zoe-ng")
    queryset = candidates_with_identifiers(candidates_for_profiles())

    for candidate in candidates_iterate_with_skills(queryset):
        ours = candidate_json(candidate, url="u", contacts=True)
        drf = CandidateExportSerializer(candidate, context={"request": request}).data
        assert {**ours, "url": drf["url"]} == drf
        assert list(ours) == list(drf)
    [zoe] = [
        json.loads(line)
        for line in candidate_jsonl_lines(
            candidates_for_profiles().filter(pk=people[0].pk), url=lambda c: "u", contacts=True
        )
    ]
    assert zoe["links"][0] == "https://github.com/zoe-ng"
