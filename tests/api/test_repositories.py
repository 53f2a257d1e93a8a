"""GET /api/v1/repositories/: repositories with their contributor counts."""

import pytest
from django.urls import reverse

from tests.factories import ContributionFactory, RepositoryFactory

pytestmark = pytest.mark.django_db
URL = reverse("api:repository-list")


def test_it_lists_repositories_with_contributor_counts(api):
    xla = RepositoryFactory(
        full_name="openxla/xla", description="ML compiler", topics=["ml"], topic_slugs=["machine-learning"]
    )
    ContributionFactory(repository=xla), ContributionFactory(repository=xla)
    RepositoryFactory(full_name="zeta/quiet")

    rows = api.get(URL).json()["results"]

    assert rows == [
        {
            "id": xla.pk,
            "full_name": "openxla/xla",
            "description": "ML compiler",
            "topics": ["ml"],
            "topic_slugs": ["machine-learning"],
            "contributor_count": 2,
        },
        {
            "id": rows[1]["id"],
            "full_name": "zeta/quiet",
            "description": "A project",
            "topics": [],
            "topic_slugs": [],
            "contributor_count": 0,
        },
    ]


def test_search_by_name_prefix_and_topic_alias(api):
    RepositoryFactory(full_name="openxla/xla", topic_slugs=["machine-learning"])
    RepositoryFactory(full_name="openai/gym", topic_slugs=["reinforcement-learning"])

    assert [r["full_name"] for r in api.get(URL, {"search": "OpenX"}).json()["results"]] == ["openxla/xla"]
    assert [r["full_name"] for r in api.get(URL, {"topic": "ml"}).json()["results"]] == ["openxla/xla"]
    assert api.get(URL, {"topic": "no-such-topic-anywhere"}).json()["results"] == []


def test_unknown_parameters_are_a_400(api):
    response = api.get(URL, {"owner": "openxla"})

    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("Unknown parameter(s): owner.")


def test_a_page_runs_the_same_queries_whatever_its_size(api, django_assert_num_queries):
    for index in range(20):
        ContributionFactory(repository=RepositoryFactory(full_name=f"owner/repo-{index}"))
    for size in (1, 20):
        with django_assert_num_queries(2):  # token, repositories with counts
            assert len(api.get(URL, {"page_size": size}).json()["results"]) == size
