"""A repository renamed in the admin: its contributors are searched by the new name, no longer by the old one."""

import pytest
from django.urls import reverse

from profiles.search import candidates_refresh_search_columns
from profiles.selectors import candidate_search
from tests.factories import ContributionFactory, RepositoryFactory

pytestmark = pytest.mark.django_db


def _found(q: str) -> set[int]:
    return set(candidate_search(params={"q": q}).values_list("pk", flat=True))


def test_renaming_a_repository_refreshes_its_contributors_search_columns(admin_client):
    repository = RepositoryFactory(full_name="oldowner/lighthouse", description="Probes")
    contributor = ContributionFactory(repository=repository).candidate
    candidates_refresh_search_columns(candidate_ids=[contributor.pk])
    assert _found("oldowner") == {contributor.pk}

    response = admin_client.post(
        reverse("admin:profiles_repository_change", args=[repository.pk]),
        {"full_name": "newowner/lighthouse", "description": "Probes", "topics_raw": "", "topics": "[]"},
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    assert _found("oldowner") == set()
    assert _found("newowner") == {contributor.pk}
