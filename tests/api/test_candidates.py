"""GET /api/v1/candidates/: every filter's semantics, match, ordering, keyset pagination, errors, query counts."""

import base64
import datetime as dt
import json
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from profiles.models import Candidate, Skill
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
URL = reverse("api:candidate-list")


def ids(response) -> list[int]:
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


def with_skills(name: str = "", **scores: int) -> Candidate:
    """A candidate with these canonical skills (slug=score)."""
    candidate = CandidateFactory(**({"name": name} if name else {}))
    for slug, score in scores.items():
        CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug=slug.replace("_", "-")), score=score)
    return candidate


# --- Skills and match --------------------------------------------------------------------------------------------


def test_skill_with_a_minimum_score_keeps_candidates_at_or_above_it(api):
    strong, exact, weak = with_skills(python=9), with_skills(python=8), with_skills(python=7)
    with_skills(go=10)

    found = ids(api.get(URL, {"skill": "python:8"}))

    assert sorted(found) == sorted([strong.pk, exact.pk])
    assert weak.pk not in found


def test_a_skill_without_a_score_needs_the_skill_at_any_score(api):
    low = with_skills(python=1)
    with_skills(go=9)

    assert ids(api.get(URL, {"skill": "python"})) == [low.pk]


def test_repeated_skills_must_all_hold(api):
    both = with_skills(python=9, go=8)
    with_skills(python=9, go=5)
    with_skills(python=9)

    assert ids(api.get(URL, {"skill": ["python:8", "go:7"]})) == [both.pk]


def test_skills_are_alias_aware(api):
    c_programmer = with_skills(c=9)
    with_skills(cpp=10)

    assert ids(api.get(URL, {"skill": "cprogramming-language:9"})) == [c_programmer.pk]
    assert ids(api.get(URL, {"skill": "C Language"})) == [c_programmer.pk]
    assert ids(api.get(URL, {"skill": "c++"})) != [c_programmer.pk]


def test_an_unknown_skill_matches_nobody_rather_than_failing(api):
    with_skills(python=9)

    response = api.get(URL, {"skill": ["python", "no-such-skill-anywhere"]})

    assert ids(response) == []


def test_match_is_the_rounded_mean_of_the_requested_scores_and_orders_by_default(api):
    top = with_skills("Top", python=10, go=9)  # (100 + 90) / 2 = 95
    mid = with_skills("Mid", python=9, go=6)  # 75
    low = with_skills("Low", python=7, go=6)  # 65

    rows = api.get(URL, {"skill": ["python", "go"]}).json()["results"]

    assert [(r["id"], r["match"]) for r in rows] == [(top.pk, 95), (mid.pk, 75), (low.pk, 65)]


def test_match_rounds_half_up(api):
    candidate = with_skills(python=9, go=8, rust=8)  # 100 × 25/30 = 83.33 → 83

    [row] = api.get(URL, {"skill": ["python", "go", "rust"]}).json()["results"]

    assert (row["id"], row["match"]) == (candidate.pk, 83)
    assert api.get(URL, {"skill": ["python", "go:8"]}).json()["results"][0]["match"] == 85  # 84.5 → 85


def test_without_skill_filters_there_is_no_match(api):
    with_skills(python=9)

    [row] = api.get(URL).json()["results"]

    assert "match" not in row


def test_any_skill_needs_one_of_them_and_a_missing_one_counts_as_zero_in_match(api):
    pythonista, gopher = with_skills(python=8), with_skills(go=6)
    with_skills(rust=9)
    with_skills(python=3)

    rows = api.get(URL, {"any_skill": "python:5,go"}).json()["results"]

    assert [(r["id"], r["match"]) for r in rows] == [(pythonista.pk, 40), (gopher.pk, 30)]


def test_exclude_skill_leaves_out_candidates_with_any_of_them(api):
    keep, keep_weak_php = with_skills(python=9), with_skills(python=9, php=3)
    with_skills(python=9, php=8)
    with_skills(python=9, perl=1)

    found = ids(api.get(URL, {"skill": "python", "exclude_skill": "php:5,perl"}))

    assert sorted(found) == sorted([keep.pk, keep_weak_php.pk])


def test_skills_list_each_skill_with_slug_name_score_and_label(api):
    candidate = CandidateFactory()
    CandidateSkillFactory(candidate=candidate, skill=Skill.objects.get(slug="c"), score=9, label="c-language")

    [row] = api.get(URL).json()["results"]

    assert row["id"] == candidate.pk
    assert row["skills"] == [{"slug": "c", "name": "C", "score": 9, "label": "c-language"}]
    assert row["url"].endswith(reverse("api:candidate-detail", kwargs={"pk": candidate.pk}))


# --- Full text -----------------------------------------------------------------------------------------------------


def searchable(**fields) -> Candidate:
    candidate = CandidateFactory(**{"summary": "", "headline": "", **fields})
    candidates_refresh_search_columns(candidate_ids=[candidate.pk])
    return candidate


def test_q_searches_name_headline_summary_and_contribution_summaries(api):
    by_summary = searchable(summary="Builds compilers for accelerators.")
    by_contribution = CandidateFactory(summary="", headline="")
    ContributionFactory(candidate=by_contribution, summary="Rewrote the compiler backend.")
    candidates_refresh_search_columns(candidate_ids=[by_contribution.pk])
    searchable(summary="Designs web shops.")

    assert sorted(ids(api.get(URL, {"q": "compiler"}))) == sorted([by_summary.pk, by_contribution.pk])


def test_q_takes_websearch_syntax(api):
    both = searchable(summary="Distributed databases and compilers.")
    databases = searchable(summary="Distributed databases.")
    phrase = searchable(summary="A compiler for distributed systems.")

    assert ids(api.get(URL, {"q": "databases -compilers"})) == [databases.pk]
    assert ids(api.get(URL, {"q": '"distributed databases" compilers'})) == [both.pk]
    assert sorted(ids(api.get(URL, {"q": "databases or systems"}))) == sorted([both.pk, databases.pk, phrase.pk])


def test_q_ranks_by_relevance(api):
    name_hit = searchable(name="Ada Compiler", summary="Writes tools.")  # name weighs A, summary C
    summary_hit = searchable(name="Bo Smith", summary="Writes a compiler.")

    rows = api.get(URL, {"q": "compiler"}).json()["results"]

    assert [r["id"] for r in rows] == [name_hit.pk, summary_hit.pk]
    assert rows[0]["rank"] > rows[1]["rank"] > 0


def test_rank_is_rounded_to_four_decimals_and_never_written_in_exponents(api):
    """PostgreSQL's ts_rank gives 1e-20 when the query's words leave it nothing to weigh (here a word that must be
    absent), and ratios with a float's worth of digits otherwise; the API shows four decimals of either."""
    # A hyphenated company ("Moore-Lee") puts "e-" in the body: only the rank's own text may be checked for exponents.
    name_hit = searchable(name="Ada Compiler", summary="Writes databases.", company="Moore-Lee")
    summary_hit = searchable(name="Bo Smith", summary="Writes databases and a compiler.", company="Pierce-Evans")

    negated = api.get(URL, {"q": "databases -kernels"})
    ranked = api.get(URL, {"q": "compiler"}).json()["results"]

    assert re.findall(rb'"rank":([^,}]*)', negated.content) == [b"0.0", b"0.0"]
    assert [row["rank"] for row in negated.json()["results"]] == [0.0, 0.0]
    assert [row["id"] for row in ranked] == [name_hit.pk, summary_hit.pk]
    assert [row["rank"] for row in ranked] == [0.6079, 0.1216]  # name (weight A) and summary (C) hits
    assert all(row["rank"] == round(row["rank"], 4) for row in ranked)


# --- Profile fields ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["DE", "de", "DEU", "Germany", "germany"])
def test_country_takes_a_name_or_an_iso_code(api, value):
    german = CandidateFactory(country="Germany", country_code="DE")
    CandidateFactory(country="France", country_code="FR")

    assert ids(api.get(URL, {"country": value})) == [german.pk]


def test_location_needs_every_word_in_city_region_or_country(api):
    mountain_view = CandidateFactory(city="Mountain View", region="California", country="United States")
    CandidateFactory(city="View Park", region="Texas", country="United States")

    assert ids(api.get(URL, {"location": "view california"})) == [mountain_view.pk]


def test_word_filters_match_whole_words_and_combine(api):
    wanted = CandidateFactory(title="Staff Software Engineer", city="São Paulo", region="", country="Brazil")
    CandidateFactory(title="Engineering Manager", city="São Paulo", region="", country="Brazil")
    CandidateFactory(title="Staff Engineer", city="Lisbon", region="", country="Portugal")

    assert ids(api.get(URL, {"title": "ENGINEER", "location": "são paulo"})) == [wanted.pk]


def test_company_is_a_case_insensitive_exact_name(api):
    googler = CandidateFactory(company="Google")
    CandidateFactory(company="Google Cloud Partners")

    assert ids(api.get(URL, {"company": "google"})) == [googler.pk]


def test_title_needs_every_word(api):
    staff = CandidateFactory(title="Staff Software Engineer")
    CandidateFactory(title="Software Engineer")

    assert ids(api.get(URL, {"title": "staff engineer"})) == [staff.pk]


def test_school_and_degree_look_at_education(api):
    phd = CandidateFactory()
    EducationFactory(candidate=phd, degree="Doctor of Philosophy (Ph.D.)", school="Carnegie Mellon University")
    EducationFactory(candidate=phd, degree="Bachelor's Degree", school="Purdue University")
    bachelor = CandidateFactory()
    EducationFactory(candidate=bachelor, degree="Bachelor's Degree", school="Carnegie Mellon University")

    assert sorted(ids(api.get(URL, {"school": "carnegie mellon university"}))) == sorted([phd.pk, bachelor.pk])
    assert ids(api.get(URL, {"degree": "philosophy"})) == [phd.pk]
    assert ids(api.get(URL, {"degree": "bachelor", "school": "Purdue University"})) == [phd.pk]


def test_badge_and_spoken_language_match_in_any_case(api):
    rockstar = CandidateFactory(badges=["Rockstar", "Top School"], spoken_languages=["Chinese", "English"])
    CandidateFactory(badges=["Hidden Gem"], spoken_languages=["English"])

    assert ids(api.get(URL, {"badge": "top school"})) == [rockstar.pk]
    assert ids(api.get(URL, {"badge": "Rockstar", "language": "chinese"})) == [rockstar.pk]


def test_repository_and_min_commits(api):
    xla = RepositoryFactory(full_name="openxla/xla")
    other = RepositoryFactory(full_name="tensorflow/tensorflow")
    many = ContributionFactory(repository=xla, commits=26).candidate
    few = ContributionFactory(repository=xla, commits=2).candidate
    elsewhere = ContributionFactory(repository=other, commits=40).candidate

    assert sorted(ids(api.get(URL, {"repository": "openxla/xla"}))) == sorted([many.pk, few.pk])
    # Together: that many commits to that repository (not to any repository).
    assert ids(api.get(URL, {"repository": "openxla/xla", "min_commits": 20})) == [many.pk]
    assert sorted(ids(api.get(URL, {"min_commits": 20}))) == sorted([many.pk, elsewhere.pk])
    assert ids(api.get(URL, {"repository": "nobody/nothing"})) == []


def test_topic_is_alias_aware(api):
    ml_repo = RepositoryFactory(topics=["ml"], topic_slugs=["machine-learning"])
    web_repo = RepositoryFactory(topics=["web"], topic_slugs=["web"])
    ml = ContributionFactory(repository=ml_repo).candidate
    ContributionFactory(repository=web_repo)

    assert ids(api.get(URL, {"topic": "ml"})) == [ml.pk]
    assert ids(api.get(URL, {"topic": "Machine Learning"})) == [ml.pk]
    assert ids(api.get(URL, {"topic": "no-such-topic-anywhere"})) == []


def test_years_bounds_are_inclusive(api):
    junior = CandidateFactory(years_coding=2, years_employed=1)
    mid = CandidateFactory(years_coding=5, years_employed=5)
    senior = CandidateFactory(years_coding=15, years_employed=12)
    CandidateFactory(years_coding=None, years_employed=None)

    assert sorted(ids(api.get(URL, {"min_years_coding": 5}))) == sorted([mid.pk, senior.pk])
    assert sorted(ids(api.get(URL, {"max_years_coding": 5}))) == sorted([junior.pk, mid.pk])
    assert ids(api.get(URL, {"min_years_coding": 3, "max_years_coding": 10})) == [mid.pk]
    assert ids(api.get(URL, {"min_years_employed": 12})) == [senior.pk]


def test_updated_since_takes_a_date_or_a_datetime(api):
    old, new = CandidateFactory(), CandidateFactory()
    Candidate.objects.filter(pk=old.pk).update(updated_at=timezone.now() - dt.timedelta(days=30))
    since = (timezone.now() - dt.timedelta(days=1)).replace(microsecond=0)

    assert ids(api.get(URL, {"updated_since": since.isoformat()})) == [new.pk]
    assert ids(api.get(URL, {"updated_since": since.date().isoformat()})) == [new.pk]


def test_updated_since_takes_any_offset_python_reads_even_beyond_postgresqls(api):
    """PostgreSQL refuses offsets past ±15:59; the filter compares the same instant in UTC."""
    old, new = CandidateFactory(), CandidateFactory()
    Candidate.objects.filter(pk=old.pk).update(updated_at=timezone.now() - dt.timedelta(days=30))
    since = (timezone.now() - dt.timedelta(days=1)).replace(microsecond=0)
    far_east = since.astimezone(dt.timezone(dt.timedelta(hours=23, minutes=47)))

    assert ids(api.get(URL, {"updated_since": far_east.isoformat()})) == [new.pk]
    export = api.get(reverse("api:candidate-export-jsonl"), {"updated_since": far_east.isoformat()})
    lines = b"".join(export.streaming_content).decode().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [new.pk]


def test_filters_combine_with_and(api):
    wanted = with_skills(python=9)
    Candidate.objects.filter(pk=wanted.pk).update(country_code="US", years_coding=12)
    candidates_refresh_search_columns(candidate_ids=[wanted.pk])  # as every service that writes a country does
    with_skills(python=9)  # in Germany
    CandidateFactory(country_code="US", years_coding=12)  # no python

    assert ids(api.get(URL, {"skill": "python:8", "country": "US", "min_years_coding": 10})) == [wanted.pk]


# --- Ordering ------------------------------------------------------------------------------------------------------


def test_default_ordering_without_skills_is_most_recently_updated_first(api):
    first, second = CandidateFactory(), CandidateFactory()
    Candidate.objects.filter(pk=first.pk).update(updated_at=timezone.now() + dt.timedelta(minutes=1))

    assert ids(api.get(URL)) == [first.pk, second.pk]


def test_ordering_by_name_and_years_coding_both_ways(api):
    ada = CandidateFactory(name="Ada", years_coding=3)
    bo = CandidateFactory(name="Bo", years_coding=None)
    cy = CandidateFactory(name="Cy", years_coding=20)

    assert ids(api.get(URL, {"ordering": "name"})) == [ada.pk, bo.pk, cy.pk]
    assert ids(api.get(URL, {"ordering": "-name"})) == [cy.pk, bo.pk, ada.pk]
    # PostgreSQL's NULL order: last ascending, first descending.
    assert ids(api.get(URL, {"ordering": "years_coding"})) == [ada.pk, cy.pk, bo.pk]
    assert ids(api.get(URL, {"ordering": "-years_coding"})) == [bo.pk, cy.pk, ada.pk]


def test_ordering_by_match_ascending(api):
    low, high = with_skills(python=5), with_skills(python=9)

    assert ids(api.get(URL, {"skill": "python", "ordering": "match"})) == [low.pk, high.pk]
    assert ids(api.get(URL, {"skill": "python", "ordering": "name"})) == sorted(
        [low.pk, high.pk], key=lambda pk: Candidate.objects.get(pk=pk).name
    )


# --- Pagination ----------------------------------------------------------------------------------------------------


def walk(api, params: dict) -> tuple[list[int], dict]:
    """Follow `next` links to the end; returns every id seen and the last page."""
    seen, page = [], api.get(URL, params).json()
    seen += [row["id"] for row in page["results"]]
    while page["next"]:
        page = api.get(page["next"]).json()
        seen += [row["id"] for row in page["results"]]
    return seen, page


@pytest.mark.parametrize(
    "params",
    [
        {"skill": "python"},  # many ties in match
        {"skill": "python", "ordering": "match"},
        {},
        {"ordering": "name"},
        {"ordering": "years_coding"},
        {"ordering": "-years_coding"},
    ],
)
def test_cursor_pages_cover_every_candidate_once_in_order(api, params):
    for index in range(7):
        candidate = with_skills(f"Dev {index % 3}", python=[9, 9, 9, 5, 5, 7, 9][index])
        Candidate.objects.filter(pk=candidate.pk).update(years_coding=[1, None, 1, 4, None, 9, 4][index])
    everything = ids(api.get(URL, {**params, "page_size": 50}))

    seen, last = walk(api, {**params, "page_size": 2})

    assert seen == everything
    assert len(set(seen)) == 7
    # And back again with `previous`.
    back, page = [], last
    while page["previous"]:
        page = api.get(page["previous"]).json()
        back = [row["id"] for row in page["results"]] + back
    assert back == everything[: len(everything) - len(last["results"])]


def test_pages_stay_stable_while_candidates_are_added(api):
    existing = [with_skills(python=8) for _ in range(4)]
    first = api.get(URL, {"skill": "python", "page_size": 2}).json()

    with_skills(python=9)  # would sort first: must not shift the next page
    second = api.get(first["next"]).json()

    assert [r["id"] for r in first["results"] + second["results"]] == sorted((c.pk for c in existing), reverse=True)


def test_page_size_has_a_default_and_a_maximum(api, settings):
    settings.API_PAGE_SIZE, settings.API_MAX_PAGE_SIZE = 2, 3
    for _ in range(4):
        CandidateFactory()

    assert len(api.get(URL).json()["results"]) == 2
    assert len(api.get(URL, {"page_size": 3}).json()["results"]) == 3
    response = api.get(URL, {"page_size": 4})
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "page_size: a whole number from 1 to 3"


def test_a_cursor_is_bound_to_its_ordering(api):
    CandidateFactory(), CandidateFactory()
    cursor_link = api.get(URL, {"page_size": 1}).json()["next"]
    cursor = cursor_link.split("cursor=")[1].split("&")[0]

    response = api.get(URL, {"cursor": cursor, "ordering": "name"})

    assert response.status_code == 400
    assert response.json()["error"]["message"] == "cursor: belongs to another ordering or filter"


def _cursor(payload: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(payload).encode()).rstrip(b"=").decode()


def test_a_forged_cursor_with_any_utc_offset_reads_the_same_instant(api):
    """Cursors are opaque, not unforgeable: an offset PostgreSQL refuses (+23:47) is compared as the UTC instant."""
    first, second = CandidateFactory(), CandidateFactory()
    Candidate.objects.filter(pk=first.pk).update(updated_at=dt.datetime(2026, 1, 2, tzinfo=dt.UTC))
    Candidate.objects.filter(pk=second.pk).update(updated_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
    after_first = dt.datetime(2026, 1, 2, tzinfo=dt.UTC).astimezone(dt.timezone(dt.timedelta(hours=23, minutes=47)))

    response = api.get(URL, {"cursor": _cursor({"o": "-updated_at,-id", "v": [after_first.isoformat(), first.pk]})})

    assert ids(response) == [second.pk]
    before_year_one = _cursor({"o": "-updated_at,-id", "v": ["0001-01-01T00:00:00+05:00", first.pk]})
    response = api.get(URL, {"cursor": before_year_one})
    assert (response.status_code, response.json()["error"]["message"]) == (
        400,
        "cursor: not a cursor this API gave out",
    )


def _raw_cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode("utf-8", "surrogatepass")).rstrip(b"=").decode()


@pytest.mark.parametrize(
    ("ordering", "cursor"),
    [
        ("", _raw_cursor("[" * 2000)),  # nested past Python's recursion limit: RecursionError
        ("", _raw_cursor('{"o": "-updated_at,-id", "v": [' + "[" * 500 + "]" * 500 + ", 1]}")),
        ("name", _cursor({"o": "name,id", "v": ["Ada\u0000", 1]})),  # NUL: PostgreSQL's DataError
        ("name", _raw_cursor('{"o": "name,id", "v": ["\\ud800", 1]}')),  # a lone surrogate: UnicodeEncodeError
        ("name", _raw_cursor('{"o": "name,id", "v": ["\ud800", 1]}')),  # the same, raw in the JSON text
        ("name", _cursor({"o": "name,id", "v": [{"a": 1}, 1]})),  # not a scalar
        ("name", _cursor({"o": "name,id", "v": ["Ada", 10**40]})),  # no id this large
        ("", _cursor(["-updated_at,-id"])),  # not an object
        ("", _raw_cursor('{"o": "-updated_at,-id", "v": [null, 1], "r": []}')),
        ("", "\u00e9t\u00e9"),  # not ASCII
    ],
)
def test_any_forged_cursor_is_a_400_in_the_error_shape(api, ordering, cursor):
    """Issue 15, hole 11: forged cursors were a 500 (RecursionError, DataError, UnicodeEncodeError)."""
    CandidateFactory(name="Ada")
    params = {"cursor": cursor, **({"ordering": ordering} if ordering else {})}

    response = api.get(URL, params)

    assert response.status_code == 400, response.content[:300]
    assert response.json() == {
        "error": {
            "code": "invalid",
            "message": "cursor: not a cursor this API gave out",
            "details": {"cursor": ["not a cursor this API gave out"]},
        }
    }


# --- Errors --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"skill": "python:eleven"}, "skill: 'python:eleven' is not slug or slug:min_score with a score 0-10"),
        ({"skill": "python:11"}, "skill: 'python:11' is not slug or slug:min_score with a score 0-10"),
        ({"any_skill": "go,rust:x"}, "any_skill: 'rust:x' is not slug or slug:min_score with a score 0-10"),
        ({"min_years_coding": "-3"}, "min_years_coding: Ensure this value is greater than or equal to 0."),
        ({"max_years_coding": "ten"}, "max_years_coding: Enter a whole number."),
        ({"min_commits": "1.5"}, "min_commits: Enter a whole number."),
        ({"country": "Narnia"}, "country: 'Narnia' is not a country name or ISO code"),
        ({"repository": "just-a-name"}, "repository: 'just-a-name' is not owner/name"),
        ({"updated_since": "last week"}, "updated_since: Enter a valid date/time."),
        ({"updated_since": "0001-01-01T00:00:00+05:00"}, "updated_since: Enter a valid date/time."),
        ({"ordering": "salary"}, "ordering: Select a valid choice. salary is not one of the available choices."),
        ({"ordering": "-match"}, "ordering: match needs a skill or any_skill filter"),
        ({"ordering": "rank"}, "ordering: rank needs a q filter"),
        ({"country": ["DE", "FR"]}, "country: give one value"),
        ({"cursor": "not-a-cursor"}, "cursor: not a cursor this API gave out"),
        ({"page_size": "0"}, "page_size: a whole number from 1 to 500"),
        (
            {"language": "english:superb"},
            "language: 'english:superb' is not language or language:level. A level is one of native, "
            "full_professional, professional_working, limited_working, elementary (highest first), or a word for one "
            "such as fluent, professional or native.",
        ),
    ],
)
def test_bad_values_are_a_400_with_a_clear_message(api, params, message):
    response = api.get(URL, params)

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"] == message
    assert error["code"] == "invalid"


def test_unknown_parameters_are_a_400_not_an_ignored_filter(api):
    response = api.get(URL, {"skills": "python", "contry": "DE"})

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"].startswith("Unknown parameter(s): contry, skills. Known parameters: any_skill, badge,")
    assert error["details"]["non_field_errors"] == [error["message"]]


# --- Speed ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", [{}, {"skill": ["python:5", "go"], "country": "DE", "q": "engineer"}])
def test_a_page_runs_the_same_queries_whatever_its_size(api, django_assert_num_queries, params):
    for _ in range(25):
        candidate = with_skills(python=8, go=7, rust=3)
        candidates_refresh_search_columns(candidate_ids=[candidate.pk])
    # token → user, (skill labels → ids), the page, its skills; the skill vocabulary the resolver reads is cached per
    # process once read, and the skills made above changed it, so one request reads it before the counting starts
    expected = 3 + ("skill" in params)
    api.get(URL, {**params, "page_size": 1})

    for size in (1, 20):
        with django_assert_num_queries(expected):
            response = api.get(URL, {**params, "page_size": size})
        assert len(response.json()["results"]) == size
