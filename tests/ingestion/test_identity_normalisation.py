"""One person, however their links are written: every identifier is stored and compared in the one normalisation of
``core.identity.identifier_key``."""

import json

import pytest

from ingestion.models import SourceFile
from profiles.models import CandidateIdentifier, PossibleDuplicate
from tests.ingestion.imports import import_all, receive

pytestmark = pytest.mark.django_db


def _file(name: str, email: str, **basics) -> bytes:
    document = {"basics": {"name": name, "email": email, "location": {"city": "Sevilla"}, **basics}}
    return json.dumps(document).encode()


def _import(data: bytes) -> SourceFile:
    batch = receive(("file.json", data))
    import_all(batch)
    return SourceFile.objects.get(batch=batch)


def _linkedin(url: str) -> list[dict]:
    return [{"network": "LinkedIn", "url": url}]


def test_a_linkedin_address_percent_encoded_and_written_plainly_is_one_person():
    first = _import(
        _file(
            "José García", "jose@one.example", profiles=_linkedin("https://www.linkedin.com/in/jos%C3%A9-garc%C3%ADa")
        )
    )
    second = _import(
        _file("Jose Garcia", "jose@two.example", profiles=_linkedin("https://linkedin.com/in/josé-garcía/"))
    )

    assert (second.candidate_id, second.outcome) == (first.candidate_id, SourceFile.Outcome.UPDATED)
    assert set(CandidateIdentifier.objects.filter(kind="linkedin").values_list("value", flat=True)) == {"josé-garcía"}
    assert not PossibleDuplicate.objects.exists()


def test_a_site_with_and_without_www_scheme_and_slash_is_one_person():
    first = _import(_file("Ana Ruiz", "ana@one.example", url="https://www.site.example/"))
    second = _import(_file("Ana Ruiz", "ana@two.example", url="https://site.example"))

    assert second.candidate_id == first.candidate_id
    assert list(CandidateIdentifier.objects.filter(kind="url").values_list("value", flat=True)) == ["site.example"]


def test_a_git_remote_names_its_owner_as_the_github_account():
    source = _import(
        _file("Ana Ruiz", "ana@one.example", profiles=[{"network": "GitHub", "url": "git@github.com:anaruiz/dotfiles"}])
    )

    github = CandidateIdentifier.objects.filter(candidate=source.candidate_id, kind="github")
    assert list(github.values_list("value", flat=True)) == ["anaruiz"]


def test_an_email_is_stored_in_its_normal_form_and_keeps_its_plus_address():
    source = _import(_file("Ana Ruiz", " MAILTO:Ana+CV@Example.ORG. "))

    emails = CandidateIdentifier.objects.filter(candidate=source.candidate_id, kind="email")
    assert list(emails.values_list("value", flat=True)) == ["ana+cv@example.org"]
