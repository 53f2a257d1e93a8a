"""Dates and durations as profile files write them."""

import pytest

from core.dates import months_from_duration, parse_month


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("May 2020", "2020-05"),
        ("Dec 2022", "2022-12"),
        ("September 2019", "2019-09"),
        ("Sept 2019", "2019-09"),
        ("2020-05", "2020-05"),
        ("2020-05-17", "2020-05"),
        ("2020", "2020-01"),
        ("05/2020", "2020-05"),
        ("2023-04-01T00:00:00Z", "2023-04"),
        ("Present", None),
        ("", None),
        ("2020-13", None),
        ("Smarch 2020", None),
        ("2013-12-021", None),
    ],
)
def test_parse_month(text, month):
    assert parse_month(text) == month


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("2 years 6 months", 30),
        ("2 years 8 months", 32),
        ("1 year", 12),
        ("1 month", 1),
        ("7 months", 7),
        ("4 years 2 months", 50),
        ("a year", 12),
        ("", None),
        ("forever", None),
    ],
)
def test_months_from_duration(text, months):
    assert months_from_duration(text) == months
