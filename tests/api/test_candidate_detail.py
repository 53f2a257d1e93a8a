"""GET /api/v1/candidates/{id}/: the full profile, its sources, and match for requested skills."""

import hashlib

import pytest
from django.urls import reverse

from profiles.models import Skill
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    EducationFactory,
    RepositoryFactory,
    SourceFileFactory,
)

pytestmark = pytest.mark.django_db


def url(pk: int) -> str:
    return reverse("api:candidate-detail", kwargs={"pk": pk})


@pytest.fixture
def candidate():
    candidate = CandidateFactory(name="Mira Okafor", city="Lagos", region="Lagos State", country="Nigeria")
    candidate.country_code = "NG"
    candidate.save()
    CandidateSkillFactory(candidate=candidate, skill=Skill.objects.get(slug="python"), score=9, label="python3")
    CandidateSkillFactory(
        candidate=candidate, skill=Skill.objects.get(slug="go"), score=6, label="Go", section="language", position=1
    )
    EducationFactory(candidate=candidate, degree="Master's Degree", field="CS", minor="", school="UNILAG")
    repository = RepositoryFactory(full_name="lumen/optics", description="Optical flow", topics=["compiler", "ml"])
    ContributionFactory(
        candidate=candidate,
        repository=repository,
        role="Maintainer",
        commits=120,
        comments=4,
        start="2021-02-01",
        end=None,
        is_current=True,
        active_months=20,
        summary="Rewrote the scheduler.",
    )
    SourceFileFactory(original_name="mira.txt", content=b"Mira", format="progai", candidate=candidate)
    return candidate


def test_it_shows_the_whole_profile(api, candidate):
    data = api.get(url(candidate.pk)).json()

    assert data["id"] == candidate.pk
    assert data["url"] == f"http://testserver{url(candidate.pk)}"
    assert data["location"] == {"city": "Lagos", "region": "Lagos State", "country": "Nigeria", "country_code": "NG"}
    assert data["skills"] == [{"slug": "python", "name": "Python", "score": 9, "label": "python3"}]
    assert data["programming_languages"] == [{"slug": "go", "name": "Go", "score": 6, "label": "Go"}]
    assert data["education"] == [{"degree": "Master's Degree", "field": "CS", "minor": "", "school": "UNILAG"}]
    assert data["contributions"] == [
        {
            "repository": "lumen/optics",
            "repository_description": "Optical flow",
            "start": "2021-02",
            "end": None,
            "role": "Maintainer",
            "commits": 120,
            "comments": 4,
            "active_months": 20,
            "summary": "Rewrote the scheduler.",
            "topics": ["compiler", "ml"],
        }
    ]
    [source] = data["sources"]
    assert (source["name"], source["format"], source["status"], source["sha256"]) == (
        "mira.txt",
        "progai",
        "pending",
        hashlib.sha256(b"Mira").hexdigest(),
    )
    assert "match" not in data
    assert {"created_at", "updated_at", "summary", "badges", "spoken_languages", "skills_declared"} <= data.keys()


def test_it_computes_match_for_requested_skills_without_filtering(api, candidate):
    # python 9, go 6, rust missing: (90 + 60 + 0) / 3 = 50, though go is below the asked minimum.
    data = api.get(url(candidate.pk), {"skill": ["py", "go:8"], "any_skill": "rust"}).json()

    assert data["match"] == 50


def test_it_takes_no_other_filters(api, candidate):
    response = api.get(url(candidate.pk), {"country": "DE"})

    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("Unknown parameter(s): country.")


def test_a_missing_candidate_is_a_404_in_the_error_shape(api):
    response = api.get(url(999_999_999))

    assert response.status_code == 404
    assert response.json() == {"error": {"code": "not_found", "message": "No candidate with this id.", "details": {}}}


def test_it_runs_a_fixed_number_of_queries(api, candidate, django_assert_num_queries):
    # token, candidate, skills, education, contributions (+ repositories joined), sources
    with django_assert_num_queries(6):
        assert api.get(url(candidate.pk)).status_code == 200
