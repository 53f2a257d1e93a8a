"""The URL and e-mail keys of ``core.identity`` and the forms a suppression hashes of them."""

import pytest

from core.identity import email_key, email_mailbox, identifier_key, identity_key_forms, url_key


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


def test_the_forms_are_the_key_and_the_spellings_suppressions_of_earlier_versions_hold():
    assert identity_key_forms("url", "tove.example.org") == (
        "tove.example.org",
        "https://tove.example.org",
        "http://tove.example.org",
        "https://www.tove.example.org",
        "http://www.tove.example.org",
    )
    assert identity_key_forms("email", "tove@example.org") == ("tove@example.org",)
    assert identity_key_forms("email", "tove+cv@example.org") == ("tove+cv@example.org", "tove@example.org")
    assert identity_key_forms("github", "tovelq") == ("tovelq",)


@pytest.mark.parametrize(
    ("kind", "written", "key"),
    [
        ("url", "https://github.com./tovelq", "github.com/tovelq"),
        ("url", "https://www.linkedin.com/in/name%2Dwith%2Ddashes", "linkedin.com/in/name-with-dashes"),
        ("url", "https://site.example:443/", "site.example"),
        ("url", "http://site.example:80", "site.example"),
        ("url", "https://site.example:8443/", "site.example:8443"),
        ("url", "https://github.com/%74ovelq", "github.com/tovelq"),
        ("url", "https://github.com\\tovelq", "github.com/tovelq"),
        ("url", "https://git\thub.com/tove\nlq", "github.com/tovelq"),
        ("url", "git@github.com:tovelq/dotfiles.git", "github.com/tovelq/dotfiles.git"),
        ("url", "https://tove.example.org./", "tove.example.org"),
        ("url", "https://xn--bcher-kva.example/a/../b/./", "bücher.example/b"),
        ("url", "https://tove\u200b.example.org", "tove.example.org"),
        ("url", "mailto:tove@example.org", ""),
        ("url", "javascript:alert(1)", ""),
        ("linkedin", "jos%C3%A9-garc%C3%ADa", "josé-garcía"),
        ("linkedin", "jose\u0301-garci\u0301a", "josé-garcía"),  # NFD written, NFC kept
        ("github", "@tove\u200blq/", "tovelq"),
        ("email", "tove.lindqvist@example.org.", "tove.lindqvist@example.org"),
        ("email", "Tove+CV@Example.ORG", "tove+cv@example.org"),
        ("name", "tove\u200b lindqvist|malmö|SE", "tove lindqvist|malmö|SE"),
    ],
)
def test_every_spelling_of_an_identifier_is_one_key_and_a_key_is_its_own_key(kind, written, key):
    assert identifier_key(kind, written) == key
    assert identifier_key(kind, key) == key


def test_an_emails_mailbox_is_the_address_without_its_plus_address():
    assert email_mailbox("tove+cv@example.org") == "tove@example.org"
    assert email_mailbox("tove@example.org") == "tove@example.org"
