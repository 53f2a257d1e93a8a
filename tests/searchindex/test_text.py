"""The index's BM25 text search: the same candidates as the SQL filter ``q``, in the order a recruiter expects, never an
erased or merged-away person, fresh after a poll, and SQL when the index cannot answer."""

import json
import logging
from pathlib import Path

import pytest
from django.contrib.postgres.search import SearchQuery
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg.conninfo import make_conninfo

from privacy.services import candidate_erase
from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from profiles.search.backends.base import Page, TextRequest
from profiles.search.backends.sql import SqlBackend
from profiles.search.columns import SEARCH_TEXT_MAX_CHARS
from profiles.search.text_pages import text_page
from profiles.services import candidates_merge
from searchindex.backend import IndexBackend, websearch_tsquery
from searchindex.client import IndexUnavailable
from searchindex.middleware import answered_by
from searchindex.text import TextIndex, pair, vector_fields
from searchindex.tsquery import parse_tsquery
from tests.factories import CandidateFactory, UserFactory

CASES = json.loads((Path(__file__).parents[1] / "fixtures" / "search" / "text_relevance.json").read_text())

# Fictional profiles whose words overlap, so that phrases, negations and "or" have something to tell apart.
POOL = [
    ("Mara Okonkwo", "Senior Backend Engineer", "Distributed systems and payments platforms in Go."),
    ("Tobin Wrexham", "Frontend Engineer", "React interfaces for a payments start-up; some platform work."),
    ("Selma Hartigan", "Head of Engineering", "Leads platform teams; formerly a distributed systems engineer."),
    ("Nils Arkwright", "Data Engineer", "Streaming pipelines, Kafka, event sourcing and data platforms."),
    ("Ines Calloway", "Site Reliability Engineer", "Kubernetes operator author; on-call for distributed storage."),
    ("Rafe Dunmore", "Mobile Engineer", "Swift and Kotlin; payments in the app; no backend work."),
    ("Yara Penwick", "Engineering Manager", "Head of a platform group; hiring, planning, systems thinking."),
    ("Cormac Ashby", "Backend Engineer", "Python and Go services, node.js tooling, real-time systems."),
    ("Lene Strand", "Machine Learning Engineer", "Machine-learning platform, model serving, data pipelines."),
    ("Oskar Vail", "Security Engineer", "Payments security reviews and platform hardening."),
]
QUERY_WORDS = ("payments", "platform", "distributed", "systems", "engineering", "head", "go", "machine", "kafka")


def make(**fields) -> Candidate:
    candidate = CandidateFactory(**{"title": fields.get("headline", "Engineer"), **fields})
    candidates_refresh_search_columns(candidate_ids=[candidate.pk])
    return candidate


def make_pool() -> list[Candidate]:
    return [make(name=name, headline=headline, summary=summary) for name, headline, summary in POOL]


def build() -> TextIndex:
    """The text index over what this connection sees (the test's transaction included)."""
    connection.ensure_connection()
    return TextIndex.build(connection.connection)


def index_hits(text: TextIndex, query: str, **page) -> list[tuple[float, int]]:
    return text.search(parse_tsquery(websearch_tsquery(query)), **{"limit": 1_000, **page})


def sql_matches(query: str) -> set[int]:
    found = Candidate.objects.filter(search_vector=SearchQuery(query, search_type="websearch", config="english"))
    return set(found.values_list("id", flat=True))


def backend_for(text: TextIndex) -> IndexBackend:
    def texter(tsquery, *, limit, offset=0, after=None):
        return text.search(parse_tsquery(tsquery), limit=limit, offset=offset, after=after)

    return IndexBackend(texter=texter)


def test_a_vectors_text_becomes_the_fields_by_weight_and_the_words_in_place():
    fields = vector_fields("'engin':3B,9C 'head':1B 'it''s':5 'lead':16383A 'zeta':16383A 'a\\\\b':7")

    assert fields[:4] == ("lead zeta", "engin head", "engin", "it's a\\b")
    # Position 1 to 9 in order, a filler where a stop word stood; of two words kept at the last position, the first
    # stands there and the second among the crowded ones, where it forms no phrase.
    assert fields[4].split()[:9] == ["head", "~", "engin", "~", "it's", "~", "a\\b", "~", "engin"]
    assert fields[4].split()[-1] == "lead"
    assert fields[5] == "zeta"
    # The pairs of words in place at most three positions apart, in their order: "head" (1) and "engin" (3), not
    # "head" and "it's" (5); none with a filler, none with a crowded word.
    pairs = set(fields[6].split())
    assert {pair("head", "engin"), pair("engin", "it's"), pair("it's", "a\\b"), pair("a\\b", "engin")} <= pairs
    assert pair("head", "it's") not in pairs
    assert not any("~" in p.split("\x01") or "zeta" in p for p in pairs)
    assert vector_fields("") == ("", "", "", "", "", "", "")


# --- The same candidates as SQL


@pytest.mark.django_db
def test_the_words_piled_onto_the_last_position_of_a_very_long_profile_match_alone_but_form_no_phrase():
    # A fictional profile longer than the 16,383 positions a search vector keeps (short words, so that the summary's
    # searched characters hold that many): PostgreSQL stands every word past the last position at it, so that no two
    # of them are a phrase.
    summary = "zu " * 16_400 + "quartz harbor ember"
    assert len(summary) <= SEARCH_TEXT_MAX_CHARS
    make(name="Petra Quillfeather", headline="Archivist", summary=summary)
    make_pool()
    text = build()

    for query in ("quartz", "harbor ember", '"ember harbor"', '"harbor quartz"', '"ember harbor quartz"', "-quartz"):
        assert {pk for _, pk in index_hits(text, query)} == sql_matches(query), query


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    [
        "payments",
        "payments platform",
        '"distributed systems"',
        '"head of engineering"',
        "payments -backend",
        "kafka or swift",
        '-"distributed systems"',
        "machine-learning",
        "node.js",
        "the of",
        "PLATFORMS",
    ],
)
def test_the_index_matches_the_candidates_the_sql_filter_matches(query):
    make_pool()
    text = build()

    assert {pk for _, pk in index_hits(text, query)} == sql_matches(query)


_WORD = st.sampled_from(QUERY_WORDS)
_PART = st.one_of(
    _WORD,
    st.builds(lambda w: f"-{w}", _WORD),
    st.builds(lambda a, b: f'"{a} {b}"', _WORD, _WORD),
    st.just("or"),
)


@pytest.mark.django_db
@settings(
    derandomize=True,  # the same examples on every run of the normal suite
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(parts=st.lists(_PART, min_size=1, max_size=5))
def test_any_web_search_query_matches_the_same_candidates_in_the_index_and_in_sql(parts):
    query = " ".join(parts)
    if not Candidate.objects.exists():
        make_pool()
    text = build()

    assert {pk for _, pk in index_hits(text, query)} == sql_matches(query), query


# --- The order a recruiter expects


@pytest.mark.django_db
@pytest.mark.parametrize("case", ["phrase_in_title", "name_over_summary", "short_over_long", "words_together"])
def test_the_expected_profile_comes_first(case):
    make_pool()  # other profiles, so that the words' rarity is a pool's, not two documents'
    first, second = make(**CASES[case]["first"]), make(**CASES[case]["second"])
    text = build()

    ids = [pk for _, pk in index_hits(text, CASES[case]["query"])]

    assert first.pk in ids
    assert second.pk in ids
    assert ids.index(first.pk) < ids.index(second.pk)


@pytest.mark.django_db
def test_equal_scores_are_ordered_by_id_highest_first_and_pages_follow_on_without_gaps():
    twins = [
        make(name=f"Twin {n}", headline="Platform Engineer", company="Acme Works", summary="Same words.")
        for n in range(7)
    ]
    make_pool()
    text = build()
    whole = index_hits(text, "platform")

    paged, after = [], None
    while page := index_hits(text, "platform", limit=3, after=after):
        paged += page
        after = page[-1]

    assert paged == whole
    assert [pk for _, pk in whole] == [pk for _, pk in sorted(whole, key=lambda hit: (-hit[0], -hit[1]))]
    twin_ids = [pk for _, pk in whole if pk in {t.pk for t in twins}]
    assert twin_ids == sorted(twin_ids, reverse=True)


@pytest.mark.django_db
def test_a_query_that_asks_for_no_word_lists_its_matches_by_id_highest_first():
    pool = make_pool()
    text = build()

    ids = [pk for _, pk in index_hits(text, "-payments")]

    assert ids == sorted(sql_matches("-payments"), reverse=True)
    assert [pk for _, pk in index_hits(text, "-payments", limit=2, after=(0.0, ids[1]))] == ids[2:4]
    assert len(ids) < len(pool)


# --- The backend: PostgreSQL decides who is shown


@pytest.mark.django_db
def test_the_backend_pages_the_index_order_and_says_it_answered():
    make_pool()
    backend = backend_for(build())
    token = answered_by.set("")

    first = backend.search_text(TextRequest(query="platform", page=Page(limit=2)))
    second = backend.search_text(TextRequest(query="platform", page=Page(limit=2, after=first.keys[-1])))

    assert answered_by.get() == "index"
    assert first.backend == "index"
    assert first.has_more
    whole = [pk for _, pk in index_hits(build(), "platform")]
    assert [*first.ids, *second.ids] == whole[:4]
    answered_by.reset(token)


@pytest.mark.django_db
def test_an_erased_or_merged_candidate_is_never_returned_even_before_the_index_hears_of_it():
    pool = make_pool()
    text = build()  # holds everyone; not polled after the erasure and the merge
    erased, merged_away, survivor = pool[0], pool[1], pool[3]

    candidate_erase(candidate=erased, user=UserFactory())
    candidates_merge(survivor=survivor, others=[merged_away], user=UserFactory())
    answer = backend_for(text).search_text(TextRequest(query="payments or platform", page=Page(limit=20)))

    assert erased.pk not in answer.ids
    assert merged_away.pk not in answer.ids
    assert survivor.pk in answer.ids
    assert {erased.pk, merged_away.pk} & {pk for _, pk in index_hits(text, "payments or platform")}


@pytest.mark.django_db
def test_the_candidate_filters_narrow_the_index_order():
    pool = make_pool()
    Candidate.objects.filter(pk__in=[pool[0].pk, pool[2].pk]).update(country_code="FR")
    backend = backend_for(build())

    answer = backend.search_text(TextRequest(query="distributed", filters={"country": "FR"}, page=Page(limit=10)))

    assert set(answer.ids) == {pool[0].pk, pool[2].pk}


@pytest.mark.django_db(transaction=True, databases="__all__")  # the child process reads what is committed
def test_an_index_built_in_a_process_of_its_own_answers_as_one_built_here_and_takes_changes():
    pool = make_pool()
    here = build()
    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)

    apart = TextIndex.build_apart(make_conninfo(**params))

    assert Path(apart.directory.name, "meta.json").exists()  # in files, not in this process's memory
    assert len(apart) == len(here) == len(pool)
    for query in ("distributed systems", '"payments platform"', "head -engineering", "kafka or machine"):
        assert index_hits(apart, query) == index_hits(here, query)
    edited = pool[5]
    edited.headline = "Observability Lead"
    edited.save()
    candidates_refresh_search_columns(candidate_ids=[edited.pk])
    connection.ensure_connection()
    assert apart.poll(connection.connection) >= 1
    assert [pk for _, pk in index_hits(apart, "observability")] == [edited.pk]


@pytest.mark.django_db
def test_a_change_is_found_after_a_poll_and_a_deletion_is_forgotten():
    pool = make_pool()
    text = build()
    edited = pool[5]

    edited.headline = "Observability Lead"
    edited.save()
    candidates_refresh_search_columns(candidate_ids=[edited.pk])
    Candidate.objects.filter(pk=pool[4].pk).delete()
    assert not index_hits(text, "observability")

    assert text.poll(connection.connection) >= 2

    assert [pk for _, pk in index_hits(text, "observability")] == [edited.pk]
    assert pool[4].pk not in {pk for _, pk in index_hits(text, "kubernetes or distributed")}


@pytest.mark.django_db
def test_a_stopped_index_hands_the_text_search_to_sql_and_says_so(settings, tmp_path, caplog):
    make_pool()
    settings.SEARCH_INDEX_SOCKET = tmp_path / "no-index.sock"  # nothing listens there
    request = TextRequest(query="platform", page=Page(limit=5))
    token = answered_by.set("")

    with caplog.at_level(logging.INFO, logger="searchindex.backend"):
        answer = IndexBackend().search_text(request)

    assert answered_by.get() == "sql; index=stopped"
    assert answer.backend == "sql"
    assert answer.ids == SqlBackend().search_text(request).ids
    assert "text search in SQL (stopped)" in caplog.text
    answered_by.reset(token)


@pytest.mark.django_db
def test_a_query_the_index_does_not_evaluate_and_a_count_go_to_sql_with_their_codes():
    make_pool()

    def unsupported(tsquery, **_):
        raise IndexUnavailable("unsupported: a modifier", code="query")

    for backend, page, code in (
        (IndexBackend(texter=unsupported), Page(limit=5), "query"),
        (backend_for(build()), Page(limit=5, count=True), "count"),
    ):
        token = answered_by.set("")
        answer = backend.search_text(TextRequest(query="platform", page=page))
        assert answered_by.get() == f"sql; index={code}"
        assert answer.ids == SqlBackend().search_text(TextRequest(query="platform", page=page)).ids
        answered_by.reset(token)


@pytest.mark.django_db
def test_a_cursor_is_read_only_by_the_order_that_gave_it():
    make_pool()
    backend = backend_for(build())
    request = TextRequest(query="platform or payments", page=Page(limit=2))
    sql_first = SqlBackend().search_text(request)
    index_first = backend.search_text(request)
    token = answered_by.set("")

    # A cursor SQL gave out (the index was down for the first page) goes on in SQL's order.
    following = backend.search_text(TextRequest(query=request.query, page=Page(limit=2, after=sql_first.keys[-1])))
    assert answered_by.get() == "sql; index=cursor"
    sql_next = SqlBackend().search_text(TextRequest(query=request.query, page=Page(limit=2, after=sql_first.keys[-1])))
    assert following.ids == sql_next.ids

    # The index's cursor, when the index is down, cannot go on in SQL's order: SQL starts the order again.
    stopped = IndexBackend(texter=unavailable)
    restarted = stopped.search_text(TextRequest(query=request.query, page=Page(limit=2, after=index_first.keys[-1])))
    assert answered_by.get() == "sql; index=stopped"
    assert restarted.ids == sql_first.ids
    answered_by.reset(token)


def unavailable(tsquery, **_):
    raise IndexUnavailable("not reachable", code="stopped")


@pytest.mark.django_db
def test_an_unfiltered_page_reads_its_rows_as_it_checks_them_and_a_row_gone_still_gives_way(
    monkeypatch, django_assert_num_queries
):
    make_pool()
    backend = backend_for(build())
    monkeypatch.setattr("profiles.search.text_pages.search_backend", lambda: backend)
    whole = [pk for _, pk in index_hits(build(), "platform")]

    with django_assert_num_queries(2):  # the query's parse, then the hits' rows: not their ids, then the rows again
        page = text_page(params={"q": "platform"}, page=Page(limit=3))
    Candidate.objects.filter(pk=whole[0]).delete()  # gone since the index read it
    after = text_page(params={"q": "platform"}, page=Page(limit=3))

    assert [row.pk for row in page.rows] == whole[:3]
    assert [row.pk for row in after.rows] == whole[1:4]
    assert all(row.name and row.rank > 0 for row in [*page.rows, *after.rows])
    assert (page.backend, page.has_more, after.has_more) == ("index", True, True)
