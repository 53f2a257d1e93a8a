"""The seed profiles, imported as a file would be, read back through the API: the fictional Prog.AI reference of
tests/fixtures, and the shared corpus's real export (marked ``corpus``) when it is there."""

import pytest
from django.urls import reverse

from profiles.vocabulary_copy import skill_vocabulary

pytestmark = pytest.mark.django_db
LIST = reverse("api:candidate-list")


def found(api, params) -> list[int]:
    response = api.get(LIST, params)
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


@pytest.mark.parametrize(
    ("params", "finds_it"),
    [
        ({"skill": "rust:10"}, True),
        ({"skill": ["rust:10", "python:10"]}, False),  # python is 9
        ({"skill": ["rust:10", "python:9"]}, True),
        ({"skill": "c"}, True),  # c-language and cprogramming-language are labels of C
        ({"skill": "cprogramming-language:9"}, True),
        ({"skill": "c-language:10"}, True),
        ({"skill": "database:10"}, True),  # databases is an alias of the database topic
        ({"any_skill": "kotlin,compiler:8"}, True),
        ({"exclude_skill": "llvm"}, False),
        ({"q": "run-length decoder"}, True),  # a contribution summary
        ({"q": "kubernetes"}, False),
        ({"country": "Finland", "location": "tampere"}, True),
        ({"company": "lumivaara", "title": "compiler engineer"}, True),
        ({"school": "University of Helsinki", "degree": "philosophy"}, True),
        ({"badge": "rockstar", "language": "Finnish"}, True),
        ({"repository": "kestrel-db/kestrel", "min_commits": 41}, True),
        ({"repository": "kestrel-db/kestrel", "min_commits": 42}, False),
        ({"topic": "query-engine"}, True),  # a topic of no vocabulary, split out of the glued line
        ({"topic": "columnar-storage"}, True),
        ({"min_years_coding": 11, "max_years_coding": 11, "min_years_employed": 9}, True),
        ({"min_years_coding": 12}, False),
    ],
)
def test_filters_on_the_seed_profile(api, seed_profile, params, finds_it):
    candidate_id, _ = seed_profile

    assert (candidate_id in found(api, params)) is finds_it


def test_match_of_the_seed_profile(api, seed_profile):
    candidate_id, _ = seed_profile

    [row] = api.get(LIST, {"skill": ["rust:10", "python"]}).json()["results"]

    assert (row["id"], row["match"]) == (candidate_id, 95)


def test_the_detail_equals_the_expected_document(api, seed_profile):
    assert_detail_equals_the_expected_document(api, *seed_profile, country_code="FI")


def test_the_seed_profile_skills_carry_canonical_slugs(api, seed_profile):
    candidate_id, _ = seed_profile

    data = api.get(reverse("api:candidate-detail", kwargs={"pk": candidate_id})).json()

    assert {"slug": "c", "name": "C", "score": 10, "label": "c-language"} in data["skills"]
    assert {"slug": "analysis", "name": "Analysis", "score": 10, "label": "analyse"} in data["skills"]
    assert {"slug": "database", "name": "Database", "score": 10, "label": "databases"} in data["skills"]


@pytest.mark.corpus
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
def test_filters_on_the_corpus_seed_profile(api, corpus_seed_profile, params, finds_it):
    candidate_id, _ = corpus_seed_profile

    assert (candidate_id in found(api, params)) is finds_it


@pytest.mark.corpus
def test_match_of_the_corpus_seed_profile(api, corpus_seed_profile):
    candidate_id, _ = corpus_seed_profile

    [row] = api.get(LIST, {"skill": ["xla:10", "python"]}).json()["results"]

    assert (row["id"], row["match"]) == (candidate_id, 95)


@pytest.mark.corpus
def test_the_corpus_detail_equals_the_expected_document(api, corpus_seed_profile):
    assert_detail_equals_the_expected_document(api, *corpus_seed_profile, country_code="US")


def assert_detail_equals_the_expected_document(api, candidate_id: int, expected: dict, country_code: str) -> None:
    data = api.get(reverse("api:candidate-detail", kwargs={"pk": candidate_id})).json()

    for field, value in expected.items():
        if field == "location":
            assert data["location"] == {**value, "country_code": country_code}
        elif field in ("skills", "programming_languages"):
            assert [(s["label"], s["score"]) for s in data[field]] == one_row_per_skill(value), field
        elif field == "education":
            # The expected documents predate the education months, which a Prog.AI export never gives.
            assert [{key: entry[key] for key in row} for row, entry in zip(value, data[field], strict=True)] == value
            assert all(entry["start"] is entry["end"] is None for entry in data[field])
        else:
            assert data[field] == value, field


def one_row_per_skill(entries: list[dict]) -> list[tuple[str, int]]:
    """A candidate holds a skill once: labels the resolver reads as the same skill (c-language and
    cprogramming-language; compiler-design and compiler) merge into the first, at the higher score."""
    vocabulary = skill_vocabulary()
    rows: dict[str, tuple[str, int]] = {}
    for entry in entries:
        resolved = vocabulary.resolve(entry["label"])
        skill = (resolved.slugs or (resolved.key,))[0]
        label, score = rows.get(skill, (entry["label"], entry["score"]))
        rows[skill] = (label, max(score, entry["score"]))
    return list(rows.values())


@pytest.mark.corpus
def test_the_corpus_seed_profile_skills_carry_canonical_slugs(api, corpus_seed_profile):
    candidate_id, _ = corpus_seed_profile

    data = api.get(reverse("api:candidate-detail", kwargs={"pk": candidate_id})).json()

    assert {"slug": "c", "name": "C", "score": 10, "label": "c-language"} in data["skills"]
    assert {"slug": "analysis", "name": "Analysis", "score": 10, "label": "analyse"} in data["skills"]
