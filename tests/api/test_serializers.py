"""The list serializer writes its fields out by hand for speed: it must give exactly what DRF's generic loop gives.

DRF's loop (``ModelSerializer.to_representation``) runs here on the same serializer, so a DRF upgrade that changes
how a declared field renders fails these tests instead of changing the list's rows.
"""

import zoneinfo

import pytest
from django.utils import timezone
from rest_framework import serializers
from rest_framework.test import APIRequestFactory

from api.candidates.serializers import CandidateListSerializer
from profiles.models import CandidateSkill
from profiles.selectors import candidate_search, candidates_attach_skills, candidates_for_listing
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db

PARAMS = [
    {},  # neither match nor rank
    {"skill": "python"},  # match
    {"any_skill": "python,c:9,nonexistent-skill"},  # match with a skill nobody has
    {"q": "engineer or developer or university"},  # rank
    {"q": "engineer or developer or university", "skill": "python"},  # both
]
PARAMS_IDS = ["plain", "match", "match-unknown-skill", "rank", "match-and-rank"]


@pytest.fixture
def made_candidates() -> int:
    """Candidates of every shape the list shows: skills and languages or none, badges, a country code or none."""
    python, go, c = SkillFactory(slug="python"), SkillFactory(slug="go"), SkillFactory(slug="c")
    rows = [
        CandidateFactory(name="Ada Engineer", badges=["Rockstar", "Top School"]),
        CandidateFactory(name="Bo Developer", title="Developer", country="", country_code="", city=""),
        CandidateFactory(name="Cy University", headline="", company="", years_coding=None, years_employed=None),
    ]
    CandidateSkillFactory(candidate=rows[0], skill=python, score=9, label="Python 3")
    CandidateSkillFactory(candidate=rows[0], skill=go, score=4, label="golang")
    CandidateSkillFactory(candidate=rows[0], skill=c, score=6, section=CandidateSkill.Section.LANGUAGE)
    CandidateSkillFactory(candidate=rows[1], skill=python, score=3)
    CandidateSkillFactory(candidate=rows[2], skill=c, score=10, section=CandidateSkill.Section.LANGUAGE)
    return len(rows)


@pytest.fixture
def corpus_candidates(corpus_documents) -> int:
    """The seed profile and every valid JSON Resume of the shared corpus, loaded as an import would load them."""
    from ingestion.services import documents_load

    return len({result.candidate_id for result in documents_load(documents=corpus_documents)})


def representations(params: dict) -> list[tuple[dict, dict]]:
    """(hand-written, DRF's generic) representations of every candidate the search returns for ``params``."""
    request = APIRequestFactory().get("/api/v1/candidates/", params)
    page = list(candidate_search(params=params, queryset=candidates_for_listing()))
    candidates_attach_skills(page)
    serializer = CandidateListSerializer(context={"request": request})
    return [
        (serializer.to_representation(candidate), serializers.ModelSerializer.to_representation(serializer, candidate))
        for candidate in page
    ]


def assert_rows_equal(rows: list[tuple[dict, dict]], params: dict) -> None:
    assert rows, f"there should be candidates for {params}"
    for fast, generic in rows:
        assert fast == generic
        assert list(fast) == list(generic)  # the same keys in the same order
    if "skill" in params or "any_skill" in params:
        assert all("match" in fast for fast, _ in rows)
    if "q" in params:
        assert all(isinstance(fast["rank"], float) for fast, _ in rows)


@pytest.mark.parametrize("params", PARAMS, ids=PARAMS_IDS)
def test_the_hand_written_list_row_equals_drfs_generic_one(made_candidates, params):
    assert_rows_equal(representations(params), params)


def test_the_made_candidates_give_every_shape_of_row(made_candidates):
    rows = [fast for fast, _ in representations({})]

    assert len(rows) == made_candidates
    assert {bool(row["skills"]) for row in rows} == {True, False}
    assert {bool(row["programming_languages"]) for row in rows} == {True, False}
    assert {row["location"]["country_code"] for row in rows} == {"DE", ""}
    assert {row["years_coding"] for row in rows} == {8, None}
    assert ["Rockstar", "Top School"] in [row["badges"] for row in rows]


@pytest.mark.corpus
@pytest.mark.parametrize("params", PARAMS, ids=PARAMS_IDS)
def test_on_the_corpus_the_hand_written_list_row_equals_drfs_generic_one(corpus_candidates, params):
    assert_rows_equal(representations(params), params)


@pytest.mark.corpus
def test_the_list_rows_cover_every_candidate_of_the_corpus(corpus_candidates):
    rows = representations({})

    assert len(rows) == corpus_candidates
    assert any(fast["skills"] for fast, _ in rows)  # the comparison above saw real skill lists
    assert any(fast["location"]["country_code"] for fast, _ in rows)


def test_the_hand_written_row_formats_updated_at_in_the_requests_time_zone(made_candidates):
    with timezone.override(zoneinfo.ZoneInfo("Asia/Kolkata")):
        rows = representations({})

    for fast, generic in rows:
        assert fast["updated_at"] == generic["updated_at"]
        assert fast["updated_at"].endswith("+05:30")
