"""Each date form a CV writes, as the reader reads it: "YYYY-MM" months (January for a year alone), current when it
runs to now."""

import pytest

from ingestion.parsers.cv.dates import find_range


@pytest.mark.parametrize(
    ("text", "start", "end", "current"),
    [
        ("Mar 2021 – Present", "2021-03", None, True),
        ("04/2020 - heute", "2020-04", None, True),
        ("2020 – oggi", "2020-01", None, True),
        ("January 2022 to present", "2022-01", None, True),
        ("2016-2020", "2016-01", "2020-01", False),
        ("seit 03.2019", "2019-03", None, True),
        ("janv. 2019 – aujourd'hui", "2019-01", None, True),
        ("desde enero de 2020", "2020-01", None, True),
        ("marzo 2018 - actualidad", "2018-03", None, True),
        ("setembro 2019 - atual", "2019-09", None, True),
        ("März 2018 – Juni 2020", "2018-03", "2020-06", False),
        ("2019-03 - 2021-11", "2019-03", "2021-11", False),
        ("Staff Engineer, Quillfeather (Mar 2021 – Present)", "2021-03", None, True),
    ],
)
def test_date_forms(text, start, end, current):
    found = find_range(text)
    assert (found.start, found.end, found.is_current) == (start, end, current)


@pytest.mark.parametrize("text", ["+49 170 2020 2021", "Shipped release 2.0 to 40 teams", "Room 2019, floor 3", ""])
def test_no_range_where_there_is_none(text):
    assert find_range(text) is None
