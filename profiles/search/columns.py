"""The search columns of a candidate: what every search reads, computed from the candidate's own rows.

A candidate row carries three columns that no form edits (see ``Candidate.search_vector``, ``skill_tokens`` and
``skill_scores``):

- the full-text vector: name (weight A), headline, title and company, and every job's title and company (B), summary
  and skills (C), repositories and contribution summaries (D). Skills, jobs and repositories are in it too, so one
  ``q`` (the admin's search box and the API's) finds a candidate by any of them; a repository is indexed both whole
  ("owner/name") and as its two words. Of the summary, the skills, the jobs and the contributions, the first
  ``SEARCH_TEXT_MAX_CHARS`` characters each are indexed, so that no text can make a vector PostgreSQL refuses;
- the skill tokens, ``skill_id * SKILL_TOKEN_SCORES + score`` (scores run 0-10), and for a candidate with a country
  each token again scoped to it: ``-(token * COUNTRY_TOKEN_SLOTS + country index)``, the index being (A-Z, A-Z) of
  its ISO code as 0-675. ``python:8&country=US`` then intersects two short posting lists (Americans with python at
  8-10, with go at 7-10) instead of two long ones and a quarter of the table;
- the scores as ``{skill_id: score}``, which ``match`` reads.

This module is their one definition. Every write of a candidate's skills, jobs, contributions, text fields or country
ends with ``candidates_refresh_search_columns`` (hand edits, reverts, merges, updated imports), and a change of a
repository's name with ``repositories_refresh_contributors`` (an erasure's, the admin's); the loader writes a
new candidate with its columns in one ``INSERT`` built by ``candidate_insert_sql``; the filters build the tokens they
look for with ``skill_tokens``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from django.db import connection

__all__ = [
    "COUNTRY_TOKEN_SLOTS",
    "SEARCH_COLUMNS_SQL",
    "SEARCH_TEXT_MAX_CHARS",
    "SKILL_TOKEN_SCORES",
    "candidate_insert_sql",
    "candidates_refresh_search_columns",
    "repositories_refresh_contributors",
    "scoped_country",
    "skill_tokens",
]

_SCOPED_CODE_RE = re.compile(r"[A-Za-z]{2}")
SKILL_TOKEN_SCORES = 16  # more than the 11 scores 0-10, so a token's score is its low bits
COUNTRY_TOKEN_SLOTS = 1024  # more than the 676 two-letter codes
# The characters searched of each unbounded part of the vector: the summary, the skills' slugs, the jobs' titles and
# companies, and the repositories with the contribution summaries (the other parts are bounded by their columns: 1,400
# characters). A tsvector holds
# at most 1 MB (PostgreSQL refuses more: "string is too long for tsvector"), and a summary of 150,000 random words
# made one of 1.5 MB. The costliest text found (unique hyphenated Cyrillic words) takes 4.25 bytes of vector per
# character, so four parts of 50,000 stay under the limit whatever they hold. 50,000 characters are some 8,000
# words: a real summary is searched whole, and ``ingestion.normalise`` warns about one that is not.
SEARCH_TEXT_MAX_CHARS = 50_000

_SEARCH_COLUMNS = ("search_vector", "skill_tokens", "skill_scores")

# The search columns of a candidate ``c`` (name, headline, title, company, summary, country_code), from its rows in the
# ``skills``, ``contributions`` and ``positions`` CTEs of _SEARCH_SOURCES_SQL.
_SEARCH_VALUES_SQL = f"""
    setweight(to_tsvector('english', c.name), 'A')
    || setweight(to_tsvector('english', concat_ws(' ', c.headline, c.title, c.company)), 'B')
    || setweight(to_tsvector('english', left(coalesce(positions.words, ''), {SEARCH_TEXT_MAX_CHARS})), 'B')
    || setweight(to_tsvector('english', left(c.summary, {SEARCH_TEXT_MAX_CHARS})), 'C')
    || setweight(to_tsvector('english', left(coalesce(skills.words, ''), {SEARCH_TEXT_MAX_CHARS})), 'C')
    || setweight(to_tsvector('english', left(coalesce(contributions.words, ''), {SEARCH_TEXT_MAX_CHARS})), 'D'),
    coalesce(skills.tokens, '{{}}')::bigint[] || CASE WHEN c.country_code ~ '^[A-Z]{{2}}$' THEN ARRAY(
        SELECT -(t::bigint * {COUNTRY_TOKEN_SLOTS}
            + (ascii(c.country_code) - 65) * 26 + ascii(substr(c.country_code, 2)) - 65)
        FROM unnest(skills.tokens) AS t
    ) ELSE '{{}}' END,
    coalesce(skills.scores, '{{}}')
"""
# The skills, jobs and contributions of the candidates in ``ids`` (a CTE the statement defines first), as the values
# read them. Words in the files' order, so a vector does not depend on how the rows were written.
#
# Each candidate's rows are read through a LATERAL subquery, by the (candidate, ...) indexes, and each skill's slug
# and repository's name by its primary key: plans that do not depend on what the planner believes of the tables'
# sizes. Written as joins, a bulk import into a young database (statistics taken when the tables were a fraction of
# their size) was planned as hash joins over sequential scans of every candidate's skills and contributions, once per
# chunk, at a cost that grew with the tables (docs/benchmarks-history.md).
_SEARCH_SOURCES_SQL = f"""
skills AS (
    SELECT ids.id, sk.words, sk.tokens, sk.scores
    FROM ids CROSS JOIN LATERAL (
        SELECT string_agg((SELECT s.slug FROM profiles_skill s WHERE s.id = cs.skill_id), ' '
                ORDER BY cs.section, cs.position) AS words,
            array_agg(cs.skill_id * {SKILL_TOKEN_SCORES} + cs.score ORDER BY cs.skill_id) AS tokens,
            jsonb_object_agg(cs.skill_id::text, cs.score) AS scores
        FROM profiles_candidateskill cs
        WHERE cs.candidate_id = ids.id
    ) AS sk
),
contributions AS (
    SELECT ids.id, co.words
    FROM ids CROSS JOIN LATERAL (
        SELECT string_agg(concat_ws(' ', r.name, replace(r.name, '/', ' '), c.summary), ' ' ORDER BY c.position)
            AS words
        FROM profiles_contribution c
        CROSS JOIN LATERAL (SELECT (SELECT p.full_name FROM profiles_repository p WHERE p.id = c.repository_id) AS name)
            AS r
        WHERE c.candidate_id = ids.id
    ) AS co
),
positions AS (
    SELECT ids.id, po.words
    FROM ids CROSS JOIN LATERAL (
        SELECT string_agg(concat_ws(' ', p.title, p.company), ' ' ORDER BY p."order") AS words
        FROM profiles_position p
        WHERE p.candidate_id = ids.id
    ) AS po
)
"""
_JOIN_SOURCES_SQL = (
    "LEFT JOIN skills ON skills.id = {id} LEFT JOIN contributions ON contributions.id = {id} "
    "LEFT JOIN positions ON positions.id = {id}"
)


def _refresh_sql(ids_sql: str) -> str:
    """An ``UPDATE`` recomputing the search columns of the candidates whose ids ``ids_sql`` selects (as ``id``)."""
    return (
        f"WITH ids AS ({ids_sql}),"
        + _SEARCH_SOURCES_SQL
        + f"UPDATE profiles_candidate AS c SET ({', '.join(_SEARCH_COLUMNS)}) = ({_SEARCH_VALUES_SQL}) FROM ids "
        + _JOIN_SOURCES_SQL.format(id="ids.id")
        + " WHERE c.id = ids.id"
    )


# Recompute the search columns of the candidates whose ids are the statement's one parameter.
SEARCH_COLUMNS_SQL = _refresh_sql("SELECT DISTINCT unnest(%s::bigint[]) AS id")
# The same for the contributors of the repositories whose ids are the parameter (the (repository, candidate) index).
_CONTRIBUTORS_SEARCH_COLUMNS_SQL = _refresh_sql(
    "SELECT DISTINCT candidate_id AS id FROM profiles_contribution WHERE repository_id = ANY(%s::bigint[])"
)


def candidate_insert_sql(*, rows_sql: str, columns: Sequence[str], values_sql: Sequence[str]) -> str:
    """An ``INSERT`` of new candidates that computes their search columns in the same statement.

    ``rows_sql`` is a FROM item giving one row per new candidate with its ``id`` and ``columns`` (e.g. an
    ``unnest(...) AS u(id, name, ...)``); ``values_sql`` spells each column's value from that row, called ``c``. The
    candidates' skills, jobs and contributions must be written first (the foreign keys are checked at commit), so that
    each candidate row is written once, with its search columns, instead of written and then updated.
    """
    if len(columns) != len(values_sql):
        raise ValueError("one value expression per column")
    return (
        f"WITH c AS (SELECT * FROM {rows_sql}), ids AS (SELECT id FROM c),"
        + _SEARCH_SOURCES_SQL
        + f"INSERT INTO profiles_candidate (id, {', '.join(columns)}, {', '.join(_SEARCH_COLUMNS)}) "
        f"SELECT c.id, {', '.join(values_sql)}, {_SEARCH_VALUES_SQL} FROM c " + _JOIN_SOURCES_SQL.format(id="c.id")
    )


def candidates_refresh_search_columns(*, candidate_ids: Iterable[int]) -> None:
    """Recompute what search reads of these candidates: the full-text vector and the skill tokens and scores."""
    ids = list(candidate_ids)
    if ids:
        with connection.cursor() as cursor:
            cursor.execute(SEARCH_COLUMNS_SQL, [ids])


def repositories_refresh_contributors(*, repository_ids: Iterable[int]) -> None:
    """Recompute the search columns of everyone who contributed to these repositories, after a change of what the
    vector holds of them (a repository renamed: ``q`` and the autocomplete would otherwise still find its contributors
    by the old name). One statement."""
    ids = list(repository_ids)
    if ids:
        with connection.cursor() as cursor:
            cursor.execute(_CONTRIBUTORS_SEARCH_COLUMNS_SQL, [ids])


def scoped_country(country_code: str) -> bool:
    """Whether a pool or a filter kept to ``country_code`` can hold anyone: a code of two letters A-Z, in any case. A
    candidate's tokens are scoped only to a stored code of two capital letters (``_SEARCH_VALUES_SQL``), so any other
    code asked for is a country no candidate is in."""
    return bool(_SCOPED_CODE_RE.fullmatch(country_code))


def skill_tokens(skill_id: int, min_score: int | None = None, *, country_code: str = "") -> list[int]:
    """The tokens of ``skill_id`` at ``min_score`` or more (any score when None), scoped to ``country_code`` (ISO
    alpha-2, any case) when one is given: what ``Candidate.skill_tokens`` holds of a candidate who qualifies. No token
    for a code ``scoped_country`` refuses."""
    tokens = [skill_id * SKILL_TOKEN_SCORES + score for score in range(min_score or 0, 11)]
    if not country_code:
        return tokens
    if not scoped_country(country_code):
        return []
    first, second = (ord(letter) - ord("A") for letter in country_code.upper())
    country = first * 26 + second
    return [-(token * COUNTRY_TOKEN_SLOTS + country) for token in tokens]
