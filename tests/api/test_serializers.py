"""The list serializer writes its fields out by hand for speed: it must give exactly what DRF's generic loop gives."""

import zoneinfo

import pytest
from django.utils import timezone
from rest_framework import serializers
from rest_framework.test import APIRequestFactory

from api.serializers import CandidateListSerializer
from ingestion.loaders import load_documents
from profiles.selectors import candidate_search, candidates_attach_skills, candidates_for_listing

pytestmark = pytest.mark.django_db


@pytest.fixture
def corpus_candidates(corpus_documents) -> int:
    """The seed profile and every valid JSON Resume of the shared corpus, loaded as an import would load them."""
    return len({result.candidate_id for result in load_documents(corpus_documents)})


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


@pytest.mark.parametrize(
    "params",
    [
        {},  # neither match nor rank
        {"skill": "python"},  # match
        {"any_skill": "python,c:9,nonexistent-skill"},  # match with a skill nobody has
        {"q": "engineer or developer or university"},  # rank
        {"q": "engineer or developer or university", "skill": "python"},  # both
    ],
    ids=["plain", "match", "match-unknown-skill", "rank", "match-and-rank"],
)
def test_the_hand_written_list_row_equals_drfs_generic_one(corpus_candidates, params):
    rows = representations(params)

    assert rows, f"the corpus should give candidates for {params}"
    for fast, generic in rows:
        assert fast == generic
        assert list(fast) == list(generic)  # the same keys in the same order
    if "skill" in params or "any_skill" in params:
        assert all("match" in fast for fast, _ in rows)
    if "q" in params:
        assert all(isinstance(fast["rank"], float) for fast, _ in rows)


def test_the_list_rows_cover_every_candidate_of_the_corpus(corpus_candidates):
    rows = representations({})

    assert len(rows) == corpus_candidates
    assert any(fast["skills"] for fast, _ in rows)  # the comparison above saw real skill lists
    assert any(fast["location"]["country_code"] for fast, _ in rows)


def test_the_hand_written_row_formats_updated_at_in_the_requests_time_zone(corpus_candidates):
    with timezone.override(zoneinfo.ZoneInfo("Asia/Kolkata")):
        rows = representations({})

    for fast, generic in rows:
        assert fast["updated_at"] == generic["updated_at"]
        assert fast["updated_at"].endswith("+05:30")
