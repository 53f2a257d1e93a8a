"""Issue 15, hole 6, in saved searches: a query past the skill-term cap is refused when saved, and one stored before
(or written to the table directly) shows its error in the admin instead of making every saved-search page a 500."""

import pytest
from django.urls import reverse

from profiles.models import SavedSearch
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db

TOO_MANY = "&".join(["skill=go"] * 200)
CAP_MESSAGE = (
    "Too many skill terms: 200. A request may hold at most 50 (SEARCH_MAX_TERMS), counting skill, any_skill and "
    "exclude_skill together."
)


def test_a_query_past_the_cap_is_refused_when_saved(recruiter_client):
    response = recruiter_client.post(reverse("admin:profiles_savedsearch_add"), {"name": "Gophers", "query": TOO_MANY})

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["query"] == [CAP_MESSAGE]
    assert not SavedSearch.objects.exists()


def test_a_query_at_the_cap_is_saved(recruiter_client, recruiter):
    query = "&".join(["skill=go"] * 50)

    response = recruiter_client.post(reverse("admin:profiles_savedsearch_add"), {"name": "Gophers", "query": query})

    assert response.status_code == 302
    assert list(SavedSearch.objects.values_list("owner", "query")) == [(recruiter.pk, query)]


def test_a_stored_query_past_the_cap_shows_its_error_in_the_list_and_on_its_page(recruiter_client, recruiter):
    CandidateSkillFactory(candidate=CandidateFactory(), skill=SkillFactory(slug="go"), score=8)
    broken = SavedSearch.objects.create(owner=recruiter, name="Stored before the cap", query=TOO_MANY)
    fine = SavedSearch.objects.create(owner=recruiter, name="Gophers", query="skill=go")

    changelist = recruiter_client.get(reverse("admin:profiles_savedsearch_changelist"))
    change = recruiter_client.get(reverse("admin:profiles_savedsearch_change", args=[broken.pk]))

    assert changelist.status_code == 200
    html = changelist.content.decode()
    assert f'<td class="field-matches">invalid: {CAP_MESSAGE}</td>' in html
    assert '<td class="field-matches">1</td>' in html  # the valid one beside it still counts
    assert change.status_code == 200
    assert f"invalid: {CAP_MESSAGE}" in change.content.decode()
    assert SavedSearch.objects.filter(pk__in=[broken.pk, fine.pk]).count() == 2
