"""exports.formats: the JSON Lines row, built by hand below the API, is the API's CandidateExportSerializer value for
value and byte for byte (issue 15, hole 4: the job and the stream share one writer)."""

import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.http import QueryDict
from rest_framework.test import APIRequestFactory

from api.serializers import CandidateExportSerializer
from exports.formats import candidate_json, candidate_jsonl_lines, export_lines
from profiles.models import Skill
from profiles.selectors import candidate_search, candidates_for_profiles, candidates_iterate_with_skills
from tests.factories import CandidateFactory, CandidateSkillFactory, ContributionFactory, EducationFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    full = CandidateFactory(name='Zoë "Quote" Ng', badges=["Top 1%"], spoken_languages=["English"], summary="a\nb")
    CandidateSkillFactory(candidate=full, skill=Skill.objects.get(slug="python"), score=9)
    CandidateSkillFactory(candidate=full, skill=Skill.objects.get(slug="go"), score=4, section="language")
    EducationFactory(candidate=full)
    ContributionFactory(candidate=full, active_months=None)
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
