"""The ranking index's columns: what the job-match formula reads of every candidate, as numpy arrays.

One row per candidate (``ids``, ``years``, ``country``, ``alive``), the skill scores grouped by skill (for each skill
the rows holding it and their scores), and the contributions (row, repository, month, weight before decay) with each
topic's repositories. Built from one snapshot of PostgreSQL with binary ``COPY``: every column is fixed-width, so a
million rows arrive as one buffer that ``numpy.frombuffer`` reads without a Python object per value.

Changes are applied by appending: a changed candidate's old row is marked dead and its current row (read again from
PostgreSQL) appended, with its skills and contributions; a skill's column is its built slice plus the chunks appended
since (``SkillColumn``). Dead rows cost memory and every request's arrays, and each chunk a concatenation per request,
so once the appended rows or chunks pass a bound (``needs_compaction``) ``compacted`` folds them into a new set of
columns: the live rows alone, sorted by id, as a build lays them out, without reading the database. It leaves the old
set as it was, so requests go on reading that one while the copy is made (searchindex.server swaps it in after), at
the cost of both sets in memory meanwhile.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from profiles.search.columns import scoped_country

# Binary COPY: a 19-byte header, then per row a 2-byte field count and each field as a 4-byte length and its bytes,
# and a 2-byte trailer (-1). With fixed-width, non-null fields every row has the same size.
_HEADER = 19
_TRAILER = 2

# A country code as one integer: its two characters' code points, so equal codes (case included) are equal numbers,
# as ``country_code = ANY(...)`` compares them; 0 for none. ``country_code`` below is its Python twin.
_CANDIDATES_SQL = """COPY (
    SELECT c.id::int8, coalesce(c.years_coding, -1)::int4,
        (CASE WHEN c.country_code = '' THEN 0
            ELSE ascii(c.country_code)::int8 * 2097152 + coalesce(ascii(substr(c.country_code, 2)), 0) END)
    FROM profiles_candidate c {where} ORDER BY c.id
) TO STDOUT (FORMAT binary)"""
_SKILLS_SQL = """COPY (
    SELECT c.id::int8, e.key::int8, e.value::int4
    FROM profiles_candidate c CROSS JOIN LATERAL jsonb_each_text(c.skill_scores) e {where}
) TO STDOUT (FORMAT binary)"""
# A contribution's month (year × 12 + month of its end, else its start), -1 while current or undated (age 0), its
# commits and its active months (the formula weighs them at request time).
_CONTRIBUTIONS_SQL = """COPY (
    SELECT c.candidate_id::int8, c.repository_id::int8,
        (CASE WHEN c.is_current OR coalesce(c."end", c.start) IS NULL THEN -1
            ELSE extract(year from coalesce(c."end", c.start)) * 12 + extract(month from coalesce(c."end", c.start))
        END)::int4,
        c.commits::int8, coalesce(c.active_months, 0)::int8
    FROM profiles_contribution c {where}
) TO STDOUT (FORMAT binary)"""
_TOPICS_SQL = "SELECT r.id, r.topic_slugs FROM profiles_repository r {where}"


def _rows(buffer: bytearray, fields: tuple[str, ...]) -> np.ndarray:
    """The rows of a binary COPY of fixed-width, non-null fields (numpy type codes, big-endian in the stream)."""
    parts = [("n", ">i2")]
    for index, code in enumerate(fields):
        parts += [(f"len{index}", ">i4"), (f"f{index}", ">" + code)]
    dtype = np.dtype(parts)
    body = memoryview(buffer)[_HEADER : len(buffer) - _TRAILER]
    return np.frombuffer(body, dtype=dtype)


def _copy(cursor, sql: str, params=None) -> bytearray:
    chunks = bytearray()  # read in place by numpy: no second copy of a buffer of hundreds of MiB
    with cursor.copy(sql, params) as copy:
        for chunk in copy:
            chunks += chunk
    return chunks


@dataclass
class SkillColumn:
    """One skill's holders: rows and scores as built, and chunks appended since."""

    rows: np.ndarray
    scores: np.ndarray
    extra: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.extra:
            return self.rows, self.scores
        return (
            np.concatenate([self.rows, *(r for r, _ in self.extra)]),
            np.concatenate([self.scores, *(s for _, s in self.extra)]),
        )


DENSE_KEPT = 64  # skills whose dense scores are kept: a MiB each per million candidates


@dataclass
class Columns:
    """Every candidate's ranking inputs. Row ``i`` is candidate ``ids[i]`` while ``alive[i]``."""

    ids: np.ndarray  # int64
    years: np.ndarray  # int16, -1: not given
    country: np.ndarray  # int64, _COUNTRY_SQL's code
    alive: np.ndarray  # bool
    skills: dict[int, SkillColumn]
    contrib_row: np.ndarray  # int32, ascending: row i's contributions are contrib_offsets[i]:contrib_offsets[i + 1]
    contrib_repo: np.ndarray  # int64, repository ids
    contrib_month: np.ndarray  # int32, -1: age 0
    contrib_commits: np.ndarray  # float64
    contrib_active: np.ndarray  # float64, active months (0: not given)
    contrib_offsets: np.ndarray  # int64, one more than rows
    topic_repos: dict[str, set[int]]  # topic slug -> repository ids
    repo_topics: dict[int, tuple[str, ...]]
    built_at: dt.datetime
    xmin: int = 0  # the build's snapshot: every transaction before it is in the columns
    built_rows: int = 0  # rows 0..built_rows-1 are sorted by id; later rows were appended by changes
    row_of: dict[int, int] = field(default_factory=dict)  # candidate id -> row, for the rows appended since the build
    # Each skill's score on every row, as the ranking reads it: kept for the skills asked for last (a million rows
    # scattered from a popular skill's holders cost a few milliseconds a request), each with the row count and chunk
    # count it was laid out for, so that a change makes it stale.
    _dense: OrderedDict[int, tuple[int, int, np.ndarray]] = field(
        default_factory=OrderedDict, init=False, repr=False, compare=False
    )

    def dense_scores(self, skill_id: int) -> np.ndarray:
        """The skill's score on every row, -1 where not held (read-only)."""
        column = self.skills.get(skill_id)
        version = (len(self.ids), len(column.extra) if column is not None else -1)
        kept = self._dense.get(skill_id)
        if kept is not None and kept[:2] == version:
            self._dense.move_to_end(skill_id)
            return kept[2]
        dense = np.full(len(self.ids), -1, dtype=np.int8)
        if column is not None:
            rows, scores = column.arrays()
            dense[rows] = scores
        dense.flags.writeable = False
        self._dense[skill_id] = (*version, dense)
        self._dense.move_to_end(skill_id)
        while len(self._dense) > DENSE_KEPT:
            self._dense.popitem(last=False)
        return dense

    def in_place(self, codes: Iterable[str]) -> np.ndarray:
        """Whether each row's candidate is in one of the countries ``codes``, as a pool scoped to a place reads it
        (``profiles.search.columns.skill_tokens``): only a stored code of two capital letters is scoped, a code
        asked for counts in capitals, and one ``scoped_country`` refuses keeps nobody."""
        here = np.zeros(len(self.ids), dtype=bool)
        for code in {country_code(code.upper()) for code in codes if scoped_country(code)}:
            here |= self.country == code
        return here

    def __len__(self) -> int:
        return int(self.alive.sum())

    def nbytes(self) -> int:
        """The arrays' memory (the dictionaries of topics aside)."""
        arrays = [
            self.ids,
            self.years,
            self.country,
            self.alive,
            self.contrib_row,
            self.contrib_repo,
            self.contrib_offsets,
        ]
        arrays += [self.contrib_month, self.contrib_commits, self.contrib_active]
        for column in self.skills.values():
            arrays += [column.rows, column.scores, *(a for pair in column.extra for a in pair)]
        return sum(a.nbytes for a in arrays)

    def row(self, candidate_id: int) -> int | None:
        """The live row of a candidate, or None."""
        row = self.row_of.get(candidate_id)
        if row is None:
            position = int(np.searchsorted(self.ids[: self.built_rows], candidate_id))
            if position < self.built_rows and self.ids[position] == candidate_id:
                row = position
        return row if row is not None and self.alive[row] else None


# Compact once the rows appended since the last build or compaction pass this share of those laid out then (and at
# least COMPACT_MIN_ROWS), or one skill's column has this many appended chunks (a concatenation each per request).
COMPACT_SHARE = 0.05
COMPACT_MIN_ROWS = 1_000
COMPACT_MAX_CHUNKS = 256


def needs_compaction(columns: Columns) -> bool:
    appended = len(columns.ids) - columns.built_rows
    if appended >= max(COMPACT_MIN_ROWS, COMPACT_SHARE * columns.built_rows):
        return True
    return any(len(column.extra) >= COMPACT_MAX_CHUNKS for column in columns.skills.values())


def compacted(columns: Columns) -> tuple[Columns, int]:
    """The columns with the appended rows folded in, as a new ``Columns``: only live rows, sorted by id, each skill's
    column one slice, the contributions of dead rows dropped; and the number of dead rows dropped. The ranking over the
    new columns is the ranking over the old. Only reads ``columns``, and the new columns share nothing that applying a
    change modifies in place (``alive``, a skill's chunks, the topics), so requests may rank over the old ones
    meanwhile, as long as no change is applied to them."""
    live = np.flatnonzero(columns.alive)
    order = live[np.argsort(columns.ids[live], kind="stable")]
    new_row = np.full(len(columns.ids), -1, dtype=np.int64)
    new_row[order] = np.arange(len(order))
    skills = {}
    for pk, column in columns.skills.items():
        rows, scores = column.arrays()
        moved = new_row[rows]
        kept = moved >= 0
        if kept.any():  # in no particular order: a request scatters a column's scores by row
            skills[pk] = SkillColumn(moved[kept].astype(np.int32), scores[kept])
    moved = new_row[columns.contrib_row]
    kept = np.flatnonzero(moved >= 0)
    by_row = kept[np.argsort(moved[kept], kind="stable")]
    contrib_row = moved[by_row].astype(np.int32)
    new = Columns(
        ids=columns.ids[order],
        years=columns.years[order],
        country=columns.country[order],
        alive=np.ones(len(order), dtype=bool),
        skills=skills,
        contrib_row=contrib_row,
        contrib_repo=columns.contrib_repo[by_row],
        contrib_month=columns.contrib_month[by_row],
        contrib_commits=columns.contrib_commits[by_row],
        contrib_active=columns.contrib_active[by_row],
        contrib_offsets=np.searchsorted(contrib_row, np.arange(len(order) + 1)).astype(np.int64),
        topic_repos={slug: set(repos) for slug, repos in columns.topic_repos.items()},
        repo_topics=dict(columns.repo_topics),
        built_at=columns.built_at,
        xmin=columns.xmin,
        built_rows=len(order),
    )
    return new, len(columns.ids) - len(order)


def country_code(code: str) -> int:
    """A country code as _COUNTRY_SQL encodes it."""
    if not code:
        return 0
    return ord(code[0]) * 2097152 + (ord(code[1]) if len(code) > 1 else 0)


def _group_skills(rows: np.ndarray, skill_ids: np.ndarray, scores: np.ndarray) -> dict[int, tuple]:
    order = np.lexsort((rows, skill_ids))
    rows, skill_ids, scores = rows[order], skill_ids[order], scores[order]
    if not len(skill_ids):  # a fresh install: no candidate holds a skill yet
        return {}
    starts = np.flatnonzero(np.r_[True, skill_ids[1:] != skill_ids[:-1]])
    ends = np.r_[starts[1:], len(skill_ids)]
    return {int(skill_ids[s]): (rows[s:e].copy(), scores[s:e].copy()) for s, e in zip(starts, ends, strict=True)}


def _read(cursor, *, where_candidates: str, where_contributions: str, where_repos: str, ids):
    """Candidates, skills, contributions and topics of one snapshot (the cursor's transaction)."""
    params = [ids] if ids is not None else None
    candidates = _rows(_copy(cursor, _CANDIDATES_SQL.format(where=where_candidates), params), ("i8", "i4", "i8"))
    skills = _rows(_copy(cursor, _SKILLS_SQL.format(where=where_candidates), params), ("i8", "i8", "i4"))
    contributions = _rows(
        _copy(cursor, _CONTRIBUTIONS_SQL.format(where=where_contributions), params), ("i8", "i8", "i4", "i8", "i8")
    )
    repo_ids = np.unique(contributions["f1"]).tolist() if where_repos else None
    cursor.execute(_TOPICS_SQL.format(where=where_repos), [repo_ids] if where_repos else None)
    topics = {int(pk): tuple(slugs) for pk, slugs in cursor.fetchall()}
    return candidates, skills, contributions, topics


def build(connection) -> Columns:
    """Every candidate's columns, read in one REPEATABLE READ snapshot of ``connection`` (a psycopg connection)."""
    from psycopg import IsolationLevel
    from psycopg.pq import TransactionStatus

    if connection.info.transaction_status == TransactionStatus.IDLE:
        connection.isolation_level = IsolationLevel.REPEATABLE_READ
    with connection.transaction(), connection.cursor() as cursor:
        cursor.execute("SELECT now(), pg_snapshot_xmin(pg_current_snapshot())::text::int8")
        [built_at, xmin] = cursor.fetchone()
        candidates, skills, contributions, topics = _read(
            cursor,
            where_candidates="",
            where_contributions="",
            where_repos="",
            ids=None,
        )
    ids = candidates["f0"].astype(np.int64)
    contrib_rows = np.searchsorted(ids, contributions["f0"]).astype(np.int32)
    by_row = np.argsort(contrib_rows, kind="stable")
    contributions, contrib_rows = contributions[by_row], contrib_rows[by_row]
    skill_rows = np.searchsorted(ids, skills["f0"]).astype(np.int32)
    grouped = _group_skills(skill_rows, skills["f1"].astype(np.int64), skills["f2"].astype(np.int8))
    topic_repos: dict[str, set[int]] = defaultdict(set)
    for pk, slugs in topics.items():
        for slug in slugs:
            topic_repos[slug].add(pk)
    return Columns(
        ids=ids,
        years=candidates["f1"].astype(np.int16),
        country=candidates["f2"].astype(np.int64),
        alive=np.ones(len(ids), dtype=bool),
        skills={pk: SkillColumn(rows, scores) for pk, (rows, scores) in grouped.items()},
        contrib_row=contrib_rows,
        contrib_offsets=np.searchsorted(contrib_rows, np.arange(len(ids) + 1)).astype(np.int64),
        contrib_repo=contributions["f1"].astype(np.int64),
        contrib_month=contributions["f2"].astype(np.int32),
        contrib_commits=contributions["f3"].astype(np.float64),
        contrib_active=contributions["f4"].astype(np.float64),
        topic_repos=dict(topic_repos),
        repo_topics=topics,
        built_at=built_at,
        xmin=xmin,
        built_rows=len(ids),
    )


def apply_candidates(columns: Columns, connection, candidate_ids: list[int]) -> None:
    """Read these candidates again (one snapshot) and replace their rows; a candidate gone is only marked dead."""
    if not candidate_ids:
        return
    with connection.transaction(), connection.cursor() as cursor:
        candidates, skills, contributions, topics = _read(
            cursor,
            where_candidates="WHERE c.id = ANY(%s::int8[])",
            where_contributions="WHERE c.candidate_id = ANY(%s::int8[])",
            where_repos="WHERE r.id = ANY(%s::int8[])",
            ids=list(candidate_ids),
        )
    for pk in candidate_ids:
        row = columns.row(pk)
        if row is not None:
            columns.alive[row] = False
    first = len(columns.ids)
    new_ids = candidates["f0"].astype(np.int64)
    columns.ids = np.concatenate([columns.ids, new_ids])
    columns.years = np.concatenate([columns.years, candidates["f1"].astype(np.int16)])
    columns.country = np.concatenate([columns.country, candidates["f2"].astype(np.int64)])
    columns.alive = np.concatenate([columns.alive, np.ones(len(new_ids), dtype=bool)])
    rows_of_new = {int(pk): first + index for index, pk in enumerate(new_ids)}
    columns.row_of.update(rows_of_new)
    lookup = np.vectorize(rows_of_new.__getitem__, otypes=[np.int32])
    if len(skills):
        grouped = _group_skills(lookup(skills["f0"]), skills["f1"].astype(np.int64), skills["f2"].astype(np.int8))
        for pk, pair in grouped.items():
            column = columns.skills.get(pk)
            if column is None:
                columns.skills[pk] = SkillColumn(*pair)
            else:
                column.extra.append(pair)
    new_rows = lookup(contributions["f0"]) if len(contributions) else np.zeros(0, dtype=np.int32)
    by_row = np.argsort(new_rows, kind="stable")
    contributions, new_rows = contributions[by_row], new_rows[by_row]
    offsets = len(columns.contrib_row) + np.searchsorted(new_rows, np.arange(first + 1, len(columns.ids) + 1))
    columns.contrib_offsets = np.concatenate([columns.contrib_offsets, offsets.astype(np.int64)])
    if len(contributions):
        columns.contrib_row = np.concatenate([columns.contrib_row, new_rows])
        columns.contrib_repo = np.concatenate([columns.contrib_repo, contributions["f1"].astype(np.int64)])
        columns.contrib_month = np.concatenate([columns.contrib_month, contributions["f2"].astype(np.int32)])
        columns.contrib_commits = np.concatenate([columns.contrib_commits, contributions["f3"].astype(np.float64)])
        columns.contrib_active = np.concatenate([columns.contrib_active, contributions["f4"].astype(np.float64)])
    for pk, slugs in topics.items():
        set_topics(columns, pk, slugs)


def set_topics(columns: Columns, repository_id: int, slugs: tuple[str, ...] | None) -> None:
    """A repository's topics as they now are (None: the repository is gone)."""
    for slug in columns.repo_topics.pop(repository_id, ()):
        columns.topic_repos.get(slug, set()).discard(repository_id)
    if slugs is None:
        return
    columns.repo_topics[repository_id] = tuple(slugs)
    for slug in slugs:
        columns.topic_repos.setdefault(slug, set()).add(repository_id)


def apply_repositories(columns: Columns, connection, repository_ids: list[int]) -> None:
    """Read these repositories' topics again (a change of topics touches no candidate row)."""
    if not repository_ids:
        return
    with connection.cursor() as cursor:
        cursor.execute(_TOPICS_SQL.format(where="WHERE r.id = ANY(%s::int8[])"), [list(repository_ids)])
        found = {int(pk): tuple(slugs) for pk, slugs in cursor.fetchall()}
    for pk in repository_ids:
        set_topics(columns, pk, found.get(pk))
