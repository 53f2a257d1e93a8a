"""Shortlists (entries with status and notes, CSV export) and saved searches (count and links)."""

import csv
import io

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from profiles.models import SavedSearch, Shortlist, ShortlistEntry
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def shortlist(recruiter):
    shortlist = Shortlist.objects.create(owner=recruiter, name="Backend Berlin")
    ada = CandidateFactory(name="Ada Quill")
    CandidateSkillFactory(candidate=ada, skill=SkillFactory(slug="go"), score=8)
    ShortlistEntry.objects.create(shortlist=shortlist, candidate=ada, status="contacted", notes="=2+2 call back")
    return shortlist


def csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_a_shortlist_shows_its_entries_with_status_and_notes(recruiter_client, shortlist):
    listing = recruiter_client.get(reverse("admin:profiles_shortlist_changelist"))
    page = recruiter_client.get(reverse("admin:profiles_shortlist_change", args=[shortlist.pk]))

    assert listing.context["cl"].result_list[0].entry_count == 1
    html = page.content.decode()
    assert "Ada Quill" in html
    assert "=2+2 call back" in html
    assert reverse("admin:profiles_shortlist_export", args=[shortlist.pk]) in html


def test_a_shortlist_exports_as_csv(recruiter_client, shortlist):
    response = recruiter_client.get(reverse("admin:profiles_shortlist_export", args=[shortlist.pk]))

    [row] = csv_rows(response)
    assert (row["shortlist"], row["name"], row["status"], row["notes"], row["skills"]) == (
        "Backend Berlin",
        "Ada Quill",
        "Contacted",
        "'=2+2 call back",
        "go:8",
    )


def test_the_export_action_writes_every_selected_shortlist(recruiter_client, shortlist, recruiter):
    other = Shortlist.objects.create(owner=recruiter, name="Another")
    ShortlistEntry.objects.create(shortlist=other, candidate=CandidateFactory(name="Ben Ortiz"))

    response = recruiter_client.post(
        reverse("admin:profiles_shortlist_changelist"),
        {"action": "export_csv", ACTION_CHECKBOX_NAME: [shortlist.pk, other.pk]},
    )

    assert [(r["shortlist"], r["name"]) for r in csv_rows(response)] == [
        ("Another", "Ben Ortiz"),
        ("Backend Berlin", "Ada Quill"),
    ]


def test_a_new_shortlist_belongs_to_whoever_creates_it(recruiter_client, recruiter):
    response = recruiter_client.post(
        reverse("admin:profiles_shortlist_add"),
        {
            "name": "Frontend",
            "description": "",
            "entries-TOTAL_FORMS": "0",
            "entries-INITIAL_FORMS": "0",
            "entries-MIN_NUM_FORMS": "0",
            "entries-MAX_NUM_FORMS": "1000",
        },
    )

    assert response.status_code == 302
    assert Shortlist.objects.get(name="Frontend").owner == recruiter


def test_entry_status_is_editable_from_the_entry_list(recruiter_client, shortlist):
    entry = shortlist.entries.get()
    response = recruiter_client.post(
        reverse("admin:profiles_shortlistentry_changelist"),
        {
            "form-TOTAL_FORMS": "1",
            "form-INITIAL_FORMS": "1",
            "form-MIN_NUM_FORMS": "0",
            "form-MAX_NUM_FORMS": "1000",
            "form-0-id": entry.pk,
            "form-0-status": "interviewing",
            "_save": "Save",
        },
    )

    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == "interviewing"


@pytest.fixture
def saved(recruiter):
    python = SkillFactory(slug="python")
    for score, country in [(9, "DE"), (8, "DE"), (9, "FR"), (3, "DE")]:
        CandidateSkillFactory(skill=python, score=score, candidate=CandidateFactory(country_code=country))
    return SavedSearch.objects.create(owner=recruiter, name="Python in Germany", query="skill=python:8&country=DE")


def test_a_saved_search_shows_how_many_match_and_links_to_admin_api_and_export(recruiter_client, saved):
    html = recruiter_client.get(reverse("admin:profiles_savedsearch_changelist")).content.decode()

    assert '<td class="field-matches">2</td>' in html
    assert f"{reverse('admin:profiles_candidate_changelist')}?skill=python%3A8&amp;country=DE" in html
    assert "/api/v1/candidates/?skill=python%3A8&amp;country=DE" in html
    assert "/api/v1/candidates/export.csv?skill=python%3A8&amp;country=DE" in html


def test_the_admin_link_of_a_saved_search_lists_the_same_candidates(recruiter_client, saved):
    response = recruiter_client.get(reverse("admin:profiles_candidate_changelist") + "?" + saved.query)

    assert len(response.context["cl"].result_list) == 2


def test_a_saved_search_with_a_bad_filter_is_refused_in_plain_words(recruiter_client):
    response = recruiter_client.post(
        reverse("admin:profiles_savedsearch_add"), {"name": "Broken", "query": "skill=python:11&colour=blue"}
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "Unknown parameter(s): colour" in html
    assert not SavedSearch.objects.exists()


def test_the_candidate_picker_of_a_shortlist_finds_people_by_the_start_of_their_words(recruiter_client):
    from profiles.search import candidates_refresh_search_columns

    wanted, other = CandidateFactory(name="Jinliang Wei"), CandidateFactory(name="Casey Lowe")
    candidates_refresh_search_columns(candidate_ids=[wanted.pk, other.pk])

    response = recruiter_client.get(
        reverse("admin:autocomplete"),
        {"app_label": "profiles", "model_name": "shortlistentry", "field_name": "candidate", "term": "jinl we"},
    )

    assert [r["text"] for r in response.json()["results"]] == ["Jinliang Wei"]
