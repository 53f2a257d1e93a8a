"""The name check under every identity key, and which sites are a person's (``core.identity``)."""

import pytest

from core.identity import names_clearly_differ, personal_site


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ada Quill", "Ada Quill"),
        ("Ada Quill", "ADA  QUILL"),
        ("José Núñez", "Jose Nunez"),
        ("Ada Quill", "Quill, Ada"),
        ("Ada Quill", "Ada M. Quill"),
        ("Ada Quill", "Ada Smith"),  # a name changed on marriage: the same person may well be
        ("Alex Park", "Alexander Park"),
        ("A. Q.", "Ada Quill"),
        ("Tove\u200b Lindqvist", "Tove Lindqvist"),
        ("田中花子", "田中 花子"),
        ("", "Ben Ortiz"),  # no name: no evidence either way
    ],
)
def test_names_of_one_person_do_not_clearly_differ(first, second):
    assert not names_clearly_differ(first, second)
    assert not names_clearly_differ(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ada Quill", "Ben Ortiz"),
        ("test", "Richard Hendriks"),
        ("A. Q.", "Ben Ortiz"),
        ("田中 花子", "佐藤 健"),
        ("Al Bo", "Alice Bond"),  # two-letter words are not read as the start of longer ones
    ],
)
def test_names_of_two_people_clearly_differ(first, second):
    assert names_clearly_differ(first, second)
    assert names_clearly_differ(second, first)


@pytest.mark.parametrize(
    ("url", "work_sites", "companies"),
    [
        ("https://globex.example", ["http://www.globex.example/"], []),
        ("https://globex.example/", ["https://careers.globex.example/jobs"], []),
        ("https://copilot.github.com", ["https://github.com/features/copilot"], []),
        ("https://globex.example", [], ["Globex Inc."]),
        ("https://www.globex.co.uk", [], ["Globex Ltd"]),
        ("https://globex.example", [], ["globex.example"]),
        ("", [], []),
    ],
)
def test_an_employers_site_is_no_personal_identifier(url, work_sites, companies):
    assert not personal_site(url, work_sites=work_sites, companies=companies)


@pytest.mark.parametrize(
    ("url", "work_sites", "companies"),
    [
        ("https://tove.example.org", ["https://harbourlight.example.com"], ["Harbourlight AB", "Kvarnen Data"]),
        ("https://ada.github.io", ["https://globex.github.io"], ["Globex"]),
        ("https://ada.dev", [], ["Ada Health"]),
    ],
)
def test_a_personal_site_stays_one(url, work_sites, companies):
    assert personal_site(url, work_sites=work_sites, companies=companies)
