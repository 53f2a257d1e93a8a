"""The index process's text search: answered over the socket once built, fresh within the lag bound after an edit,
never showing an erased person, and the job match's keywords read by the same engine as PostgreSQL reads them."""

import datetime as dt
import threading

import numpy as np
import pytest
from django.db import connection
from psycopg.conninfo import make_conninfo

from privacy.services import candidate_erase
from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from profiles.search.backends.base import Page, TextRequest
from profiles.search.backends.sql import SqlBackend
from searchindex import client
from searchindex.backend import IndexBackend
from searchindex.middleware import answered_by
from searchindex.pages import keywords_ids
from searchindex.server import _KEYWORDS_KEPT, Index, serve
from searchindex.services import changes_prune
from searchindex.text import TextIndex
from tests.factories import CandidateSkillFactory, UserFactory
from tests.searchindex.helpers import WORDS, make_pool
from tests.searchindex.helpers_server import wait_until
from tests.searchindex.test_text import make
from tests.searchindex.test_text import make_pool as make_text_pool

# The server's connection sees only what is committed; the replica router reads from every alias (CI names replicas).
pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def _dsn() -> str:
    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    return make_conninfo(**params)


@pytest.fixture
def serving(settings, tmp_path):
    """Starts the index process's server, in a thread of this process, on the test database, and waits for its text
    to be built; stopped afterwards (or by its ``stop``)."""
    settings.SEARCH_INDEX_SOCKET = tmp_path / "index.sock"
    stop = threading.Event()
    thread = threading.Thread(
        target=serve,
        args=(settings.SEARCH_INDEX_SOCKET, _dsn()),
        kwargs={"stop": stop, "poll_seconds": 0.2},
        daemon=True,
    )

    def start() -> None:
        thread.start()
        wait_until(lambda: client.status().get("text", {}).get("state") == "ready")

    def stopped() -> None:
        stop.set()
        thread.join(timeout=10)

    start.stop = stopped
    yield start
    stopped()


@pytest.fixture
def index():
    """An index process's state, driven by the test (no server, no refresh loop); its connections closed after."""
    index = Index(_dsn())
    yield index
    if index.text_builder is not None:
        index.text_builder.join(timeout=60)
    index.disconnect()


def database_now() -> dt.datetime:
    with connection.cursor() as cursor:
        cursor.execute("SELECT now()")
        return cursor.fetchone()[0]


def search(query: str) -> list[int]:
    return list(IndexBackend().search_text(TextRequest(query=query, page=Page(limit=50))).ids)


def test_the_index_process_answers_text_searches_and_keeps_them_fresh(serving):
    pool = make_text_pool()
    CandidateSkillFactory(candidate=pool[1])  # the columns are built over at least one skill
    serving()
    token = answered_by.set("")

    wait_until(lambda: set(search("payments")) == set(SqlBackend().search_text(TextRequest("payments")).ids))
    assert answered_by.get() == "index"

    edited = pool[6]
    before_edit = database_now()
    Candidate.objects.filter(pk=edited.pk).update(headline="Observability Lead")
    candidates_refresh_search_columns(candidate_ids=[edited.pk])
    # Answered by the index, which the client accepts only within the lag bound of its fresh_at; SQL would find the
    # edit at once and prove nothing.
    wait_until(lambda: search("observability") == [edited.pk] and answered_by.get() == "index")
    assert dt.datetime.fromisoformat(client.status()["text"]["fresh_at"]) > before_edit

    erased = pool[0]
    assert erased.pk in search("payments")
    candidate_erase(candidate=erased, user=UserFactory())
    assert erased.pk not in search("payments")  # at once: PostgreSQL decides who is shown
    assert answered_by.get() == "index"
    answered_by.reset(token)


def test_the_index_process_says_building_until_its_text_is_built(index):
    make(name="Wren Aldous", headline="Platform Engineer")

    assert index.answer({"op": "text", "tsquery": "'platform'", "limit": 5}) == {"error": "building"}
    assert index.answer({"op": "status"}) == {"state": "building"}


@pytest.mark.parametrize(
    "listed_per_id", [0, 1, 20, 10**6], ids=["searched-among-the-ids", "both-in-one-call", "default", "listed-whole"]
)
def test_the_job_match_keywords_are_read_by_the_text_engine_as_postgresql_reads_them(
    index, settings, monkeypatch, listed_per_id
):
    # Each way of finding a keyword's candidates: searched among the ids asked about, or every match listed (a keyword
    # few candidates match), and both in one call (one per id: asked about a few ids, a keyword more of the pool
    # matches is searched among them, a rarer one listed).
    monkeypatch.setattr("searchindex.text.LISTED_PER_ID", listed_per_id)
    make_pool(seed=3, size=60)
    index.build()
    wait_until(lambda: index.text is not None)  # built in a thread of its own, after the columns
    ids = np.array(sorted(Candidate.objects.values_list("id", flat=True)), dtype=np.int64)
    settings.SEARCH_INDEX_MAX_LAG_SECONDS = 24 * 3600  # no refresh loop runs here: the text stays within the bound
    keywords = (*WORDS, "senior data", "distributed payments", "the") * 2  # more than one search's worth of flags
    expected = keywords_ids(keywords, ids)
    monkeypatch.setattr("searchindex.server.keywords_matched", None)  # the text engine answers, never PostgreSQL
    # The parsed keywords' memory one short of full: it empties while this request's keywords are read.
    index.keywords.update({f"remembered {n}": None for n in range(_KEYWORDS_KEPT - 1)})

    some = ids[::7]  # a few of the candidates: a keyword most of the pool matches is searched among them
    expected_of_some = keywords_ids(keywords, some)

    with index.lock:
        together = index.keywords_ids(keywords, ids)
        alone = [index.keywords_ids((keyword,), ids)[0] for keyword in keywords]
        of_some = index.keywords_ids(keywords, some)
    assert any(len(found) for found in expected)
    for keyword, wanted, found, found_alone in zip(keywords, expected, together, alone, strict=True):
        assert sorted(found.tolist()) == sorted(wanted.tolist()), keyword
        assert sorted(found_alone.tolist()) == sorted(wanted.tolist()), keyword
    for keyword, wanted, found in zip(keywords, expected_of_some, of_some, strict=True):
        assert sorted(found.tolist()) == sorted(wanted.tolist()), keyword


def text_ids(index: Index, tsquery: str) -> list[int] | dict:
    """The ids the process answers for ``tsquery``, or its error reply."""
    reply = index.answer({"op": "text", "tsquery": tsquery, "limit": 50})
    return reply if "error" in reply else reply["ids"]


def test_a_rebuild_drops_the_old_text_so_text_searches_say_building_until_the_new_one_is_built(index, monkeypatch):
    pool = make_text_pool()
    index.build()
    wait_until(lambda: index.text is not None)
    # An edit the index never read, whose outbox row is pruned: the polls failed for longer than the outbox keeps rows.
    edited = pool[6]
    Candidate.objects.filter(pk=edited.pk).update(headline="Observability Lead")
    candidates_refresh_search_columns(candidate_ids=[edited.pk])
    changes_prune(keep=dt.timedelta(0))
    release, build_text = threading.Event(), TextIndex.build_apart
    monkeypatch.setattr(TextIndex, "build_apart", lambda dsn, **where: release.wait(30) and build_text(dsn, **where))
    ids = np.array(sorted(Candidate.objects.values_list("id", flat=True)), dtype=np.int64)

    index.build()  # what the refresh loop does after such a gap
    index.refresh()

    assert text_ids(index, "'observ'") == {"error": "building"}
    assert index.status()["text"] == {"state": "building"}
    with index.lock:
        assert index.keywords_ids(("observability",), ids)[0].tolist() == [edited.pk]  # read from PostgreSQL meanwhile
    release.set()
    wait_until(lambda: index.text is not None)
    assert text_ids(index, "'observ'") == [edited.pk]


def test_the_job_match_keywords_are_read_from_postgresql_while_the_text_trails_beyond_the_lag_bound(index, settings):
    pool = make_text_pool()
    index.build()
    wait_until(lambda: index.text is not None)
    edited = pool[6]
    Candidate.objects.filter(pk=edited.pk).update(headline="Observability Lead")
    candidates_refresh_search_columns(candidate_ids=[edited.pk])  # not polled: the text still holds the old headline
    ids = np.array(sorted(Candidate.objects.values_list("id", flat=True)), dtype=np.int64)

    with index.lock:
        settings.SEARCH_INDEX_MAX_LAG_SECONDS = 24 * 3600  # the text's last poll is within the bound: it answers
        assert index.keywords_ids(("observability",), ids)[0].tolist() == []
        settings.SEARCH_INDEX_MAX_LAG_SECONDS = -1  # any poll is further behind than that
        assert index.keywords_ids(("observability",), ids)[0].tolist() == [edited.pk]


def test_the_text_index_lives_in_files_beside_the_socket_and_goes_with_the_process(serving, settings):
    make_text_pool()
    root = settings.SEARCH_INDEX_SOCKET.with_name("index.sock.text")
    left = root / "talentdb-text-left-by-a-killed-process"
    left.mkdir(parents=True)
    (left / "meta.json").write_text("{}")

    serving()

    [built] = list(root.iterdir())  # what a killed process left is gone
    assert built != left
    assert (built / "meta.json").exists()
    found = client.text("'distribut' <-> 'system'", limit=10)
    assert found

    serving.stop()
    assert not root.exists()
