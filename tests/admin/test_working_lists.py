"""Shortlists (entries with status and notes, CSV export) and saved searches (count and links)."""

import csv
import io

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.urls import reverse

from profiles.models import SavedSearch, Shortlist, ShortlistEntry
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory, UserFactory

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
    assert list(entry.events.values_list("kind", "from_status", "to_status", "author")) == [
        ("stage", "contacted", "interviewing", shortlist.owner_id)
    ]


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


# --- Issue 15, hole 8: shortlists and saved searches are their owner's, unless shared with the team ----------------


@pytest.fixture
def colleague(groups):
    user = UserFactory(username="ralph", is_staff=True)
    user.groups.add(groups["Recruiter"])
    return user


@pytest.fixture
def colleague_client(colleague) -> Client:
    client = Client()
    client.force_login(colleague)
    return client


def inline_management(prefix: str = "entries", initial: int = 0) -> dict:
    return {
        f"{prefix}-TOTAL_FORMS": str(initial),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def test_another_recruiters_private_shortlist_cannot_be_opened_exported_renamed_or_deleted(colleague_client, shortlist):
    """Issue 15, hole 8: one recruiter opened, exported and renamed another's shortlist, confidential note included."""
    entry = shortlist.entries.get()
    change = reverse("admin:profiles_shortlist_change", args=[shortlist.pk])

    listing = colleague_client.get(reverse("admin:profiles_shortlist_changelist"))
    page = colleague_client.get(change)
    export = colleague_client.get(reverse("admin:profiles_shortlist_export", args=[shortlist.pk]))
    action = colleague_client.post(
        reverse("admin:profiles_shortlist_changelist"), {"action": "export_csv", ACTION_CHECKBOX_NAME: [shortlist.pk]}
    )
    rename = colleague_client.post(change, {"name": "Mine now", "description": "", **inline_management()})
    delete = colleague_client.post(reverse("admin:profiles_shortlist_delete", args=[shortlist.pk]), {"post": "yes"})
    entries = colleague_client.get(reverse("admin:profiles_shortlistentry_changelist"))
    entry_page = colleague_client.get(reverse("admin:profiles_shortlistentry_change", args=[entry.pk]))

    assert list(listing.context["cl"].result_list) == []
    assert page.status_code == 302  # "no such shortlist": not even shown to exist
    assert export.status_code == 404
    assert csv_rows(action) == []  # the action runs on the lists the user may read: none of those selected
    assert (rename.status_code, delete.status_code) == (302, 302)  # as for a list that does not exist
    assert list(entries.context["cl"].result_list) == []
    assert entry_page.status_code == 302
    for response in (listing, page, entries, entry_page):
        assert "call back" not in response.content.decode()
    shortlist.refresh_from_db()
    assert shortlist.name == "Backend Berlin"


def test_a_shared_shortlist_is_read_by_the_team_and_changed_only_by_its_owner(
    colleague_client, recruiter_client, shortlist
):
    """Issue 15, hole 8: "shared with the team" opens a list to every colleague for reading, not for writing."""
    shortlist.shared = True
    shortlist.save()
    entry = shortlist.entries.get()
    change = reverse("admin:profiles_shortlist_change", args=[shortlist.pk])

    page = colleague_client.get(change)
    export = colleague_client.get(reverse("admin:profiles_shortlist_export", args=[shortlist.pk]))
    rename = colleague_client.post(change, {"name": "Mine now", "description": "", **inline_management()})
    status = colleague_client.post(
        reverse("admin:profiles_shortlistentry_changelist"),
        {**inline_management("form", 1), "form-0-id": entry.pk, "form-0-status": "hired", "_save": "Save"},
    )
    delete = colleague_client.post(reverse("admin:profiles_shortlist_delete", args=[shortlist.pk]), {"post": "yes"})
    owner_rename = recruiter_client.post(
        change, {"name": "Backend Berlin (2)", "description": "", "shared": "on", **inline_management()}
    )

    assert page.status_code == 200
    assert "call back" in page.content.decode()
    assert 'name="_save"' not in page.content.decode()
    assert [r["name"] for r in csv_rows(export)] == ["Ada Quill"]
    assert (rename.status_code, status.status_code, delete.status_code) == (403, 403, 403)
    assert owner_rename.status_code == 302
    shortlist.refresh_from_db()
    entry.refresh_from_db()
    assert (shortlist.name, entry.status) == ("Backend Berlin (2)", "contacted")


def test_add_to_shortlist_offers_only_the_lists_the_user_may_write(colleague_client, colleague, shortlist):
    """Issue 15, hole 8: the candidate action adds to one's own shortlists only, even when another's id is posted."""
    shortlist.shared = True
    shortlist.save()
    own = Shortlist.objects.create(owner=colleague, name="Ralph's list")
    ben = CandidateFactory(name="Ben Ortiz")
    url = reverse("admin:profiles_candidate_changelist")
    selection = {"action": "add_to_shortlist", ACTION_CHECKBOX_NAME: [ben.pk]}

    page = colleague_client.post(url, selection)
    forged = colleague_client.post(url, {**selection, "apply": "1", "shortlist": shortlist.pk})

    assert list(page.context["form"].fields["shortlist"].queryset) == [own]
    assert forged.status_code == 200  # the form again, with an error
    assert not shortlist.entries.filter(candidate=ben).exists()


def test_another_recruiters_private_saved_search_is_hidden_and_a_shared_one_is_read_only(
    colleague_client, recruiter, saved
):
    """Issue 15, hole 8: a recruiter edited another's saved search."""
    shared = SavedSearch.objects.create(owner=recruiter, name="Go in France", query="skill=go", shared=True)
    listing = colleague_client.get(reverse("admin:profiles_savedsearch_changelist"))
    private_page = colleague_client.get(reverse("admin:profiles_savedsearch_change", args=[saved.pk]))
    edit_private = colleague_client.post(
        reverse("admin:profiles_savedsearch_change", args=[saved.pk]), {"name": "Mine", "query": "skill=go"}
    )
    shared_page = colleague_client.get(reverse("admin:profiles_savedsearch_change", args=[shared.pk]))
    edit_shared = colleague_client.post(
        reverse("admin:profiles_savedsearch_change", args=[shared.pk]), {"name": "Mine", "query": "skill=rust"}
    )

    assert list(listing.context["cl"].result_list) == [shared]
    assert private_page.status_code == 302
    assert shared_page.status_code == 200
    assert 'name="_save"' not in shared_page.content.decode()
    assert (edit_private.status_code, edit_shared.status_code) == (302, 403)  # private: as if it did not exist
    assert list(SavedSearch.objects.order_by("pk").values_list("name", "query")) == [
        ("Python in Germany", "skill=python:8&country=DE"),
        ("Go in France", "skill=go"),
    ]


def test_a_superuser_sees_every_working_list(client, shortlist, saved):
    """Issue 15, hole 8: superusers administer everyone's lists."""
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))

    shortlists = client.get(reverse("admin:profiles_shortlist_changelist"))
    searches = client.get(reverse("admin:profiles_savedsearch_changelist"))

    assert list(shortlists.context["cl"].result_list) == [shortlist]
    assert list(searches.context["cl"].result_list) == [saved]


def test_a_stage_change_in_the_shortlist_page_inline_is_recorded_as_an_event(recruiter_client, shortlist):
    entry = shortlist.entries.get()
    response = recruiter_client.post(
        reverse("admin:profiles_shortlist_change", args=[shortlist.pk]),
        {
            "name": shortlist.name,
            "description": "",
            **inline_management(initial=1),
            "entries-0-id": entry.pk,
            "entries-0-shortlist": shortlist.pk,
            "entries-0-candidate": entry.candidate_id,
            "entries-0-status": "replied",
            "entries-0-notes": entry.notes,
            "_save": "Save",
        },
    )

    assert response.status_code == 302
    assert list(entry.events.values_list("kind", "from_status", "to_status")) == [("stage", "contacted", "replied")]


def test_an_entry_page_shows_its_history_read_only(recruiter_client, shortlist):
    from profiles import services

    entry = shortlist.entries.get()
    services.shortlist_entry_note(entry=entry, text="Called back on Monday.", user=shortlist.owner)

    page = recruiter_client.get(reverse("admin:profiles_shortlistentry_change", args=[entry.pk])).content.decode()

    assert "history of this entry" in page.lower()
    assert "Called back on Monday." in page
    assert 'name="events-0-note"' not in page
