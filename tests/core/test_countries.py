"""Countries: ISO codes from names and codes, display names."""

import pytest

from core.countries import country_code, country_name


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("United States", "US"),
        ("Germany", "DE"),
        ("USA", "US"),
        ("U.S.A.", "US"),
        ("UK", "GB"),
        ("United Kingdom", "GB"),
        ("Russia", "RU"),
        ("South Korea", "KR"),
        ("Turkey", "TR"),
        ("Viet Nam", "VN"),
        ("Vietnam", "VN"),
        ("Côte d’Ivoire", "CI"),
        ("DEU", "DE"),
        ("de", "DE"),
        ("FR", "FR"),
        ("  france ", "FR"),
        ("Atlantis", ""),
        ("", ""),
        ("XX", ""),
    ],
)
def test_country_code(given, code):
    assert country_code(given) == code


def test_country_code_without_codes_reads_names_only():
    assert country_code("CA") == "CA"
    assert country_code("CA", allow_codes=False) == ""
    assert country_code("Canada", allow_codes=False) == "CA"


@pytest.mark.parametrize(
    ("code", "name"),
    [("US", "United States"), ("de", "Germany"), ("KR", "South Korea"), ("RU", "Russia"), ("ZZ", ""), ("", "")],
)
def test_country_name(code, name):
    assert country_name(code) == name
