"""A repository saved outside an import (its admin): its contributors are searched by its name as it now is."""

import pytest

from profiles import services
from profiles.search import candidates_refresh_search_columns
from profiles.selectors import candidate_search
from profiles.services import hand_edits
from tests.factories import ContributionFactory, RepositoryFactory

pytestmark = pytest.mark.django_db


def _found(q: str) -> set[int]:
    return set(candidate_search(params={"q": q}).values_list("pk", flat=True))


def test_a_renamed_repositorys_contributors_are_found_by_the_new_name_only():
    repository = RepositoryFactory(full_name="oldowner/lighthouse")
    contributor = ContributionFactory(repository=repository).candidate
    candidates_refresh_search_columns(candidate_ids=[contributor.pk])

    repository.full_name = "newowner/lighthouse"
    services.repository_save(repository=repository)

    assert _found("oldowner") == set()
    assert _found("newowner") == {contributor.pk}


def test_a_repository_saved_without_a_new_name_refreshes_no_search_columns(monkeypatch):
    refreshed = []
    monkeypatch.setattr(hand_edits, "repositories_refresh_contributors", lambda **kwargs: refreshed.append(kwargs))
    repository = RepositoryFactory(full_name="owner/lighthouse", description="Probes")

    repository.description = "Probes, and alerts"
    services.repository_save(repository=repository)
    services.repository_save(repository=RepositoryFactory.build(full_name="owner/new"))

    assert refreshed == []
    assert RepositoryFactory._meta.model.objects.get(pk=repository.pk).description == "Probes, and alerts"
