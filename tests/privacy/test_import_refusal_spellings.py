"""An erased person's file is refused however it spells the identifiers she is known by: every identifier goes through
the one normalisation (``core.identity.identifier_key``) before it is hashed, so each spelling below meets the
suppression of the identifier as she had it."""

import json

import pytest

from ingestion.models import SourceFile
from privacy.services import candidate_erase
from profiles.models import Candidate
from tests.ingestion.imports import import_all, receive

pytestmark = pytest.mark.django_db

HER = {
    "name": "Tove Lindqvist",
    "label": "Site Reliability Engineer",
    "email": "tove.lindqvist@example.org",
    "url": "https://tove.example.org",
    "location": {"city": "Gothenburg", "countryCode": "SE"},
    "profiles": [
        {"network": "GitHub", "username": "tovelq", "url": "https://github.com/tovelq"},
        {"network": "LinkedIn", "url": "https://www.linkedin.com/in/tove-lind-qvist"},
    ],
}
# Nothing else of hers: another name, town and e-mail, no accounts and no site, so only the spelling can tell.
SOMEONE_ELSE = {
    "name": "T. Lindqvist",
    "email": "someone@elsewhere.example",
    "url": "",
    "location": {"city": "Malmö", "countryCode": "SE"},
    "profiles": [],
}


def _file(**basics) -> bytes:
    return json.dumps({"basics": {**HER, **basics}, "skills": [{"name": "Go", "level": "Expert"}]}).encode()


def _import(data: bytes) -> SourceFile:
    batch = receive(("file.json", data))
    import_all(batch)
    return SourceFile.objects.get(batch=batch)


@pytest.fixture
def erased(officer):
    source = _import(_file())
    assert source.status == SourceFile.Status.IMPORTED, source.error
    candidate_erase(candidate=source.candidate, user=officer)


def github(url: str = "", username: str = "") -> list[dict]:
    return [{"network": "GitHub", "url": url, "username": username}]


SPELLINGS = {
    "all three at once, with a new e-mail": {
        "email": "tove.new@elsewhere.example",
        "url": "https://tove.example.org:443/",
        "profiles": [
            {"network": "GitHub", "url": "https://github.com./tovelq"},
            {"network": "LinkedIn", "url": "https://www.linkedin.com/in/tove%2Dlind%2Dqvist"},
        ],
    },
    "a trailing dot on GitHub's host": {"profiles": github("https://github.com./tovelq")},
    "a LinkedIn slug percent-encoded": {
        "profiles": [{"network": "LinkedIn", "url": "https://www.linkedin.com/in/tove%2Dlind%2Dqvist"}]
    },
    "the default port on her site": {"url": "https://tove.example.org:443/"},
    "%74 in a GitHub path": {"profiles": github("https://github.com/%74ovelq")},
    "a backslash in a URL": {"profiles": github("https://github.com\\tovelq")},
    "a tab in a URL": {"url": "https://tove.exam\tple.org/"},
    "a zero-width space in a handle": {"profiles": github(username="tove\u200blq")},
    "a zero-width space in her name (and her town)": {
        "name": "Tove\u200b Lindqvist",
        "email": "",
        "url": "",
        "profiles": [],
        "location": {"city": "Gothenburg", "countryCode": "SE"},
    },
    "git@github.com:owner/repo": {"profiles": github("git@github.com:tovelq/dotfiles")},
    "a trailing dot on her site's host": {"url": "https://tove.example.org./"},
    "a trailing dot on her e-mail's host": {"email": "tove.lindqvist@example.org."},
    "a plus-address of her mailbox": {"email": "tove.lindqvist+cv@example.org"},
}


@pytest.mark.parametrize("spelling", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_a_spelling_of_her_identifiers_is_refused_after_her_erasure(erased, spelling):
    source = _import(_file(**{**SOMEONE_ELSE, **spelling}))

    assert source.status == SourceFile.Status.FAILED
    assert source.error.startswith("This person asked to be erased on")
    assert not Candidate.objects.exists()


def test_someone_else_with_nothing_of_hers_imports(erased):
    source = _import(_file(**SOMEONE_ELSE))

    assert source.status == SourceFile.Status.IMPORTED


def test_an_erasure_of_a_plus_address_refuses_the_plain_mailbox(officer):
    source = _import(_file(email="tove.lindqvist+jobs@example.org"))
    candidate_erase(candidate=source.candidate, user=officer)

    again = _import(_file(**{**SOMEONE_ELSE, "email": "Tove.Lindqvist@example.org"}))

    assert again.status == SourceFile.Status.FAILED
