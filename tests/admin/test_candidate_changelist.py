"""The candidate changelist: columns, the shared filters, search, sorting, counts and a fixed number of queries."""

import pytest
from django.urls import reverse

from core.countries import country_name
from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    EducationFactory,
    RepositoryFactory,
    SkillFactory,
)

pytestmark = pytest.mark.django_db
URL = reverse("admin:profiles_candidate_changelist")


def listed(response) -> list[str]:
    assert response.status_code == 200, response.content[:500]
    return sorted(c.name for c in response.context["cl"].result_list)


@pytest.fixture
def people():
    python, go = SkillFactory(slug="python", name="Python"), SkillFactory(slug="go", name="Go")
    ada = CandidateFactory(
        name="Ada Quill",
        title="Staff Engineer",
        company="Lumen Labs",
        city="Berlin",
        country_code="DE",
        years_coding=12,
        badges=["Rockstar"],
        spoken_languages=["English", "German"],
        summary="",  # the factory's random paragraph may hold a searched word ("scientist")
    )
    ben = CandidateFactory(
        name="Ben Ortiz",
        title="Data Scientist",
        company="Quanta",
        city="Paris",
        country_code="FR",
        years_coding=4,
        badges=[],
        spoken_languages=["French"],
        summary="",
    )
    CandidateSkillFactory(candidate=ada, skill=python, score=9)
    CandidateSkillFactory(candidate=ada, skill=go, score=4)
    CandidateSkillFactory(candidate=ben, skill=python, score=5)
    EducationFactory(candidate=ada, school="Imperial College London")
    ContributionFactory(candidate=ben, repository=RepositoryFactory(full_name="quanta/flux"))
    candidates_refresh_search_columns(candidate_ids=[ada.pk, ben.pk])
    return {"ada": ada, "ben": ben}


def test_the_changelist_shows_a_profile_line_per_candidate(admin_client, people):
    response = admin_client.get(URL)

    html = response.content.decode()
    assert listed(response) == ["Ada Quill", "Ben Ortiz"]
    assert "Staff Engineer at Lumen Labs" in html
    assert "Berlin, DE" in html
    assert "Python <b>9</b>, Go <b>4</b>" in html
    assert "Possible duplicates" in html


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"country": "DE"}, ["Ada Quill"]),
        ({"country": "France"}, ["Ben Ortiz"]),
        ({"badge": "rockstar"}, ["Ada Quill"]),
        ({"min_years_coding": "11", "max_years_coding": "20"}, ["Ada Quill"]),
        ({"min_years_coding": "3", "max_years_coding": "5"}, ["Ben Ortiz"]),
        ({"school": "imperial college london"}, ["Ada Quill"]),
        ({"language": "french"}, ["Ben Ortiz"]),
        ({"repository": "quanta/flux"}, ["Ben Ortiz"]),
        ({"skill": "python:8"}, ["Ada Quill"]),
        ({"skill": "python:5"}, ["Ada Quill", "Ben Ortiz"]),
        ({"skill": ["python:5", "go"]}, ["Ada Quill"]),
        ({"skill": "rust"}, []),
        ({"location": "paris"}, ["Ben Ortiz"]),  # a shared parameter without a sidebar input
    ],
)
def test_each_filter_selects_like_the_api(admin_client, people, params, expected):
    assert listed(admin_client.get(URL, params)) == expected


def test_the_sidebar_offers_the_values_in_the_data(admin_client, people):
    html = admin_client.get(URL).content.decode()

    assert "Germany (DE)" in html
    assert "France (FR)" in html
    assert "?badge=Rockstar" in html
    assert "?language=German" in html
    assert "more than 20" in html
    assert 'name="skill_slug"' in html
    assert 'name="skill_min"' in html
    assert '<option value="python">Python</option>' in html


def test_the_country_filter_names_countries_as_the_imported_profiles_do(admin_client):
    CandidateFactory(country_code="KR", country=country_name("KR"))
    CandidateFactory(country_code="XK", country=country_name("XK"))

    html = admin_client.get(URL).content.decode()

    assert "South Korea (KR)" in html  # not pycountry's official "Korea, Republic of"
    assert "Kosovo (XK)" in html  # a code pycountry does not list


def test_the_skill_inputs_become_one_skill_parameter_and_keep_the_other_filters(admin_client, people):
    response = admin_client.get(URL, {"country": "DE", "skill": "go", "skill_slug": "python", "skill_min": "8"})

    assert response.status_code == 302
    follow = admin_client.get(response["Location"])
    assert follow.wsgi_request.GET.getlist("skill") == ["go", "python:8"]
    assert follow.wsgi_request.GET["country"] == "DE"
    assert listed(follow) == ["Ada Quill"]


def test_a_bad_filter_value_is_explained_in_plain_words_and_lists_nobody(admin_client, people):
    response = admin_client.get(URL, {"skill": "python:11"})

    assert listed(response) == []
    [message] = [str(m) for m in response.context["messages"]]
    assert message.startswith("skill:")
    assert "score 0-10" in message


def test_too_many_skill_terms_are_explained_instead_of_a_500(admin_client, people):
    """Issue 15, hole 6: `?skill=go` repeated 200 times was a RecursionError and a 500 here."""
    response = admin_client.get(URL, {"skill": ["go"] * 200})

    assert listed(response) == []
    [message] = [str(m) for m in response.context["messages"]]
    assert message == (
        "Too many skill terms: 200. A request may hold at most 50 (SEARCH_MAX_TERMS), counting skill, any_skill and "
        "exclude_skill together."
    )


def test_skill_terms_up_to_the_cap_filter_as_usual(admin_client, people):
    response = admin_client.get(URL, {"skill": ["go"] * 25 + ["python:8"] * 25})

    assert listed(response) == ["Ada Quill"]
    assert not list(response.context["messages"])


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("Ada", ["Ada Quill"]),  # name
        ("Quanta", ["Ben Ortiz"]),  # company
        ("scientist", ["Ben Ortiz"]),  # title
        ("go", ["Ada Quill"]),  # a skill
        ("flux", ["Ben Ortiz"]),  # a repository
        ("quanta/flux", ["Ben Ortiz"]),
    ],
)
def test_search_covers_name_company_title_skills_and_repositories(admin_client, people, term, expected):
    assert listed(admin_client.get(URL, {"q": term})) == expected


def test_search_and_filters_combine(admin_client, people):
    assert listed(admin_client.get(URL, {"q": "python", "country": "FR"})) == ["Ben Ortiz"]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("1", ["Ada Quill", "Ben Ortiz"]),  # name
        ("-1", ["Ben Ortiz", "Ada Quill"]),
        ("-2", ["Ben Ortiz", "Ada Quill"]),  # company, case-insensitive: Quanta after Lumen Labs
        ("3", ["Ada Quill", "Ben Ortiz"]),  # location: by country code, DE before FR
        ("-4", ["Ada Quill", "Ben Ortiz"]),  # years coding, most first
        ("6", ["Ada Quill", "Ben Ortiz"]),  # last update, oldest first
    ],
)
def test_the_useful_columns_sort(admin_client, people, order, expected):
    response = admin_client.get(URL, {"o": order})

    assert [c.name for c in response.context["cl"].result_list] == expected


def test_a_saved_search_ordering_holds_until_a_header_is_clicked(admin_client, people):
    by_match = admin_client.get(URL, {"skill": "python", "ordering": "-match"})
    by_name = admin_client.get(URL, {"skill": "python", "ordering": "-match", "o": "-1"})

    assert [c.name for c in by_match.context["cl"].result_list] == ["Ada Quill", "Ben Ortiz"]
    assert [c.name for c in by_name.context["cl"].result_list] == ["Ben Ortiz", "Ada Quill"]


# session, user, count estimate, exact count (a small table), page, top skills of the page
CHANGELIST_QUERIES = 6
# the sidebar's suggestions, once per process and two minutes: table sizes, most common values, skill names
SIDEBAR_QUERIES = 3


def test_the_changelist_runs_a_fixed_number_of_queries(admin_client, django_assert_num_queries):
    from profiles import selectors

    skill = SkillFactory(slug="python", name="Python")
    for _ in range(3):
        CandidateSkillFactory(skill=skill, score=7)
    admin_client.get(URL)  # warm the session and the content types
    selectors.candidate_filter_choices_forget()

    with django_assert_num_queries(CHANGELIST_QUERIES + SIDEBAR_QUERIES):
        admin_client.get(URL)
    with django_assert_num_queries(CHANGELIST_QUERIES):
        admin_client.get(URL)
    for _ in range(20):
        candidate = CandidateFactory()
        CandidateSkillFactory(candidate=candidate, skill=skill, score=8)
        CandidateSkillFactory(candidate=candidate, score=3)
    candidates_refresh_search_columns(candidate_ids=Candidate.objects.values_list("pk", flat=True))
    with django_assert_num_queries(CHANGELIST_QUERIES):
        admin_client.get(URL)
    # A filtered list also resolves the requested skill's label, and counts within a time budget: a savepoint, a
    # local statement_timeout set and put back (SAVEPOINT, set, COUNT, reset, RELEASE instead of COUNT). Its columns
    # resolve the skill again with its name (two), and its facets are counted in one query. Reading the skill term
    # loads the skill vocabulary (aliases, slugs: two), since the skills created above changed it.
    with django_assert_num_queries(CHANGELIST_QUERIES + 1 + 4 + 2 + 1 + 2):
        response = admin_client.get(URL, {"skill": "python:5", "country": "DE", "q": "engineer"})
    assert len(listed(response)) == 23


def test_a_large_result_shows_an_estimate_instead_of_counting(admin_client, people, monkeypatch):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from db import counting

    monkeypatch.setattr(
        counting.queryset_count, "__kwdefaults__", {"exact_below": 0, "budget_ms": None, "max_cost": None}
    )
    with CaptureQueriesContext(connection) as queries:
        response = admin_client.get(URL, {"country": "DE"})

    cl = response.context["cl"]
    assert cl.paginator.is_estimate
    assert any(q["sql"].startswith("EXPLAIN") for q in queries.captured_queries)
    assert not any("COUNT(*)" in q["sql"] for q in queries.captured_queries)
    assert listed(response) == ["Ada Quill"]
    # A page shorter than a full page tells the true size: the pager says 1, not "about".
    assert (cl.result_count, cl.result_count_is_estimate) == (1, False)


def test_the_list_is_titled_candidates(recruiter_client):
    html = recruiter_client.get(URL).content.decode()

    assert "<h1>Candidates</h1>" in html
    assert "Select candidate to change" not in html
