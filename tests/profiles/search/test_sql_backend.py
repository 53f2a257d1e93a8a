"""The SQL backend through the search interface (``profiles.search.backends``), row for row against the rows the
ranking gave before it moved behind the interface (tests/fixtures/search/sql_ranking_reference.json, on the pool of
tests/profiles/search/pool.py), and the page paths of ``jobs.ranking`` over it."""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from jobs.criteria import Criteria
from jobs.ranking import RankOptions, candidates_ranked, ranked_page
from profiles.models import Candidate
from profiles.search.backends import DEFAULT_BACKEND, search_backend
from profiles.search.backends.base import (
    Page,
    RankedIds,
    RankRequest,
    SearchBackend,
    TextHits,
    TextRequest,
)
from profiles.search.backends.sql import SqlBackend
from tests.profiles.search.pool import CASES, REFERENCE, TODAY, build_pool

pytestmark = pytest.mark.django_db

EXPECTED = json.loads(REFERENCE.read_text(encoding="utf-8"))


class IdsOnly(SearchBackend):
    """A backend that answers with ids and keys only, as an index does: the SQL backend's, passed on."""

    name = "ids-only"

    def rank(self, request: RankRequest, *, resolved=None) -> RankedIds:
        return SqlBackend().rank(request, resolved=resolved)

    def search_text(self, request: TextRequest) -> TextHits:
        return SqlBackend().search_text(request)

    def index(self, candidate_ids: Iterable[int]) -> None:
        pass

    def remove(self, candidate_ids: Iterable[int]) -> None:
        pass


class WithAGhost(IdsOnly):
    """An index that still holds a candidate the database no longer has: its id first on every page."""

    name = "with-a-ghost"
    GHOST = -1

    def rank(self, request: RankRequest, *, resolved=None) -> RankedIds:
        answer = super().rank(request, resolved=resolved)
        keys = ((0, 100, self.GHOST), *answer.keys[: request.page.limit - 1])
        return RankedIds(tuple(pk for *_, pk in keys), keys, has_more=True, backend=self.name)


@pytest.fixture(scope="module")
def names(django_db_setup, django_db_blocker):
    """The pool, written once for the module's tests (each runs in a savepoint of this transaction, rolled back at
    the end): id -> name."""
    with django_db_blocker.unblock(), transaction.atomic():
        build_pool()
        yield dict(Candidate.objects.values_list("pk", "name"))
        transaction.set_rollback(True)


def _request(case: str, **page) -> RankRequest:
    return RankRequest(**CASES[case], today=TODAY, page=Page(**page))


def _criteria(case: str) -> Criteria:
    fields = {key: value for key, value in CASES[case].items() if key not in ("strict", "widen", "anywhere", "filters")}
    return Criteria(**fields)


def _options(case: str) -> RankOptions:
    return RankOptions(**{key: CASES[case].get(key, False) for key in ("strict", "widen", "anywhere")})


@pytest.mark.parametrize("case", CASES)
def test_the_sql_backend_pages_through_the_ranking_it_gave_before(names, case):
    expected = EXPECTED["rank"][case]["rows"]
    backend = SqlBackend()
    keys, after = [], None
    while True:
        answer = backend.rank(_request(case, limit=5, after=after, count=True))
        assert answer.backend == "sql"
        assert answer.total == len(expected)
        assert answer.ids == tuple(pk for _, _, pk in answer.keys)
        assert len(answer.ids) <= 5
        keys.extend(answer.keys)
        if not answer.has_more:
            break
        after = answer.keys[-1]

    assert [[names[pk], match, misses_any] for misses_any, match, pk in keys] == [
        [name, match, misses_any] for name, match, _, misses_any in expected
    ]
    by_offset = backend.rank(_request(case, limit=4, offset=6))
    assert by_offset.keys == tuple(keys[6:10])
    assert by_offset.has_more == (len(keys) > 10)


@pytest.mark.parametrize("case", CASES)
def test_the_ranked_queryset_counts_the_missing_skills_as_before(names, case):
    request = _request(case)
    ranked = SqlBackend().ranked_queryset(request)
    rows = [[row.name, row.match, row.missing_count, row.misses_any] for row in ranked]
    assert rows == EXPECTED["rank"][case]["rows"]
    options = _options(case)
    legacy = candidates_ranked(
        _criteria(case),
        params=request.filters,
        today=TODAY,
        strict=options.strict,
        widen=options.widen,
        anywhere=options.anywhere,
    )
    assert [[row.name, row.match, row.missing_count, row.misses_any] for row in legacy] == rows


def _shown(rows) -> list[dict]:
    return [
        {"name": row.name, "match": row.match, "matched": row.matched, "missing": row.missing, "evidence": row.evidence}
        for row in rows
    ]


@pytest.mark.parametrize("backend", [DEFAULT_BACKEND, f"{__name__}.IdsOnly"])
@pytest.mark.parametrize("case", CASES)
def test_a_named_page_is_the_page_explained_as_before(names, case, backend, settings):
    settings.SEARCH_BACKEND = backend
    assert search_backend().name == ("sql" if backend == DEFAULT_BACKEND else "ids-only")
    page = ranked_page(
        _criteria(case),
        options=_options(case),
        params=CASES[case].get("filters"),
        today=TODAY,
        page=Page(limit=8),
    )
    assert _shown(page) == EXPECTED["rank"][case]["first_page"]


@pytest.mark.parametrize("case", CASES)
def test_a_page_taken_from_the_queryset_is_the_page_explained_as_before(names, case):
    page = ranked_page(
        _criteria(case),
        options=_options(case),
        params=CASES[case].get("filters"),
        today=TODAY,
        take=lambda ranked: ranked[:8],
    )
    assert _shown(page) == EXPECTED["rank"][case]["first_page"]


def test_a_page_after_the_first_by_its_key_under_an_ids_only_backend(names, settings):
    settings.SEARCH_BACKEND = f"{__name__}.IdsOnly"
    case = "backend anywhere"
    first = ranked_page(_criteria(case), options=_options(case), today=TODAY, page=Page(limit=8))
    last = first[-1]
    second = ranked_page(
        _criteria(case),
        options=_options(case),
        today=TODAY,
        page=Page(limit=8, after=(last.misses_any, last.match, last.pk)),
    )
    assert [row.name for row in (*first, *second)] == [row[0] for row in EXPECTED["rank"][case]["rows"][:16]]


def test_an_id_the_database_no_longer_has_is_dropped_from_the_page(names, settings):
    settings.SEARCH_BACKEND = f"{__name__}.WithAGhost"
    case = "widened"
    page = ranked_page(_criteria(case), options=_options(case), today=TODAY, page=Page(limit=8))
    assert [row.name for row in page] == [row[0] for row in EXPECTED["rank"][case]["rows"][:7]]


def test_ranked_page_cuts_its_page_one_way():
    with pytest.raises(TypeError):
        ranked_page(Criteria(), options=RankOptions())
    with pytest.raises(TypeError):
        ranked_page(Criteria(), options=RankOptions(), take=list, page=Page())


@pytest.mark.parametrize("name", ["skill", "any_skill", "q", "ordering"])
def test_filters_that_would_rank_are_refused(names, name):
    with pytest.raises(ValidationError) as caught:
        SqlBackend().rank(RankRequest(required=(("go", 3),), filters={name: "python"}))
    assert name in caught.value.message_dict


@pytest.mark.parametrize("case", EXPECTED["text"])
def test_the_sql_backend_searches_text_as_the_candidate_list_did(names, case):
    params = dict(EXPECTED["text"][case]["params"])
    query = params.pop("q")
    expected = EXPECTED["text"][case]["names"]
    found, after = [], None
    while True:
        hits = SqlBackend().search_text(TextRequest(query, filters=params, page=Page(limit=3, after=after, count=True)))
        assert hits.total == len(expected)
        found.extend(hits.ids)
        if not hits.has_more:
            break
        after = hits.keys[-1]
    assert [names[pk] for pk in found] == expected


def test_index_and_remove_change_nothing_for_sql(names):
    backend = SqlBackend()
    before = backend.rank(_request("widened", limit=50))
    backend.index(list(names))
    backend.remove(list(names))
    assert backend.rank(_request("widened", limit=50)) == before


def test_the_setting_names_the_backend(settings):
    settings.SEARCH_BACKEND = ""
    assert isinstance(search_backend(), SqlBackend)
    settings.SEARCH_BACKEND = "profiles.models.Candidate"
    with pytest.raises(TypeError):
        search_backend()
