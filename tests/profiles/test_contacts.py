"""profiles.contacts: the public pages a profile lists, each once however the files spelt it."""

import pytest

from profiles.contacts import candidates_with_identifiers, profile_links
from profiles.models import Candidate, CandidateIdentifier
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db


def _links(candidate: Candidate) -> list[tuple[str, str]]:
    loaded = candidates_with_identifiers(Candidate.objects.filter(pk=candidate.pk)).get()
    return [(link.label, link.url) for link in profile_links(loaded)]


def test_an_account_and_its_profile_address_stored_before_are_one_link():
    candidate = CandidateFactory()
    kinds = CandidateIdentifier.Kind
    for kind, value in [
        (kinds.LINKEDIN, "tove-lindqvist"),
        (kinds.URL, "linkedin.com/in/tove-lindqvist"),
        (kinds.GITHUB, "tovel"),
        (kinds.URL, "github.com/tovel"),
        (kinds.URL, "tove.example.org"),
    ]:
        CandidateIdentifier.objects.create(candidate=candidate, kind=kind, value=value)

    assert _links(candidate) == [
        ("GitHub", "https://github.com/tovel"),
        ("LinkedIn", "https://www.linkedin.com/in/tove-lindqvist"),
        ("tove.example.org", "https://tove.example.org"),
    ]
