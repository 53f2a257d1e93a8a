"""Repositories the profiles contribute to: new ones created before a chunk's transaction, stored ones refreshed in
it."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from psycopg.types.json import Jsonb

from db.cursors import bound_cursor
from ingestion.loaders.values import jsonb
from ingestion.normalise import NormalisedProfile


@transaction.atomic(savepoint=False)
def repositories_upsert(profiles: list[NormalisedProfile]) -> set[str]:
    """Create the repositories these profiles name that are not stored yet; returns the names of those it created.
    Run it in a short transaction of its own, before the chunk's (``ingestion.services`` does); ``load_profiles`` then
    refreshes stored ones, in the chunk's transaction, so that a file that fails changes none.

    Rows that every profile shares (repositories here, skills in ``skill_vocabulary_resolve``): when two workers'
    chunks name the same new skill or repository, the second waits for the first to commit, and inside a chunk's
    transaction that is the whole chunk, each waiting for rows the other inserted: a deadlock
    (tests/reliability/test_concurrent_loads.py). Done first, the wait is one statement long. Rows created for files
    that then fail are taken back by ``shared_rows_delete_unused``. ``load_profiles`` still creates whatever this
    step did not (a caller that skips it just waits longer).
    """
    return _insert_new_repositories(profiles)


def _wanted_repositories(profiles: Iterable[NormalisedProfile]) -> tuple[list[str], Jsonb | None]:
    """The repositories these profiles name, sorted (so concurrent loaders lock rows in the same order), and what they
    say of them as one JSON document, dumped by orjson in one call: rows of [name, description, topics, canonical
    slugs, topics as written]. (As five array parameters, with the ragged topics as one JSON value each, psycopg
    dumped every element in Python: more CPU than the statement itself.)

    A repository keeps what files said of it: a later file replaces its description, or its topics, only when it
    gives them (files often leave a repository's description out)."""
    descriptions: dict[str, str] = {}
    topics: dict[str, tuple[list[str], list[str], str]] = {}  # name → (topics, canonical slugs, topics as written)
    for profile in profiles:
        for c in profile.contributions:
            name = c.repository
            if c.repository_description or name not in descriptions:
                descriptions[name] = c.repository_description
            if c.topics or name not in topics:
                topics[name] = (c.topics, c.topic_slugs, c.topics_raw)
    if not descriptions:
        return [], None
    names = sorted(descriptions)
    return names, jsonb([[name, descriptions[name], *topics[name]] for name in names])


_WANTED_REPOSITORIES_SQL = """
    SELECT w->>0 AS n, w->>1 AS d, ARRAY(SELECT jsonb_array_elements_text(w->2))::varchar[] AS t,
        ARRAY(SELECT jsonb_array_elements_text(w->3))::varchar[] AS s, w->>4 AS r
    FROM jsonb_array_elements(%(wanted)b) AS u(w)
"""


def _insert_new_repositories(profiles: Iterable[NormalisedProfile]) -> set[str]:
    """Insert the repositories these profiles name that are not stored yet; stored ones are left as they are (the
    chunk's transaction refreshes them: ``upsert_repositories``). Returns the names of those it inserted."""
    names, wanted = _wanted_repositories(profiles)
    if not names:
        return set()
    with bound_cursor() as cursor:
        cursor.execute(
            f"""
            WITH wanted AS ({_WANTED_REPOSITORIES_SQL})
            INSERT INTO profiles_repository (full_name, description, topics, topic_slugs, topics_raw)
            SELECT n, d, t, s, r FROM wanted
            WHERE NOT EXISTS (SELECT FROM profiles_repository p WHERE p.full_name = wanted.n)
            ORDER BY n
            ON CONFLICT (full_name) DO NOTHING
            RETURNING full_name
            """,  # noqa: S608 - a fixed fragment, no value
            {"wanted": wanted},
        )
        return {row[0] for row in cursor.fetchall()}


# Inside the chunk's transaction. Every stored repository named is locked FOR KEY SHARE (``locked``), which no loader
# waits for (it conflicts only with FOR UPDATE and DELETE): a take-back of another import's failed file
# (``shared_rows_delete_unused``, FOR UPDATE SKIP LOCKED) then leaves it alone until this chunk commits its
# contributions to it, where a plain read let it delete the row in between and this chunk fail on the foreign key.
_UPSERT_REPOSITORIES_SQL = f"""
    WITH wanted AS ({_WANTED_REPOSITORIES_SQL}),
    locked AS (
        SELECT p.full_name, p.id FROM profiles_repository p WHERE p.full_name = ANY(ARRAY(SELECT n FROM wanted))
        FOR KEY SHARE OF p
    ),
    to_change AS (  -- stored repositories whose merged values differ; empty values keep the stored ones
        SELECT p.id, m.d, m.t, m.s, m.r
        FROM wanted AS w JOIN profiles_repository AS p ON p.full_name = w.n
        CROSS JOIN LATERAL (
            SELECT coalesce(nullif(w.d, ''), p.description) AS d,
                CASE WHEN cardinality(w.t) > 0 THEN w.t ELSE p.topics END AS t,
                CASE WHEN cardinality(w.t) > 0 THEN w.s ELSE p.topic_slugs END AS s,
                CASE WHEN cardinality(w.t) > 0 THEN w.r ELSE p.topics_raw END AS r
        ) AS m
        WHERE (p.description, p.topics, p.topic_slugs, p.topics_raw) IS DISTINCT FROM (m.d, m.t, m.s, m.r)
        ORDER BY p.full_name
        FOR NO KEY UPDATE OF p  -- in name order, as every loader locks them: no deadlock; and not the key,
        -- which the foreign-key checks of contributions share (FOR UPDATE made them wait)
    ),
    changed AS (
        UPDATE profiles_repository AS p SET description = u.d, topics = u.t, topic_slugs = u.s, topics_raw = u.r
        FROM to_change AS u WHERE p.id = u.id
    ),
    inserted AS (  -- what the step before the chunk did not insert (a caller that skipped it, a row taken back since)
        INSERT INTO profiles_repository (full_name, description, topics, topic_slugs, topics_raw)
        SELECT n, d, t, s, r FROM wanted
        WHERE NOT EXISTS (SELECT FROM profiles_repository p WHERE p.full_name = wanted.n)
        ON CONFLICT (full_name) DO NOTHING
        RETURNING full_name, id
    )
    SELECT full_name, id FROM locked
    UNION ALL
    SELECT full_name, id FROM inserted
"""  # noqa: S608 - fixed fragments, no value


def upsert_repositories(profiles: Iterable[NormalisedProfile]) -> dict[str, int]:
    """Refresh the stored repositories these profiles name and insert missing ones, in the chunk's transaction (a
    file that then fails leaves them as they were); return their ids, every row locked until commit.

    Only changed rows are written, and so locked against other writers: an ``INSERT ... ON CONFLICT DO UPDATE`` locks
    every row it meets, changed or not, and every loader names the popular repositories, so concurrent chunks queued
    behind each other.
    """
    names, wanted = _wanted_repositories(profiles)
    ids: dict[str, int] = {}
    # A row another load inserted, or a take-back deleted, after the statement's snapshot is in neither part: the
    # statement runs again for those (a second round is rare, a third rarer still).
    for _ in range(3):
        if not names:
            break
        with bound_cursor() as cursor:
            cursor.execute(_UPSERT_REPOSITORIES_SQL, {"wanted": wanted})
            ids.update(cursor.fetchall())
        wanted_rows = [row for row in wanted.obj if row[0] not in ids]
        names, wanted = [row[0] for row in wanted_rows], jsonb(wanted_rows)
    return ids
