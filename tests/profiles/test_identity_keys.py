"""The canonical URL and e-mail keys of ``profiles.identity`` (issue 18: the suppression keys compare them)."""

import pytest

from profiles.identity import email_key, identity_key_forms, url_key


@pytest.mark.parametrize(
    "url",
    [
        "https://tove.example.org",
        "http://tove.example.org/",
        "https://www.tove.example.org",
        "HTTPS://TOVE.example.org/?utm_source=cv#about",
        "//tove.example.org",
        "tove.example.org/",
        " https://user@tove.example.org ",
    ],
)
def test_spellings_of_one_site_have_one_key(url):
    assert url_key(url) == "tove.example.org"


def test_the_path_stays_part_of_the_key():
    assert url_key("https://github.com/tovelq/") == "github.com/tovelq"
    assert url_key("https://example.org/people/noor") != url_key("https://example.org/people/tove")


@pytest.mark.parametrize(
    "email",
    ["tove@example.org", "mailto:tove@example.org", " MAILTO:Tove@Example.ORG ", "mailto:tove@example.org?subject=Hi"],
)
def test_spellings_of_one_address_have_one_key(email):
    assert email_key(email) == "tove@example.org"


def test_the_forms_are_the_stored_key_and_the_canonical_one():
    assert identity_key_forms("url", "https://tove.example.org") == ("https://tove.example.org", "tove.example.org")
    assert identity_key_forms("email", "tove@example.org") == ("tove@example.org",)
    assert identity_key_forms("github", "tovelq") == ("tovelq",)
