"""Repositories after an erasure (issue 18): hers alone go; one others contribute to as well stays for them, but
named after no account of hers and with no description naming her."""

import pytest

from privacy.services import candidate_erase
from profiles.models import CandidateIdentifier, Contribution
from profiles.search import candidates_refresh_search_columns
from profiles.selectors import candidate_autocomplete, candidate_search
from tests.factories import CandidateFactory, ContributionFactory, RepositoryFactory
from tests.ingestion.imports import import_file
from tests.privacy.people import TOVE_FILE, TOVE_NEEDLES
from tests.privacy.scan import found_in_database

pytestmark = pytest.mark.django_db


def test_a_repository_of_her_account_that_others_contribute_to_stays_under_a_placeholder_owner(officer):
    tove = import_file(TOVE_FILE)
    shared = RepositoryFactory(
        full_name="tovelq/runbooks", description="Runbooks Tove Lindqvist started", topics_raw="sre, tovelq"
    )
    ContributionFactory(candidate=tove, repository=shared)
    colleague = ContributionFactory(repository=shared, commits=40)

    candidate_erase(candidate=tove, user=officer)

    shared.refresh_from_db()
    assert shared.full_name == f"erased-{shared.pk}/runbooks"
    assert (shared.description, shared.topics_raw) == ("", "")
    assert Contribution.objects.get(pk=colleague.pk).repository_id == shared.pk  # their work stays recorded
    assert found_in_database(TOVE_NEEDLES) == []


def test_a_shared_repository_of_someone_else_keeps_its_name_and_loses_only_a_description_naming_her(officer):
    tove = import_file(TOVE_FILE)
    naming_her = RepositoryFactory(full_name="harbourlight/deploys", description="Tove Lindqvist's deploy scripts")
    plain = RepositoryFactory(full_name="harbourlight/pager", description="Pager rota in Go", topics_raw="go, sre")
    for repository in (naming_her, plain):
        ContributionFactory(candidate=tove, repository=repository)
        ContributionFactory(repository=repository)

    candidate_erase(candidate=tove, user=officer)

    naming_her.refresh_from_db()
    plain.refresh_from_db()
    assert (naming_her.full_name, naming_her.description) == ("harbourlight/deploys", "")
    assert (plain.full_name, plain.description, plain.topics_raw) == (
        "harbourlight/pager",
        "Pager rota in Go",
        "go, sre",
    )


def test_an_account_that_is_a_common_word_blanks_no_description_using_the_word(officer):
    pat = CandidateFactory(name="Pat Example")
    CandidateIdentifier.objects.create(candidate=pat, kind=CandidateIdentifier.Kind.GITHUB, value="python")
    repository = RepositoryFactory(full_name="psf/requests", description="HTTP for Python, by python people")
    ContributionFactory(candidate=pat, repository=repository)
    ContributionFactory(repository=repository)

    candidate_erase(candidate=pat, user=officer)

    repository.refresh_from_db()
    assert (repository.full_name, repository.description) == ("psf/requests", "HTTP for Python, by python people")


def test_her_account_is_no_longer_found_through_a_colleague_of_a_repository_renamed_for_her(officer):
    """A repository of her account that others contribute to is renamed ``erased-<id>/...``: the colleague's search
    columns, which held the old name, are computed again, so neither ``q`` nor the admin's autocomplete finds anyone
    by her account any more, and the colleague is found by the new name."""
    tove = import_file(TOVE_FILE)
    shared = RepositoryFactory(full_name="tovelq/runbooks")
    ContributionFactory(candidate=tove, repository=shared)
    colleague = ContributionFactory(repository=shared, commits=40).candidate
    candidates_refresh_search_columns(candidate_ids=[colleague.pk])
    assert set(candidate_search(params={"q": "tovelq"}).values_list("pk", flat=True)) == {colleague.pk, tove.pk}

    candidate_erase(candidate=tove, user=officer)

    assert not candidate_search(params={"q": "tovelq"}).exists()
    assert not candidate_autocomplete(term="tovelq").exists()
    assert list(candidate_search(params={"q": f"erased-{shared.pk}"}).values_list("pk", flat=True)) == [colleague.pk]
    assert found_in_database(TOVE_NEEDLES) == []
