"""Issue 15, hole 6: `?skill=go` repeated 200 times was a RecursionError and an HTML 500 in the list, the detail and
the exports. The number of skill terms a request may hold is capped (SEARCH_MAX_TERMS), every API surface answers a
request past it with a 400 naming the cap, and a request at the cap is served."""

import pytest
from django.urls import reverse

from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def gopher() -> Candidate:
    candidate = CandidateFactory(name="Gia Opher")
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="go"), score=8)
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="python"), score=6)
    candidates_refresh_search_columns(candidate_ids=[candidate.pk])
    return candidate


def _urls(candidate: Candidate) -> dict[str, str]:
    return {
        "list": reverse("api:candidate-list"),
        "detail": reverse("api:candidate-detail", args=[candidate.pk]),
        "csv": reverse("api:candidate-export-csv"),
        "jsonl": reverse("api:candidate-export-jsonl"),
    }


def _terms(slug: str, n: int) -> str:
    return ",".join([slug] * n)


TOO_MANY = [
    pytest.param({"skill": ["go"] * 200}, 200, id="skill-200-times"),
    pytest.param({"any_skill": _terms("go", 200)}, 200, id="any_skill-200-terms"),
    pytest.param({"skill": ["go"] * 30, "any_skill": _terms("python", 30)}, 60, id="skill-and-any_skill-together"),
    pytest.param({"skill": ["go:5"] * 51}, 51, id="one-past-the-cap"),
]


@pytest.mark.parametrize("surface", ["list", "detail", "csv", "jsonl"])
@pytest.mark.parametrize(("params", "count"), TOO_MANY)
def test_too_many_skill_terms_are_a_400_naming_the_cap_everywhere(api, gopher, settings, surface, params, count):
    assert settings.SEARCH_MAX_TERMS == 50  # the documented default

    response = api.get(_urls(gopher)[surface], params)

    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert error["message"] == (
        f"Too many skill terms: {count}. A request may hold at most 50 (SEARCH_MAX_TERMS), counting skill, "
        "any_skill and exclude_skill together."
    )


def test_exclude_skill_terms_count_towards_the_cap(api, gopher):
    for surface in ("list", "csv", "jsonl"):
        response = api.get(_urls(gopher)[surface], {"skill": "go", "exclude_skill": _terms("rust", 50)})
        assert response.status_code == 400, surface
        assert response.json()["error"]["message"].startswith("Too many skill terms: 51.")


def test_a_request_at_the_cap_is_served_everywhere_with_its_match(api, gopher):
    params = {"skill": ["go"] * 25, "any_skill": _terms("python", 25)}
    urls = _urls(gopher)

    listed = api.get(urls["list"], params)
    detail = api.get(urls["detail"], params)
    csv_export = api.get(urls["csv"], params)
    jsonl_export = api.get(urls["jsonl"], params)

    assert [(row["id"], row["match"]) for row in listed.json()["results"]] == [(gopher.pk, 70)]  # mean of 8 and 6
    assert detail.json()["match"] == 70
    assert csv_export.status_code == jsonl_export.status_code == 200
    assert b"".join(csv_export.streaming_content).decode().count("Gia Opher") == 1
    assert b"".join(jsonl_export.streaming_content).decode().count("Gia Opher") == 1


def test_the_cap_comes_from_the_settings(api, gopher, settings):
    settings.SEARCH_MAX_TERMS = 3

    assert api.get(_urls(gopher)["list"], {"skill": ["go"] * 3}).status_code == 200
    response = api.get(_urls(gopher)["list"], {"skill": ["go"] * 4})
    assert response.status_code == 400
    assert "at most 3 (SEARCH_MAX_TERMS)" in response.json()["error"]["message"]
