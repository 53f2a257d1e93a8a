"""``GET /candidates/?q=`` by relevance when the ranking index serves: BM25's order page after page
(``X-Search-Backend: index``), the same matches as SQL; and SQL's ``ts_rank``, saying why, when the index is stopped."""

import pytest

from profiles.search.backends.base import Page, TextRequest
from profiles.search.backends.sql import SqlBackend
from searchindex import client
from searchindex.backend import IndexBackend
from tests.api.candidates.test_text_pages import URL, encode, walk
from tests.api.candidates.test_text_pages import pool as pool  # the fixture
from tests.searchindex.helpers_server import wait_until
from tests.searchindex.serving import HEADER, INDEX_BACKEND, SQL_BACKEND
from tests.searchindex.serving import serving as serving  # the fixture

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")  # the replica router reads from every alias


def walk_with_headers(api, url: str) -> tuple[list[dict], set[str]]:
    rows, headers = [], set()
    while url:
        response = api.get(url)
        assert response.status_code == 200, response.content
        headers.add(response.get(HEADER, ""))
        rows += response.json()["results"]
        url = response.json()["next"]
    return rows, headers


@pytest.mark.parametrize("query", ["payments", "payments or engineer", "engineer -go"])
def test_the_index_orders_the_pages_by_bm25(api, pool, serving, settings, query):
    wait_until(lambda: client.status().get("text", {}).get("state") == "ready")
    settings.SEARCH_BACKEND = INDEX_BACKEND
    by_index = IndexBackend().search_text(TextRequest(query=query, page=Page(limit=50)))
    by_sql = SqlBackend().search_text(TextRequest(query=query, page=Page(limit=50)))

    first = api.get(URL, {"q": query, "page_size": 3})
    rows, headers = walk_with_headers(api, first.json()["next"])

    assert len(first.json()["results"]) == 3
    assert first[HEADER] == "index"
    assert headers == {"index"}
    assert [row["id"] for row in first.json()["results"]] == list(by_index.ids[:3])
    assert [row["id"] for row in first.json()["results"] + rows] == list(by_index.ids)
    assert sorted(by_index.ids) == sorted(by_sql.ids)  # the same matches, in BM25's order
    ranks = [row["rank"] for row in first.json()["results"] + rows]
    assert ranks == sorted(ranks, reverse=True)
    assert ranks == [round(score, 4) for _, score, _ in by_index.keys]


def test_a_stopped_index_hands_the_pages_to_sql_and_says_so(api, pool, settings, tmp_path):
    settings.SEARCH_INDEX_SOCKET = tmp_path / "no-index.sock"  # nothing listens there
    settings.SEARCH_BACKEND = SQL_BACKEND
    by_sql, _ = walk(api, f"{URL}?q=payments&page_size=4")
    settings.SEARCH_BACKEND = INDEX_BACKEND

    first = api.get(URL, {"q": "payments", "page_size": 4})
    rows, headers = walk_with_headers(api, first.json()["next"])

    assert first[HEADER] == "sql; index=stopped"
    assert headers == {"sql; index=cursor"}  # a cursor of SQL's order goes on in SQL
    assert first.json()["results"] + rows == by_sql


def test_a_cursor_of_the_index_order_starts_sqls_order_again_when_the_index_is_stopped(api, pool, settings, tmp_path):
    settings.SEARCH_INDEX_SOCKET = tmp_path / "no-index.sock"
    settings.SEARCH_BACKEND = INDEX_BACKEND
    first = api.get(URL, {"q": "payments", "page_size": 4}).json()["results"]

    index_cursor = encode({"o": "-rank,-id", "v": ["bm25", 3.5, 7]})

    response = api.get(URL, {"q": "payments", "page_size": 4, "cursor": index_cursor})

    assert response.status_code == 200
    assert response.json()["results"] == first
