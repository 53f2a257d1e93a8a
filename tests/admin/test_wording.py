"""Issue 17's wording: a list says how many rows it has once ("17 candidates"), and "N results (Show all)" only when
a search or a filter narrowed it; a history row without a change reason shows a dash, not "None"."""

import re

import pytest
from django.urls import reverse

from ingestion.models import SourceFile
from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from tests.factories import CandidateFactory, ContributionFactory, SourceFileFactory

pytestmark = pytest.mark.django_db


def search_bar(html: str) -> str:
    return html.split('id="changelist-search"')[1].split("</form>")[0]


def paginator(html: str) -> str:
    return " ".join(html.split('<p class="paginator">')[1].split("</p>")[0].split())


@pytest.fixture
def files():
    SourceFileFactory(original_name="a.txt", status=SourceFile.Status.FAILED, error="Not a profile.")
    SourceFileFactory(original_name="b.txt", status=SourceFile.Status.IMPORTED)


def test_an_unfiltered_list_that_does_not_count_everything_says_its_size_once(recruiter_client, files):
    html = recruiter_client.get(reverse("admin:ingestion_sourcefile_changelist")).content.decode()

    assert "Show all" not in html
    assert "result" not in search_bar(html)
    assert paginator(html) == "2 source files"


def test_a_filtered_list_says_how_many_matched_and_offers_all_of_them(recruiter_client, files):
    url = reverse("admin:ingestion_sourcefile_changelist")

    by_filter = recruiter_client.get(url, {"status__exact": "failed"}).content.decode()
    by_search = recruiter_client.get(url, {"q": "b.txt"}).content.decode()

    for html in (by_filter, by_search):
        assert re.search(r"1 result\s*\(<a href=\"\?\">Show all</a>\)", search_bar(html))


def test_the_contribution_list_unfiltered_shows_no_result_count_in_its_search_bar(admin_client):
    ContributionFactory()

    html = admin_client.get(reverse("admin:profiles_contribution_changelist")).content.decode()

    assert "Show all" not in html
    assert "result" not in search_bar(html)


def test_the_unfiltered_candidate_list_says_just_how_many_candidates(admin_client):
    CandidateFactory.create_batch(3)

    html = admin_client.get(reverse("admin:profiles_candidate_changelist")).content.decode()

    assert "Show all" not in html
    assert "result" not in search_bar(html)
    assert paginator(html) == "3 candidates"


def test_a_candidate_search_says_how_many_matched(admin_client):
    CandidateFactory(name="Ada Quill")
    CandidateFactory(name="Ben Ortiz")
    candidates_refresh_search_columns(candidate_ids=Candidate.objects.values_list("pk", flat=True))

    html = admin_client.get(reverse("admin:profiles_candidate_changelist"), {"q": "Quill"}).content.decode()

    assert re.search(r"\b1 result\b", search_bar(html))
    assert paginator(html) == "1 candidate"


def test_a_large_candidate_list_still_says_about_when_it_is_an_estimate(admin_client, monkeypatch):
    from db import counting
    from profiles.admin.candidates import CandidateAdmin

    CandidateFactory.create_batch(3)
    monkeypatch.setattr(counting, "table_row_estimate", lambda model: 1_200_000)  # the planner, of a big table
    monkeypatch.setattr(CandidateAdmin, "list_per_page", 2)  # a full first page: the estimate stands

    html = admin_client.get(reverse("admin:profiles_candidate_changelist")).content.decode()

    assert re.search(r"about 1200000</span> candidates", paginator(html))
    assert "result" not in search_bar(html)


def history_cells(html: str, css_class: str) -> list[str]:
    return [" ".join(cell.split()) for cell in re.findall(rf'<td class="{css_class}">(.*?)</td>', html, re.S)]


def test_a_history_row_without_a_change_reason_or_a_user_shows_a_dash(admin_client, admin_user):
    candidate = CandidateFactory(name="Ada Quill")  # saved outside any request: no user, no reason
    candidate.title = "Staff Engineer"
    candidate._change_reason = "Merged Ada Q."
    candidate.save()

    html = admin_client.get(reverse("admin:profiles_candidate_history", args=[candidate.pk])).content.decode()

    assert history_cells(html, "history-change-reason") == ["Merged Ada Q.", "—"]  # newest first
    assert history_cells(html, "history-user") == ["—", "—"]
    assert "None" not in html.split('id="change-history"')[1].split("</table>")[0]
