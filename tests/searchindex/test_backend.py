"""The index as a search backend: the same ids, keys and ``has_more`` as the SQL backend for random requests, pages
by offset and by key; and the fallback to SQL, said in the log and the response header, when the index is stopped."""

import logging

import pytest
from django.http import HttpResponse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profiles.search.backends.base import Page, RankRequest
from profiles.search.backends.sql import SqlBackend
from searchindex.backend import IndexBackend
from searchindex.client import IndexUnavailable
from searchindex.middleware import HEADER, SearchBackendHeaderMiddleware, answered_by
from searchindex.pages import keywords_ids
from searchindex.rank import rank
from tests.searchindex.helpers import COUNTRIES, ODD_COUNTRIES, SLUGS, TODAY, WORDS, build_index, make_pool

pytestmark = pytest.mark.django_db

request_strategy = st.builds(
    RankRequest,
    required=st.lists(st.tuples(st.sampled_from((*SLUGS, "cobol")), st.integers(0, 10)), max_size=4).map(tuple),
    preferred=st.lists(st.sampled_from((*SLUGS, "fortran")), max_size=3).map(tuple),
    excluded=st.lists(st.sampled_from(SLUGS), max_size=1).map(tuple),
    min_years_coding=st.sampled_from([None, 0, 2, 5, 10]),
    countries=st.lists(st.sampled_from([c for c in COUNTRIES if c]), max_size=2, unique=True).map(tuple),
    keywords=st.lists(st.sampled_from(WORDS), max_size=2).map(tuple),
    strict=st.booleans(),
    widen=st.booleans(),
    anywhere=st.booleans(),
    filters=st.sampled_from([None, {"country": "DE"}, {"min_years_coding": "3"}, {"title": "backend"}]),
    exclude_ids=st.just(frozenset()),
    today=st.just(TODAY),
    page=st.builds(Page, limit=st.sampled_from([1, 7, 25]), offset=st.sampled_from([0, 0, 3, 20])),
)


@settings(
    derandomize=True,  # the same requests on every run of the normal suite
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(request=request_strategy, pages=st.integers(1, 3))
def test_the_index_backend_answers_as_the_sql_backend(backends, request, pages):
    sql, index = backends
    for _ in range(pages):  # the first page, then the next ones by the last key
        expected = sql.rank(request)
        got = index.rank(request)
        assert (got.ids, got.keys, got.has_more) == (expected.ids, expected.keys, expected.has_more)
        if not expected.has_more:
            break
        request = RankRequest(**{**_fields(request), "page": Page(limit=request.page.limit, after=expected.keys[-1])})


def test_an_excluded_candidate_is_never_ranked(backends):
    sql, index = backends
    request = RankRequest(required=(("python", 3),), today=TODAY, page=Page(limit=5))
    first = sql.rank(request).ids[0]
    excluding = RankRequest(**{**_fields(request), "exclude_ids": frozenset({first})})
    assert first not in index.rank(excluding).ids
    assert index.rank(excluding).ids == sql.rank(excluding).ids


def test_a_stopped_index_hands_the_request_to_sql_and_says_so(db, settings, tmp_path, caplog):
    make_pool(seed=5, size=30)
    settings.SEARCH_INDEX_SOCKET = tmp_path / "no-index.sock"  # nothing listens there
    request = RankRequest(required=(("python", 3),), preferred=("go",), today=TODAY, page=Page(limit=10))
    token = answered_by.set("")
    with caplog.at_level(logging.INFO, logger="searchindex.backend"):
        answer = IndexBackend().rank(request)
    assert answer.backend == "sql"
    assert answer.ids == SqlBackend().rank(request).ids
    assert answered_by.get() == "sql; index=stopped"
    assert "ranking in SQL (stopped): not reachable" in caplog.text  # the details stay in the log
    assert str(tmp_path) in caplog.text
    answered_by.reset(token)


def test_the_response_header_names_the_backend_that_ranked(db, settings, tmp_path, rf):
    settings.SEARCH_INDEX_SOCKET = tmp_path / "no-index.sock"
    make_pool(seed=6, size=20)
    request = RankRequest(required=(("python", 3),), today=TODAY, page=Page(limit=5))

    def view(_):
        IndexBackend().rank(request)
        return HttpResponse("ranked")

    response = SearchBackendHeaderMiddleware(view)(rf.get("/"))
    assert response[HEADER] == "sql; index=stopped"  # a reason code: no path, no error text for an API client
    assert str(tmp_path) not in response[HEADER]
    assert HEADER not in SearchBackendHeaderMiddleware(lambda _: HttpResponse("no ranking"))(rf.get("/"))


@pytest.fixture
def backends(db):
    make_pool(seed=11, countries=COUNTRIES + ODD_COUNTRIES)
    columns = build_index()
    return SqlBackend(), IndexBackend(ranker=lambda query, cut: rank(columns, query, cut, keywords_ids))


def _fields(request: RankRequest) -> dict:
    return {name: getattr(request, name) for name in RankRequest.__slots__}


def test_a_count_and_text_search_are_named_by_a_short_code(db, settings, tmp_path):
    settings.SEARCH_INDEX_SOCKET = tmp_path / "no-index.sock"
    make_pool(seed=7, size=10)
    token = answered_by.set("")
    IndexBackend().rank(RankRequest(required=(("python", 3),), today=TODAY, page=Page(limit=5, count=True)))
    assert answered_by.get() == "sql; index=count"
    answered_by.reset(token)


def test_an_index_that_is_building_or_behind_is_named_by_its_code(db, settings):
    make_pool(seed=8, size=10)
    request = RankRequest(required=(("python", 3),), today=TODAY, page=Page(limit=5))
    for code in ("building", "behind"):

        def ranker(query, cut, code=code):
            raise IndexUnavailable("details for the log", code=code)

        token = answered_by.set("")
        IndexBackend(ranker=ranker).rank(request)
        assert answered_by.get() == f"sql; index={code}"
        answered_by.reset(token)


def test_a_strict_request_is_handed_to_sql_which_answers_it_faster(db):
    make_pool(seed=9, size=10)
    asked = []

    def ranker(query, cut):
        asked.append(query)
        raise AssertionError("a strict request never reaches the index")

    request = RankRequest(required=(("python", 3),), strict=True, today=TODAY, page=Page(limit=5))
    token = answered_by.set("")
    answer = IndexBackend(ranker=ranker).rank(request)
    assert answered_by.get() == "sql; index=strict"
    assert asked == []
    assert answer.ids == SqlBackend().rank(request).ids
    answered_by.reset(token)


def test_skills_the_caller_resolved_are_not_looked_up_again(backends, monkeypatch):
    from profiles.search.ranking import resolve
    from searchindex import backend

    sql, index = backends
    request = RankRequest(required=(("python", 3),), preferred=("go",), today=TODAY, page=Page(limit=5))
    resolved = resolve(request)
    expected = sql.rank(request)

    def again(request):
        raise AssertionError("resolved twice")

    monkeypatch.setattr(backend, "resolve", again)
    assert index.rank(request, resolved=resolved).ids == expected.ids
    strict = RankRequest(**{**_fields(request), "strict": True})
    monkeypatch.setattr("profiles.search.backends.sql.resolve", again)
    assert index.rank(strict, resolved=resolve(strict)).backend == "sql"  # handed over with them


def test_an_unfiltered_ranked_page_reads_its_rows_as_it_checks_them_and_a_row_gone_still_gives_way(
    backends, monkeypatch, django_assert_num_queries
):
    from profiles.models import Candidate
    from profiles.search.pages import ranked_rows
    from profiles.search.ranking import resolve

    sql, index = backends
    monkeypatch.setattr("profiles.search.pages.search_backend", lambda: index)
    request = RankRequest(required=(("python", 3),), preferred=("go",), today=TODAY, page=Page(limit=4))
    resolved = resolve(request)
    whole = sql.rank(RankRequest(**{**_fields(request), "page": Page(limit=6)})).ids

    with django_assert_num_queries(1):  # the page's rows, read as they are checked: not their ids, then the rows again
        page = ranked_rows(request, queryset=Candidate.objects.only("name", "skill_scores"), resolved=resolved)
    Candidate.objects.filter(pk=whole[0]).delete()  # gone since the index read it
    after = ranked_rows(request, resolved=resolved)

    assert [row.pk for row in page] == list(whole[:4])
    assert [row.pk for row in after] == list(whole[1:5])
    assert all(row.name and row.match > 0 for row in [*page, *after])
