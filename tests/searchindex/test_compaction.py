"""Compaction: after many changes the columns hold dead rows and appended chunks; ``compacted`` folds them into a new
set of columns, leaving the old one as it was (requests go on reading it meanwhile), and the ranking over the compacted
columns is the ranking over columns built afresh, row for row."""

import datetime as dt
from random import Random

import psycopg
import pytest
from django.db import connection
from psycopg.conninfo import make_conninfo

from jobs.criteria import Criteria
from jobs.ranking import RankOptions
from jobs.ranking.formula import resolve
from profiles.models import Candidate, CandidateSkill, Repository
from profiles.search import candidates_refresh_search_columns
from searchindex import columns as index_columns
from searchindex.columns import apply_candidates, apply_repositories, compacted, needs_compaction
from searchindex.freshness import Freshness, poll
from searchindex.pages import keywords_ids
from searchindex.rank import Cut, rank
from tests.searchindex.helpers import build_index, make_pool, query_for

CRITERIA = [
    (Criteria(required=(("python", 5),), preferred=("rust", "go")), RankOptions()),
    (Criteria(required=(("go", 3), ("kafka", 6)), keywords=("backend",)), RankOptions(widen=True)),
    (Criteria(preferred=("docker", "scala"), countries=("DE", "FR")), RankOptions()),
    (Criteria(required=(("java", 2),), excluded=("react",), min_years_coding=3), RankOptions(strict=True)),
]


def rankings(columns) -> list[list[tuple[int, int, int]]]:
    found = []
    for criteria, options in CRITERIA:
        query = query_for(criteria, resolve(criteria, widen=options.widen), options=options)
        ranked = rank(columns, query, Cut(limit=500), keywords_ids)
        found.append(list(zip(ranked.ids.tolist(), ranked.match.tolist(), ranked.missing.tolist(), strict=True)))
    return found


def change(rnd: Random, ids: list[int], *, count: int) -> list[int]:
    """New scores for ``count`` candidates' skills, their search columns refreshed: what an edit writes."""
    picked = rnd.sample(ids, count)
    for skill in CandidateSkill.objects.filter(candidate_id__in=picked):
        skill.score = rnd.randint(0, 10)
        skill.save(update_fields=["score"])
    candidates_refresh_search_columns(candidate_ids=picked)
    return picked


def contributions(columns) -> list[tuple]:
    fields = (columns.contrib_row, columns.contrib_repo, columns.contrib_month, columns.contrib_commits)
    return sorted(zip(*(field.tolist() for field in fields), strict=True))


def everything(columns) -> dict:
    """Every field of the columns as plain values, to tell whether anything in them changed."""
    return {
        "rows": [columns.ids.tolist(), columns.years.tolist(), columns.country.tolist(), columns.alive.tolist()],
        "skills": {
            pk: [column.rows.tolist(), column.scores.tolist(), [(r.tolist(), s.tolist()) for r, s in column.extra]]
            for pk, column in columns.skills.items()
        },
        "contributions": [
            field.tolist()
            for field in (
                columns.contrib_row,
                columns.contrib_repo,
                columns.contrib_month,
                columns.contrib_commits,
                columns.contrib_active,
                columns.contrib_offsets,
            )
        ],
        "topics": [{slug: sorted(repos) for slug, repos in columns.topic_repos.items()}, dict(columns.repo_topics)],
        "built": [columns.built_at, columns.xmin, columns.built_rows, dict(columns.row_of)],
    }


@pytest.mark.django_db
def test_compaction_drops_dead_rows_and_ranks_as_a_fresh_build():
    make_pool(seed=13, size=150)
    rnd = Random(13)
    ids = list(Candidate.objects.values_list("id", flat=True))
    columns = build_index()
    for _ in range(6):  # six polls' worth of edits: a chunk each per skill, old rows dead
        apply_candidates(columns, connection.connection, change(rnd, ids, count=40))
    gone = rnd.sample(ids, 12)
    Candidate.objects.filter(id__in=gone).delete()
    apply_candidates(columns, connection.connection, gone)
    rows = len(columns.ids)
    assert rows > 300
    assert any(column.extra for column in columns.skills.values())
    before, size, old = rankings(columns), columns.nbytes(), everything(columns)
    fresh = build_index()
    assert before == rankings(fresh)

    appended = columns
    columns, dropped = compacted(appended)
    assert columns is not appended
    assert dropped == rows - len(fresh.ids)
    # The old columns are untouched: a request still reading them ranks as before.
    assert everything(appended) == old
    assert rankings(appended) == before
    assert rankings(columns) == before
    assert (columns.built_at, columns.xmin) == (appended.built_at, appended.xmin)
    assert columns.ids.tolist() == fresh.ids.tolist() == sorted(set(ids) - set(gone))
    assert columns.alive.all()
    assert columns.built_rows == len(columns.ids)
    assert columns.row_of == {}
    assert not any(column.extra for column in columns.skills.values())
    assert columns.nbytes() < size
    assert columns.nbytes() == fresh.nbytes()
    assert [columns.row(pk) for pk in fresh.ids.tolist()] == list(range(len(fresh.ids)))
    assert all(columns.row(pk) is None for pk in gone)
    assert columns.contrib_offsets.tolist() == fresh.contrib_offsets.tolist()
    # Each candidate's contributions, in any order within the candidate: the build reads them in the table's order,
    # which the edits above change, and the evidence is a sum over them.
    assert contributions(columns) == contributions(fresh)

    # Changes go on being applied after a compaction, to the new columns only: the two share nothing they change.
    apply_candidates(columns, connection.connection, change(rnd, sorted(set(ids) - set(gone)), count=30))
    Repository.objects.filter(id__in=list(appended.repo_topics)[:3]).update(topic_slugs=["changed"])
    apply_repositories(columns, connection.connection, list(appended.repo_topics)[:3])
    assert rankings(columns) == rankings(build_index())
    assert everything(appended) == old


@pytest.mark.django_db
def test_needs_compaction_after_a_share_of_rows_or_many_chunks(monkeypatch):
    make_pool(seed=14, size=60)
    rnd = Random(14)
    ids = list(Candidate.objects.values_list("id", flat=True))
    columns = build_index()
    assert not needs_compaction(columns)
    monkeypatch.setattr(index_columns, "COMPACT_MIN_ROWS", 25)
    apply_candidates(columns, connection.connection, change(rnd, ids, count=20))
    assert not needs_compaction(columns)
    apply_candidates(columns, connection.connection, change(rnd, ids, count=5))
    assert needs_compaction(columns)
    columns, _ = compacted(columns)
    assert not needs_compaction(columns)
    monkeypatch.setattr(index_columns, "COMPACT_MAX_CHUNKS", 3)
    for _ in range(3):
        apply_candidates(columns, connection.connection, change(rnd, ids, count=1))
    assert needs_compaction(columns) == any(len(column.extra) >= 3 for column in columns.skills.values())


@pytest.mark.django_db(transaction=True)
def test_a_poll_past_the_bound_leaves_the_compaction_to_its_caller(monkeypatch):
    make_pool(seed=15, size=40)
    rnd = Random(15)
    ids = list(Candidate.objects.values_list("id", flat=True))
    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    monkeypatch.setattr(index_columns, "COMPACT_MIN_ROWS", 10)
    with psycopg.connect(make_conninfo(**params), autocommit=True) as index_connection:
        columns = index_columns.build(index_connection)
        state = Freshness(xmin=columns.xmin, fresh_at=columns.built_at)
        # The pool's own changes, read again when another session's transaction holds the snapshots' xmin back.
        poll(columns, state, index_connection)
        columns, _ = compacted(columns)
        change(rnd, ids, count=6)
        applied = poll(columns, state, index_connection)
        assert 0 < applied < 10
        assert len(columns.ids) == 40 + applied  # below the bound: appended
        change(rnd, ids, count=12)
        applied += poll(columns, state, index_connection)
        assert applied >= 10
        # Past it: still appended, as the poll runs under the lock the requests take; the index process compacts
        # a copy outside it (searchindex.server).
        assert len(columns.ids) == 40 + applied
        assert needs_compaction(columns)
        assert rankings(columns) == rankings(index_columns.build(index_connection))
        columns, dropped = compacted(columns)
        assert (dropped, len(columns.ids), columns.built_rows) == (applied, 40, 40)
        assert rankings(columns) == rankings(index_columns.build(index_connection))
    assert state.fresh_at > dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
