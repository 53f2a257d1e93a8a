"""Issue 14: the loader stores every network account a file names as an identity key, and recognises people by it."""

import pytest

from ingestion.documents import Identifiers
from ingestion.models import SourceFile
from ingestion.services import documents_load
from profiles.models import CandidateIdentifier
from tests.ingestion.documents import make_document

pytestmark = pytest.mark.django_db

IDS = Identifiers(
    github="noor-at-work",
    more_github=["Noor-Rahimi"],
    linkedin="noor-rahimi-4a7b",
    twitter="noorcodes",
    gitlab="noorr",
    stackoverflow="4412345",
)


def test_every_account_is_stored_as_an_identifier():
    """A second GitHub account and a Twitter handle were dropped (issue 14); GitLab and Stack Overflow too."""
    [result] = documents_load(documents=[make_document(identifiers=IDS)])

    stored = set(
        CandidateIdentifier.objects.filter(candidate_id=result.candidate_id)
        .exclude(kind=CandidateIdentifier.Kind.NAME_LOCATION)
        .values_list("kind", "value")
    )
    assert stored == {
        ("github", "noor-at-work"),
        ("github", "noor-rahimi"),
        ("linkedin", "noor-rahimi-4a7b"),
        ("twitter", "noorcodes"),
        ("gitlab", "noorr"),
        ("so", "4412345"),
    }


def test_a_later_file_naming_only_the_second_github_account_is_the_same_person():
    [first] = documents_load(documents=[make_document(name="Noor Rahimi", identifiers=IDS)])
    moved = make_document(name="Noor R.", identifiers=Identifiers(github="noor-rahimi"), company="Elsewhere")

    [second] = documents_load(documents=[moved])

    assert (second.candidate_id, second.outcome) == (first.candidate_id, SourceFile.Outcome.UPDATED)
