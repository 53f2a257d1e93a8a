"""The seed profile of the shared corpus, imported as a file would be, read back through the API."""

import pytest
from django.urls import reverse

from core.labels import label_key
from profiles.models import SkillAlias

pytestmark = pytest.mark.django_db
LIST = reverse("api:candidate-list")


def found(api, params) -> list[int]:
    response = api.get(LIST, params)
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


@pytest.mark.parametrize(
    ("params", "finds_it"),
    [
        ({"skill": "xla:10"}, True),
        ({"skill": ["xla:10", "python:10"]}, False),  # python is 9
        ({"skill": ["xla:10", "python:9"]}, True),
        ({"skill": "c"}, True),  # c-language and cprogramming-language are labels of C
        ({"skill": "cprogramming-language:9"}, True),
        ({"skill": "c-language:10"}, True),
        ({"any_skill": "rust,compiler:8"}, True),
        ({"exclude_skill": "tensorflow"}, False),
        ({"q": "asynchronous collective-permute"}, True),  # a contribution summary
        ({"q": "kubernetes"}, False),
        ({"country": "United States", "location": "mountain view"}, True),
        ({"company": "google", "title": "staff engineer"}, True),
        ({"school": "Carnegie Mellon University", "degree": "philosophy"}, True),
        ({"badge": "rockstar", "language": "Chinese"}, True),
        ({"repository": "openxla/xla", "min_commits": 26}, True),
        ({"repository": "openxla/xla", "min_commits": 27}, False),
        ({"topic": "ml"}, True),  # tensorflow/tensorflow's topics carry "ml" and "machine-learning"
        ({"topic": "deep-learning"}, True),
        ({"min_years_coding": 13, "max_years_coding": 13, "min_years_employed": 12}, True),
        ({"min_years_coding": 14}, False),
    ],
)
def test_filters_on_the_seed_profile(api, seed_profile, params, finds_it):
    candidate_id, _ = seed_profile

    assert (candidate_id in found(api, params)) is finds_it


def test_match_of_the_seed_profile(api, seed_profile):
    candidate_id, _ = seed_profile

    [row] = api.get(LIST, {"skill": ["xla:10", "python"]}).json()["results"]

    assert (row["id"], row["match"]) == (candidate_id, 95)


def test_the_detail_equals_the_expected_document(api, seed_profile):
    candidate_id, expected = seed_profile

    data = api.get(reverse("api:candidate-detail", kwargs={"pk": candidate_id})).json()

    for field, value in expected.items():
        if field == "location":
            assert data["location"] == {**value, "country_code": "US"}
        elif field in ("skills", "programming_languages"):
            assert [(s["label"], s["score"]) for s in data[field]] == one_row_per_skill(value), field
        else:
            assert data[field] == value, field


def one_row_per_skill(entries: list[dict]) -> list[tuple[str, int]]:
    """A candidate holds a skill once: labels of the same skill (c-language, cprogramming-language) merge into the
    first, at the higher score."""
    skill_of = dict(
        SkillAlias.objects.filter(label__in=[label_key(e["label"]) for e in entries]).values_list("label", "skill_id")
    )
    rows: dict[int, tuple[str, int]] = {}
    for entry in entries:
        skill = skill_of[label_key(entry["label"])]
        label, score = rows.get(skill, (entry["label"], entry["score"]))
        rows[skill] = (label, max(score, entry["score"]))
    return list(rows.values())


def test_the_seed_profile_skills_carry_canonical_slugs(api, seed_profile):
    candidate_id, _ = seed_profile

    data = api.get(reverse("api:candidate-detail", kwargs={"pk": candidate_id})).json()

    assert {"slug": "c", "name": "C", "score": 10, "label": "c-language"} in data["skills"]
    assert {"slug": "analysis", "name": "Analysis", "score": 10, "label": "analyse"} in data["skills"]
