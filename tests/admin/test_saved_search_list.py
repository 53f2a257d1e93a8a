"""The saved searches list shows each search's filters as a recruiter reads them ("search “python django” · country
United Kingdom (GB)"), as the candidate list's chips say them, not as the address stores them
("q=python%20django&country=GB"); every value escaped, a long search cut short."""

import re

import pytest
from django.urls import reverse

from profiles.models import SavedSearch

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:profiles_savedsearch_changelist")


def filters_cell(html: str) -> str:
    return re.search(r'<td class="field-filters">(.*?)</td>', html, re.S).group(1)


def test_a_saved_search_reads_as_its_filters_not_as_its_address(recruiter_client, recruiter):
    SavedSearch.objects.create(
        owner=recruiter, name="Python in GB", query="q=python%20django&country=GB&skill=go:7&min_years_coding=5"
    )

    html = recruiter_client.get(CHANGELIST).content.decode()

    assert filters_cell(html) == (
        "search “python django” · country United Kingdom (GB) · skill go ≥ 7 · years coding at least 5"
    )
    assert "python%20django" not in html.replace("q=python%20django", "")  # only the links keep the address


def test_what_a_saved_search_holds_is_escaped(recruiter_client, recruiter):
    SavedSearch.objects.create(owner=recruiter, name="Odd", query="q=%3Cscript%3Ealert(1)%3C/script%3E")

    cell = filters_cell(recruiter_client.get(CHANGELIST).content.decode())

    assert "<script>" not in cell
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in cell


def test_a_long_saved_search_names_its_first_filters_and_counts_the_rest(recruiter_client, recruiter):
    SavedSearch.objects.create(owner=recruiter, name="Many", query="&".join(f"skill=s{n}" for n in range(40)))

    cell = filters_cell(recruiter_client.get(CHANGELIST).content.decode())

    assert cell == "skill s0 · skill s1 · skill s2 · skill s3 · skill s4 · skill s5, +34 more"


def test_a_saved_search_without_filters_shows_a_dash(recruiter_client, recruiter):
    SavedSearch.objects.create(owner=recruiter, name="Everyone", query="ordering=-id")

    assert filters_cell(recruiter_client.get(CHANGELIST).content.decode()) == "—"


def matches_cell(html: str) -> str:
    return re.search(r'<td class="field-matches">(.*?)</td>', html, re.S).group(1)


def test_a_saved_search_with_a_filter_this_version_does_not_know_says_so_in_one_line(recruiter_client, recruiter):
    SavedSearch.objects.create(owner=recruiter, name="Older", query="q=python&legacy_<filter>=1")

    cell = matches_cell(recruiter_client.get(CHANGELIST).content.decode())

    assert cell == "Uses a filter this version does not know: legacy_&lt;filter&gt;"
    assert "Known parameters" not in cell


def test_a_saved_search_with_several_unknown_filters_names_each(recruiter_client, recruiter):
    SavedSearch.objects.create(owner=recruiter, name="Older", query="colour=blue&legacy=1&skill=go")

    cell = matches_cell(recruiter_client.get(CHANGELIST).content.decode())

    assert cell == "Uses filters this version does not know: colour, legacy"


def test_a_saved_search_with_a_bad_value_says_which_filter(recruiter_client, recruiter):
    SavedSearch.objects.create(owner=recruiter, name="Too high", query="skill=python:11")

    cell = matches_cell(recruiter_client.get(CHANGELIST).content.decode())

    assert cell.startswith("invalid: skill: ")


def test_the_headers_are_short(recruiter_client, recruiter):
    SavedSearch.objects.create(owner=recruiter, name="Go", query="skill=go", shared=True)

    html = recruiter_client.get(CHANGELIST).content.decode()

    headers = [
        " ".join(re.sub(r"<[^>]+>", "", th).split())
        for th in re.findall(r'<th scope="col" class="[^"]*column-[^"]*">(.*?)</th>', html, re.S)
    ]
    assert headers == ["Name", "Owner", "Shared", "Filters", "Matches", "Open"]
