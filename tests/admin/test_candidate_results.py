"""The candidate search results a recruiter acts on: the match and the asked-for skills' scores, ordered by match;
every active filter a removable chip; facets with counts; "Save this search"; "Add to job" and "Add to shortlist"
for a row and for a selection."""

import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.cache import cache
from django.urls import reverse

from jobs import services as job_services
from profiles.models import Shortlist, ShortlistEntry
from profiles.search import candidates_refresh_search_columns
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db
URL = reverse("admin:profiles_candidate_changelist")


@pytest.fixture
def people():
    python, go = SkillFactory(slug="python", name="Python"), SkillFactory(slug="go", name="Go")
    ada = CandidateFactory(name="Ada Quill", country_code="DE", years_coding=12, badges=["Rockstar"], summary="")
    ben = CandidateFactory(name="Ben Ortiz", country_code="FR", years_coding=4, badges=[], summary="")
    cy = CandidateFactory(name="Cy Moreau", country_code="FR", years_coding=7, badges=[], summary="")
    CandidateSkillFactory(candidate=ada, skill=python, score=8)
    CandidateSkillFactory(candidate=ada, skill=go, score=2)
    CandidateSkillFactory(candidate=ben, skill=python, score=9)
    CandidateSkillFactory(candidate=ben, skill=go, score=9)
    CandidateSkillFactory(candidate=cy, skill=python, score=6)
    candidates_refresh_search_columns(candidate_ids=[ada.pk, ben.pk, cy.pk])
    cache.clear()  # the facets of the whole database are cached
    return {"ada": ada, "ben": ben, "cy": cy}


def rows(response) -> list[str]:
    assert response.status_code == 200, response.content[:500]
    return [c.name for c in response.context["cl"].result_list]


def test_a_skill_search_is_ordered_by_match_and_shows_the_match_and_the_asked_for_scores(admin_client, people):
    response = admin_client.get(URL, {"skill": ["python:5", "go"]})
    html = response.content.decode()

    assert rows(response) == ["Ben Ortiz", "Ada Quill"]  # (9+9)/2, (8+2)/2; Cy lacks Go
    assert "column-match" in html
    assert '<span class="match">90</span>' in html
    ben_row = re.search(r"<tr>(?:(?!<tr>).)*?Ben Ortiz.*?</tr>", html, re.S).group(0)
    assert "Python <b>9</b>" in ben_row
    assert "Go <b>9</b>" in ben_row


def test_a_skill_the_candidate_lacks_reads_as_a_dash(admin_client, people):
    response = admin_client.get(URL, {"any_skill": "go,python"})
    html = response.content.decode()

    assert rows(response)[-1] == "Cy Moreau"
    cy_row = re.search(r"<tr>(?:(?!<tr>).)*?Cy Moreau.*?</tr>", html, re.S).group(0)
    assert "Go <b>–</b>" in cy_row
    assert "Python <b>6</b>" in cy_row


def test_a_column_header_click_still_orders_a_skill_search(admin_client, people):
    response = admin_client.get(URL, {"skill": "python", "o": "1"})  # by name

    assert rows(response) == ["Ada Quill", "Ben Ortiz", "Cy Moreau"]


def test_without_skills_there_is_no_match_column_and_dates_are_iso(admin_client, people):
    html = admin_client.get(URL).content.decode()

    assert "column-match" not in html
    assert re.search(r'<td class="field-updated">\d{4}-\d{2}-\d{2}</td>', html)


def test_every_filter_in_the_address_is_a_chip_that_removes_only_itself(admin_client, people):
    response = admin_client.get(
        URL, {"skill": ["python:5", "go"], "min_years_coding": "5", "title": "engineer", "country": "fr"}
    )
    chips = {(chip.label, chip.value): chip.remove_url for chip in response.context["cl"].chips}

    assert set(chips) == {
        ("skill", "python ≥ 5"),
        ("skill", "go"),
        ("years coding at least", "5"),
        ("title", "engineer"),
        ("country", "France (FR)"),
    }
    without_go = admin_client.get(chips[("skill", "go")])
    assert [(c.label, c.value) for c in without_go.context["cl"].chips if c.label == "skill"] == [
        ("skill", "python ≥ 5")
    ]
    html = response.content.decode()
    assert 'id="active-filters"' in html
    assert html.count('class="chip-remove"') == 5


def test_chip_values_are_escaped(admin_client, people):
    html = admin_client.get(URL, {"title": "<script>x</script>"}).content.decode()

    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html


def test_facets_count_the_whole_database_unfiltered_and_the_search_when_filtered(admin_client, people):
    html = admin_client.get(URL).content.decode()
    assert re.search(r'France \(FR\) <span class="facet-count"[^>]*>2</span>', html)
    assert re.search(r'Germany \(DE\) <span class="facet-count"[^>]*>1</span>', html)

    html = admin_client.get(URL, {"min_years_coding": "5"}).content.decode()
    assert re.search(r'France \(FR\) <span class="facet-count"[^>]*>1</span>', html)
    assert re.search(r'Rockstar <span class="facet-count"[^>]*>1</span>', html)


def test_save_this_search_opens_the_saved_search_form_with_the_filters(admin_client, people):
    response = admin_client.get(URL, {"skill": "python:5", "country": "FR"})
    url = response.context["save_search_url"]

    form = admin_client.get(url)
    assert form.status_code == 200
    assert form.context["adminform"].form.initial["query"] == "skill=python%3A5&country=FR"
    assert admin_client.get(URL).context["save_search_url"] is None  # nothing to save


def test_a_row_adds_one_candidate_to_a_shortlist_and_comes_back(recruiter_client, recruiter, people):
    mine = Shortlist.objects.create(owner=recruiter, name="Backend")
    ada = people["ada"]
    page = recruiter_client.get(reverse("admin:profiles_candidate_add_to_shortlist", args=[ada.pk]))
    html = page.content.decode()
    assert "Backend" in html
    assert f'action="{URL}"' in html

    response = recruiter_client.post(
        URL,
        {
            "action": "add_to_shortlist",
            ACTION_CHECKBOX_NAME: [ada.pk],
            "apply": "1",
            "shortlist": mine.pk,
            "next": reverse("admin:profiles_candidate_change", args=[ada.pk]),
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("admin:profiles_candidate_change", args=[ada.pk])
    assert list(ShortlistEntry.objects.filter(shortlist=mine).values_list("candidate__name", flat=True)) == [
        "Ada Quill"
    ]


def test_add_to_job_offers_only_the_users_jobs_and_adds_the_selection_to_the_pipeline(
    recruiter_client, recruiter, people
):
    Shortlist.objects.create(owner=recruiter, name="Backend")
    job = job_services.job_create(user=recruiter, title="Go engineer", description="Requirements: Go.").job

    page = recruiter_client.post(URL, {"action": "add_to_job", ACTION_CHECKBOX_NAME: [people["ben"].pk]})
    choices = [label for _, label in page.context["form"].fields["shortlist"].choices]
    assert choices == [job.pipeline.name]

    recruiter_client.post(
        URL,
        {
            "action": "add_to_job",
            ACTION_CHECKBOX_NAME: [people["ben"].pk, people["cy"].pk],
            "apply": "1",
            "shortlist": job.pipeline.pk,
        },
    )

    assert sorted(job.pipeline.entries.values_list("candidate__name", flat=True)) == ["Ben Ortiz", "Cy Moreau"]
    shortlist_page = recruiter_client.post(
        URL, {"action": "add_to_shortlist", ACTION_CHECKBOX_NAME: [people["ben"].pk]}
    )
    assert job.pipeline.name not in [label for _, label in shortlist_page.context["form"].fields["shortlist"].choices]


def test_a_viewer_has_no_add_buttons_and_may_not_open_the_add_page(viewer_client, people):
    html = viewer_client.get(URL).content.decode()
    assert "row-add" not in html

    response = viewer_client.get(reverse("admin:profiles_candidate_add_to_job", args=[people["ada"].pk]))
    assert response.status_code == 403


def test_next_off_the_site_is_ignored(recruiter_client, recruiter, people):
    mine = Shortlist.objects.create(owner=recruiter, name="Backend")

    response = recruiter_client.post(
        URL,
        {
            "action": "add_to_shortlist",
            ACTION_CHECKBOX_NAME: [people["ada"].pk],
            "apply": "1",
            "shortlist": mine.pk,
            "next": "https://elsewhere.example/",
        },
    )

    assert response.status_code == 302
    assert "elsewhere" not in response["Location"]


def test_the_profile_has_add_to_job_and_add_to_shortlist_for_a_recruiter(recruiter_client, people):
    url = reverse("admin:profiles_candidate_change", args=[people["ada"].pk])

    html = recruiter_client.get(url).content.decode()

    assert 'id="profile-add-to-job"' in html
    assert reverse("admin:profiles_candidate_add_to_shortlist", args=[people["ada"].pk]) in html


def test_a_viewers_profile_has_no_add_buttons(viewer_client, people):
    url = reverse("admin:profiles_candidate_change", args=[people["ada"].pk])

    assert "profile-add-to-job" not in viewer_client.get(url).content.decode()
