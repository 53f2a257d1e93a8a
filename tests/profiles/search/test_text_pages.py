"""``profiles.search.text_pages``: which list requests are a text search's, the filters it passes on, and a page read
from PostgreSQL in the backend's order, a row gone since the backend answered dropped."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from django.http import QueryDict

from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from profiles.search.backends.base import Page, RankedIds, RankRequest, SearchBackend, TextHits, TextRequest
from profiles.search.text_pages import UnreadableKey, text_filters, text_page, text_relevance_orders
from tests.factories import CandidateFactory


class WithAGhost(SearchBackend):
    """Answers every text search with the candidates named Ghostly by id (highest first), and one id no row has."""

    name = "ghostly"
    requests: list[TextRequest] = []

    def rank(self, request: RankRequest, *, resolved=None) -> RankedIds:
        raise NotImplementedError

    def search_text(self, request: TextRequest) -> TextHits:
        if request.page.after is not None and request.page.after[0] != "ghost":
            raise ValueError("not my key")
        WithAGhost.requests.append(request)
        ids = sorted(Candidate.objects.filter(name__startswith="Ghostly").values_list("id", flat=True), reverse=True)
        ids.insert(1, 0)  # a row the database no longer has
        keys = tuple(("ghost", 10.0 - place, pk) for place, pk in enumerate(ids))
        return TextHits(ids=tuple(ids), keys=keys, has_more=True, backend=self.name)

    def index(self, candidate_ids: Iterable[int]) -> None:
        pass

    def remove(self, candidate_ids: Iterable[int]) -> None:
        pass


@pytest.mark.parametrize(
    ("query", "orders"),
    [
        ("q=go", True),
        ("q=go&ordering=-rank", True),
        ("q=go&ordering=&country=DE&exclude_skill=java", True),
        ("q=go&skill=", True),  # a blank skill asks for no match
        ("q=", False),
        ("q=++", False),
        ("country=DE", False),
        ("q=go&ordering=rank", False),
        ("q=go&ordering=-updated_at", False),
        ("q=go&skill=python", False),
        ("q=go&any_skill=python,go", False),
        ("q=go&q=rust", False),  # the filters refuse it, and say so
        ("q=go&ordering=-rank&ordering=-rank", False),
    ],
)
def test_a_list_request_is_a_text_search_when_q_orders_it(query, orders):
    assert text_relevance_orders(QueryDict(query)) is orders


def test_a_mapping_of_values_or_lists_reads_as_a_query_string():
    assert text_relevance_orders({"q": "go", "country": "DE"})
    assert not text_relevance_orders({"q": "go", "skill": ["python"]})


def test_the_filters_passed_on_are_the_others_with_every_value():
    params = QueryDict("q=go&ordering=-rank&cursor=abc&page_size=5&format=json&country=DE&badge=a&badge=b")

    assert text_filters(params) == {"country": ["DE"], "badge": ["a", "b"]}


@pytest.mark.django_db
def test_a_page_keeps_the_backends_order_and_drops_a_row_gone_since(settings):
    settings.SEARCH_BACKEND = "tests.profiles.search.test_text_pages.WithAGhost"
    WithAGhost.requests.clear()
    made = [CandidateFactory(name=f"Ghostly {n}") for n in range(3)]
    candidates_refresh_search_columns(candidate_ids=[candidate.pk for candidate in made])
    newest_first = sorted((candidate.pk for candidate in made), reverse=True)

    found = text_page(params=QueryDict("q=ghost&country=DE&page_size=3"), page=Page(limit=4), user=None)

    assert [row.pk for row in found.rows] == newest_first
    assert [row.rank for row in found.rows] == [10.0, 8.0, 7.0]  # the key's relevance; the gone row held 9.0
    assert found.last_key == ("ghost", 7.0, newest_first[-1])
    assert (found.has_more, found.backend) == (True, "ghostly")
    [request] = WithAGhost.requests
    assert (request.query, dict(request.filters), request.page) == ("ghost", {"country": ["DE"]}, Page(limit=4))


@pytest.mark.django_db
def test_a_key_the_backend_cannot_read_is_unreadable(settings):
    settings.SEARCH_BACKEND = "tests.profiles.search.test_text_pages.WithAGhost"

    with pytest.raises(UnreadableKey):
        text_page(params={"q": "ghost"}, page=Page(limit=4, after=(0.5, 12)))
