"""The index serves while candidates are imported, edited, merged and erased: each change reaches its answers within
the lag bound, and an erased or merged-away person is never on a page, not even before the index hears of it."""

import datetime as dt
import time

import pytest
from django.db import connection, transaction

from ingestion.services import documents_load
from jobs.criteria import Criteria
from jobs.ranking import RankOptions
from jobs.ranking.formula import resolve
from privacy.services import candidate_erase
from profiles.models import Candidate, CandidateSkill
from profiles.search import candidates_refresh_search_columns
from profiles.services import candidates_merge
from searchindex import client
from searchindex.freshness import POLL_SQL
from searchindex.pages import page_rows, present_ids
from searchindex.rank import Cut
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory, UserFactory
from tests.ingestion.documents import make_document
from tests.searchindex.helpers import query_for
from tests.searchindex.serving import serving as serving  # the fixture

pytestmark = pytest.mark.django_db(transaction=True)

CRITERIA = Criteria(required=(("python", 5),), preferred=("rust",))
TODAY = dt.date(2026, 6, 15)


def _query():
    return query_for(CRITERIA, resolve(CRITERIA), options=RankOptions(), today=TODAY)


def ranked() -> list[tuple[int, int]]:
    """The index's own order (ids and matches), before the page's rows are read from the database."""
    answer = client.rank(_query(), Cut(limit=50))
    return list(zip(answer.ids.tolist(), answer.match.tolist(), strict=True))


def page() -> list[int]:
    """A page as the backend serves it: ranked by the index, its rows read from PostgreSQL."""
    rows = page_rows(
        lambda cut: client.rank(_query(), cut), Cut(limit=50), lambda ids: present_ids(ids, params=None), filtered=False
    )
    return [row.id for row in rows]


def within_bound(condition) -> float:
    """Seconds until ``condition()`` holds; fails past the lag bound."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < client.settings.SEARCH_INDEX_MAX_LAG_SECONDS, "not within the bound"
        time.sleep(0.05)
    return time.monotonic() - started


@pytest.fixture
def pool(db):
    python, rust = SkillFactory(slug="python"), SkillFactory(slug="rust")
    made = {}
    for name, score in (("Ada", 9), ("Grace", 7), ("Linus", 5)):
        made[name] = CandidateFactory(name=name)
        CandidateSkillFactory(candidate=made[name], skill=python, score=score)
    CandidateSkillFactory(candidate=made["Grace"], skill=rust, score=8)
    return made


def test_imports_edits_merges_and_erasures_reach_the_index_within_the_bound(pool, serving):
    assert [pk for pk, _ in ranked()] == [pool["Grace"].pk, pool["Ada"].pk, pool["Linus"].pk]

    # An import: a new person holding python at 10.
    [result] = documents_load(documents=[make_document("Katherine Example", skills=[])])
    newcomer = Candidate.objects.get(pk=result.candidate_id)
    CandidateSkillFactory(candidate=newcomer, skill=pool["Ada"].skills.first().skill, score=10)
    within_bound(lambda: newcomer.pk in [pk for pk, _ in ranked()])

    # An edit that touches no updated_at: a score changed and the search columns refreshed, as a curator's fix does.
    before = dict(ranked())[pool["Linus"].pk]
    CandidateSkill.objects.filter(candidate=pool["Linus"]).update(score=10)
    candidates_refresh_search_columns(candidate_ids=[pool["Linus"].pk])
    within_bound(lambda: dict(ranked())[pool["Linus"].pk] > before)

    # A merge: the merged-away person is off the page at once, though the index still ranks them.
    assert pool["Ada"].pk in [pk for pk, _ in ranked()]
    candidates_merge(survivor=pool["Grace"], others=[pool["Ada"]], user=UserFactory())
    assert pool["Ada"].pk not in page()
    within_bound(lambda: pool["Ada"].pk not in [pk for pk, _ in ranked()])

    # An erasure: absent from the page at once, and from the index within the bound.
    assert pool["Linus"].pk in [pk for pk, _ in ranked()]
    candidate_erase(candidate=pool["Linus"], user=UserFactory())
    assert pool["Linus"].pk not in page()
    within_bound(lambda: pool["Linus"].pk not in [pk for pk, _ in ranked()])
    assert page() == [pk for pk, _ in ranked()]


def test_a_poll_reads_the_outbox_by_transaction_id_not_every_row():
    """After a large import the outbox holds a row per candidate until the beat prunes it. With the project's planner
    settings (``random_page_cost`` of SSD storage) and no estimate for an ``xid8`` range, an order by ``id`` had the
    planner walk the primary key over every row: 400 ms a poll at a million rows, under the lock rankings wait for.
    (Sequential scans are switched off here so that a few rows plan as a million do.)"""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL random_page_cost = 1.1")
        cursor.execute("SET LOCAL enable_seqscan = off")
        # The plan the index process runs once psycopg prepares the statement: one for any xmin.
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute("PREPARE poll(text) AS " + POLL_SQL.replace("%s", "$1"))
        cursor.execute("EXPLAIN EXECUTE poll('1')")
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("DEALLOCATE poll")
    assert "Index Scan using searchindex_change_xid" in plan, plan
    assert "pkey" not in plan, plan
    assert "Sort" not in plan, plan
