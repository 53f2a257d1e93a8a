"""Repositories after an erasure (issue 18): hers alone go; one others contribute to as well stays for them, but
named after no account of hers and with no description naming her."""

import pytest

from privacy.services import candidate_erase
from profiles.models import CandidateIdentifier, Contribution
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
