"""``GET /candidates/?q=`` ordered by relevance: the page's ids come from the search backend in use
(``search_text``), the rows from PostgreSQL, page after page by the ``next`` links; the SQL backend gives exactly what
the list's own ``ts_rank`` ordering gives."""

import base64
import json
from urllib.parse import parse_qsl

import pytest
from django.urls import reverse

from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from profiles.search.backends.base import Page, TextRequest
from profiles.search.backends.sql import SqlBackend
from profiles.selectors import candidate_search
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db
URL = reverse("api:candidate-list")

# Fictional profiles whose words overlap: several share a rank (ties broken by id), others differ by where the word is.
PROFILES = [
    ("Mara Okonkwo", "Backend Engineer", "Distributed payments platforms in Go."),
    ("Tobin Wrexham", "Frontend Engineer", "React interfaces for a payments start-up."),
    ("Selma Hartigan", "Head of Payments", "Leads platform teams."),
    ("Nils Arkwright", "Data Engineer", "Streaming pipelines and payments ledgers."),
    ("Ines Calloway", "Site Reliability Engineer", "Kubernetes operators; payments on-call."),
    ("Rafe Payments", "Mobile Engineer", "Swift and Kotlin."),
    ("Yara Penwick", "Engineering Manager", "Payments, payments and more payments."),
    ("Cormac Ashby", "Backend Engineer", "Python services for payments."),
    ("Lene Strand", "Machine Learning Engineer", "Model serving; payments fraud."),
    ("Oskar Vail", "Security Engineer", "Payments security reviews."),
    ("Wren Aldous", "Platform Engineer", "Payments platform hardening."),
    ("Ada Pell", "Backend Engineer", "Distributed payments platforms in Go."),
    ("Bo Quill", "Backend Engineer", "Distributed payments platforms in Go."),
    ("Ivo Stenberg", "Data Engineer", "Warehouses, no card data."),
]


@pytest.fixture
def pool() -> list[Candidate]:
    python = SkillFactory(slug="python")
    candidates = []
    for index, (name, headline, summary) in enumerate(PROFILES):
        candidate = CandidateFactory(name=name, headline=headline, title=headline, summary=summary, country_code="DE")
        CandidateSkillFactory(candidate=candidate, skill=python, score=index % 10)
        candidates.append(candidate)
    candidates_refresh_search_columns(candidate_ids=[candidate.pk for candidate in candidates])
    return candidates


def walk(api, url: str) -> tuple[list[dict], int]:
    """Every row from ``url`` by the ``next`` links, and how many pages were read."""
    rows, pages = [], 0
    while url:
        response = api.get(url)
        assert response.status_code == 200, response.content
        rows += response.json()["results"]
        url = response.json()["next"]
        pages += 1
    return rows, pages


@pytest.mark.parametrize(
    "query",
    [
        "q=payments&page_size=3",
        "q=payments&ordering=-rank&page_size=4",
        "q=payments+or+engineer&page_size=5",
        "q=payments&min_years_coding=0&country=DE&page_size=2",
        'q="distributed+payments"&page_size=1',
    ],
)
def test_pages_by_relevance_hold_every_match_once_in_ts_rank_order(api, pool, query):
    params = dict(parse_qsl(query))
    params.pop("page_size")
    expected = list(candidate_search(params=params).values_list("id", "rank"))

    rows, pages = walk(api, f"{URL}?{query}")

    assert [row["id"] for row in rows] == [pk for pk, _ in expected]
    assert [row["rank"] for row in rows] == [round(rank, 4) for _, rank in expected]
    assert pages > 1


def test_a_later_page_links_back_to_the_first_and_the_first_to_nothing(api, pool):
    first = api.get(URL, {"q": "payments", "page_size": 3}).json()
    second = api.get(first["next"]).json()

    assert first["previous"] is None
    assert second["previous"].startswith(f"http://testserver{URL}?")
    assert dict(parse_qsl(second["previous"].split("?", 1)[1])) == {"q": "payments", "page_size": "3"}


def test_a_backwards_cursor_the_keyset_gave_out_is_answered_by_the_keyset(api, pool):
    """A ``previous`` link of the list before the backend cut its text pages still reads."""
    expected = list(candidate_search(params={"q": "payments"}).values_list("id", flat=True))
    keys = SqlBackend().search_text(TextRequest(query="payments", page=Page(limit=50))).keys
    cursor = encode({"o": "-rank,-id", "v": list(keys[8]), "r": 1})

    back = api.get(URL, {"q": "payments", "updated_since": "2000-01-01", "page_size": 4, "cursor": cursor})

    assert [row["id"] for row in back.json()["results"]] == expected[4:8]


def encode(payload) -> str:
    return base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "not-a-cursor",
        encode({"o": "-rank,-id", "v": [0.5]}),
        encode({"o": "-rank,-id", "v": [0.5, "12"]}),
        encode({"o": "-rank,-id", "v": [0.5, True]}),
        encode({"o": "-rank,-id", "v": ["high", 12]}),
        encode({"o": "-rank,-id", "v": [1, 2, 3, 4]}),
        encode({"o": "-rank,-id", "v": [0.5, 2**63]}),
        "eyJvIjoiLXJhbmssLWlkIiwidiI6W05hTiwxMl19",  # {"o":"-rank,-id","v":[NaN,12]}
        encode({"o": "-rank,-id", "v": ["bm25", 3.2, 12]}),  # the index's key, which the SQL backend cannot place
    ],
)
def test_a_cursor_the_text_order_did_not_give_is_a_400(api, pool, cursor):
    response = api.get(URL, {"q": "payments", "cursor": cursor})

    assert response.status_code == 400
    assert response.json()["error"]["details"] == {"cursor": ["not a cursor this API gave out"]}


def test_a_cursor_of_another_ordering_is_a_400(api, pool):
    by_update = api.get(URL, {"page_size": 2}).json()["next"]
    cursor = dict(parse_qsl(by_update.split("?", 1)[1]))["cursor"]

    response = api.get(URL, {"q": "payments", "cursor": cursor})

    assert response.status_code == 400
    assert response.json()["error"]["details"] == {"cursor": ["belongs to another ordering or filter"]}


def test_refused_filters_are_a_400_naming_them(api, pool):
    response = api.get(URL, {"q": "payments", "contry": "DE"})

    assert response.status_code == 400
    assert "contry" in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("params", "ordered_by_match"),
    [({"q": "payments", "skill": "python"}, True), ({"q": "payments", "ordering": "name"}, False)],
)
def test_other_orderings_stay_the_lists_own(api, pool, params, ordered_by_match):
    rows = api.get(URL, params).json()["results"]

    assert [row["id"] for row in rows] == list(candidate_search(params=params).values_list("id", flat=True))
    assert ("match" in rows[0]) is ordered_by_match


def test_a_text_page_runs_the_same_queries_whatever_its_size(api, pool, django_assert_num_queries):
    # token → user, the backend's page of ids, the page's rows, their skills
    for size in (1, 6):
        with django_assert_num_queries(4):
            response = api.get(URL, {"q": "payments", "page_size": size})
        assert len(response.json()["results"]) == size
