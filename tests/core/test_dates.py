"""Dates and durations as profile files write them."""

import pytest

from core.dates import months_from_duration, months_worked, parse_month


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


@pytest.mark.parametrize(
    ("text", "month"),
    [("2020-1-5", "2020-01"), ("2017-1-9", "2017-01"), ("2021-2-28", "2021-02"), (" ", None), ("2020-2-30", "2020-02")],
)
def test_parse_month_reads_yyyy_m_d(text, month):
    """Issue 14: YYYY, YYYY-MM, YYYY-M-D and empty values are read."""
    assert parse_month(text) == month


TODAY = "2026-06"


@pytest.mark.parametrize(
    ("ranges", "months"),
    [
        ([], 0),
        ([("2020-01", "2020-12")], 12),  # both months counted
        ([("2020-01", None)], 78),  # open-ended: to this month
        ([("2020-01", "2021-12"), ("2021-01", "2021-06")], 24),  # overlapping: counted once
        ([("2020-01", "2020-06"), ("2020-07", "2020-12")], 12),  # adjacent
        ([("2020-01", "2020-03"), ("2022-01", "2022-03")], 6),  # a gap is not worked
        ([("2025-11", "2025-01")], 11),  # an inverted range: the months between
        ([("2027-01", None), ("2030-01", "2031-01")], 0),  # the future is not worked yet
        ([("2026-01", "2027-12")], 6),  # to this month
    ],
)
def test_months_worked_counts_overlaps_once(ranges, months):
    """Issue 14: years employed counted from the earliest start to today, not the time actually worked."""
    assert months_worked(ranges, today=TODAY) == months
