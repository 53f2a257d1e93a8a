"""The job-match formula over the index's columns, vectorised: every candidate of the pool scored at once, then the
page cut with ``argpartition``. It computes what the SQL ranking computes, term for term (its statement is the
reference, and the property test holds the two to the same page row for row):

- the pool: holders of any criteria or related skill (in the place's countries when it applies), less holders of an
  excluded skill, and with ``strict`` only whoever holds each required skill at its minimum;
- ``match``: the weighted sum of the six parts, rounded half up as PostgreSQL rounds a numeric;
- the order: ``misses_any``, then ``match`` descending, then id.

The request names skills by id and carries the formula's constants (``Formula``): this module owns no rule of the
ranking, only its arithmetic over arrays.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from searchindex.columns import Columns, country_code

# A float64 sum of the formula's parts may land a hair below an exact .5 that PostgreSQL's numeric holds exactly; the
# parts are fractions with small denominators (or, for evidence, irrational), so nothing else lies this close to .5.
_HALF_UP_SLACK = 1e-9
_ID_BITS = 43  # candidate ids below 2**43; the order's key packs the tier and the match above them


@dataclass(frozen=True, slots=True)
class Formula:
    """The ranking's constants, from the module that defines the formula."""

    weight_required: int
    weight_preferred: int
    weight_evidence: int
    weight_keywords: int
    weight_years: int
    weight_location: int
    evidence_half_life_months: int
    evidence_saturation: int
    commits_per_active_month: int
    related_weight: float


@dataclass(frozen=True, slots=True)
class Required:
    skill_id: int | None  # None: no such skill (credits nothing, always missed)
    min_score: int
    stand_ins: tuple[int, ...] = ()  # widened: related skills standing in for it
    short_credit: float = 0.0  # the credit of a score just short of the minimum, as the SQL statement writes it


@dataclass(frozen=True, slots=True)
class Preferred:
    skill_id: int | None
    stand_ins: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RankQuery:
    """One ranking: the criteria resolved to skill ids, and the switches."""

    formula: Formula
    required: tuple[Required, ...]
    preferred: tuple[Preferred, ...]
    excluded: tuple[int, ...]
    topics: tuple[str, ...]
    keywords: tuple[str, ...]
    min_years: int | None
    countries: tuple[str, ...]  # location_fit
    place: tuple[str, ...]  # the countries the pool is kept to (empty: everywhere)
    strict: bool
    today: dt.date
    exclude_ids: tuple[int, ...] = ()

    def pool_skills(self) -> list[int]:
        named = [r.skill_id for r in self.required] + [p.skill_id for p in self.preferred]
        related = [pk for term in (*self.required, *self.preferred) for pk in term.stand_ins]
        return list(dict.fromkeys(pk for pk in (*named, *related) if pk is not None))


@dataclass(frozen=True, slots=True)
class Ranked:
    """A ranked stretch: ids in order with their match and missing count; ``pool`` is the pool's size."""

    ids: np.ndarray
    match: np.ndarray
    missing: np.ndarray
    pool: int


@dataclass(frozen=True, slots=True)
class Cut:
    """Which stretch of the order: ``limit`` rows after ``offset`` rows, or after (or, ``before``, before) the row
    with order key ``after``."""

    limit: int
    offset: int = 0
    after: tuple[int, int, int] | None = None  # (misses_any, match, id)
    before: bool = False


def order_key(misses_any, match, ids):
    """The order as one int64: ascending key is ``misses_any``, ``-match``, ``id``."""
    return ((np.asarray(misses_any, np.int64) * 101 + (100 - np.asarray(match, np.int64))) << _ID_BITS) + np.asarray(
        ids, np.int64
    )


def _scores(columns: Columns, skill_id: int | None) -> np.ndarray:
    """The skill's score of every row, -1 where not held (read-only)."""
    if skill_id is None:
        return np.full(len(columns.ids), -1, dtype=np.int8)
    return columns.dense_scores(skill_id)


def _holds_any(dense: dict[int, np.ndarray], skills: list[int]) -> np.ndarray:
    """Whether each row holds any of ``skills``."""
    held = dense[skills[0]] >= 0
    for pk in skills[1:]:
        held |= dense[pk] >= 0
    return held


def _in_pool(columns: Columns, query: RankQuery, dense: dict[int, np.ndarray]) -> np.ndarray:
    """Whether each row is in the pool. Every step is one pass over a contiguous array of a byte or a word per row:
    at a million rows, cheaper than gathering the scores of the pool's rows from scattered places."""
    skills = query.pool_skills()
    if not skills or (query.strict and any(term.skill_id is None for term in query.required)):
        return np.zeros(len(columns.ids), dtype=bool)
    held = _holds_any(dense, skills)
    held &= columns.alive
    if query.place:
        held &= columns.in_place(query.place)
    for pk in query.excluded:
        held &= _scores(columns, pk) < 0
    if query.strict:
        for term in query.required:
            held &= dense[term.skill_id] >= max(term.min_score, 0)
    for pk in query.exclude_ids:
        if (row := columns.row(pk)) is not None:
            held[row] = False
    return held


def _best(dense: dict[int, np.ndarray], stand_ins: tuple[int, ...], rows: np.ndarray) -> np.ndarray:
    """The best related score held (0 when none), as ``coalesce(greatest(...), 0)``."""
    best = np.zeros(len(rows), dtype=np.float64)
    for pk in stand_ins:
        best = np.maximum(best, dense[pk][rows])
    return best


def _evidence(columns: Columns, query: RankQuery, rows: np.ndarray) -> np.ndarray:
    """X / (X + saturation) of each of ``rows``: X sums their contributions to repositories holding a topic of the
    query, each weighed by its work and halved every half-life of its age."""
    repos = set().union(*(columns.topic_repos.get(slug, ()) for slug in query.topics))
    if not repos or not len(columns.contrib_repo) or not len(rows):
        return np.zeros(len(rows))
    starts, ends = columns.contrib_offsets[rows], columns.contrib_offsets[rows + 1]
    counts = ends - starts
    owner = np.repeat(np.arange(len(rows)), counts)
    index = np.arange(len(owner)) + np.repeat(starts - (np.cumsum(counts) - counts), counts)
    repo = columns.contrib_repo[index]
    top = max(int(repo.max(initial=0)), max(repos)) + 1
    wanted = np.zeros(top, dtype=bool)
    wanted[np.fromiter(repos, dtype=np.int64, count=len(repos))] = True
    picked = index[wanted[repo]]
    owner = owner[wanted[repo]]
    months = columns.contrib_month[picked]
    today = query.today.year * 12 + query.today.month
    age = np.where(months < 0, 0, np.maximum(0, today - months))
    f = query.formula
    work = columns.contrib_commits[picked] + f.commits_per_active_month * columns.contrib_active[picked]
    x = np.bincount(owner, weights=np.power(0.5, age / f.evidence_half_life_months) * work, minlength=len(rows))
    return x / (x + f.evidence_saturation)


def _mean(parts: list[np.ndarray], size: int) -> np.ndarray:
    if not parts:
        return np.ones(size)
    return np.sum(parts, axis=0) / len(parts)


def _rounded(total: np.ndarray) -> np.ndarray:
    """PostgreSQL's ``round`` of a non-negative numeric: half up."""
    return np.floor(total + 0.5 + _HALF_UP_SLACK).astype(np.int64)


@dataclass(frozen=True, slots=True)
class _Pool:
    held: np.ndarray  # bool per row: in the pool
    missing: np.ndarray  # int32 per row: the required skills it lacks or holds below their minimum
    size: int  # the pool's rows
    dense: dict[int, np.ndarray]  # each skill the query reads: its score on every row (-1: not held)


def _prepare(columns: Columns, query: RankQuery) -> _Pool:
    wanted = {*query.pool_skills(), *(r.skill_id for r in query.required if r.skill_id is not None)}
    dense = {pk: _scores(columns, pk) for pk in wanted}
    held = _in_pool(columns, query, dense)
    unknown = sum(term.skill_id is None for term in query.required)  # no one holds a skill that does not exist
    missing = np.full(len(columns.ids), unknown, dtype=np.int32)
    for term in query.required:
        if term.skill_id is not None:
            missing += dense[term.skill_id] < term.min_score
    return _Pool(held, missing, int(np.count_nonzero(held)), dense)


def _total(columns: Columns, query: RankQuery, dense: dict[int, np.ndarray], rows: np.ndarray) -> np.ndarray:
    """``match`` of ``rows`` before rounding, without the evidence part (which reads the rows' contributions), and
    without the keyword part when the query has keywords."""
    size = len(rows)
    f = query.formula
    required = []
    for term in query.required:
        if term.skill_id is None:
            required.append(np.zeros(size))
            continue
        held = dense[term.skill_id][rows]
        value = np.maximum(held, 0).astype(np.float64)
        coverage = (held >= 0).astype(np.float64) if term.min_score <= 0 else np.minimum(value / term.min_score, 1.0)
        credit = (coverage + value / 10.0) / 2
        if term.stand_ins:
            stand_in = f.related_weight * _best(dense, term.stand_ins, rows)
            credit = np.maximum(credit, stand_in / 10.0 * term.short_credit)
        required.append(credit)
    preferred = []
    for term in query.preferred:
        if term.skill_id is None:
            preferred.append(np.zeros(size))
            continue
        value = np.maximum(dense[term.skill_id][rows], 0).astype(np.float64)
        if term.stand_ins:
            value = np.maximum(value, f.related_weight * _best(dense, term.stand_ins, rows))
        preferred.append(value / 10.0)
    years = np.ones(size)
    if query.min_years:
        held_years = columns.years[rows].astype(np.float64)
        years = np.where(held_years < 0, 0.0, np.minimum(held_years / query.min_years, 1.0))
    location = np.ones(size)
    if query.countries:
        codes = np.array([country_code(code) for code in query.countries], dtype=np.int64)
        location = np.isin(columns.country[rows], codes).astype(np.float64)
    total = (
        f.weight_required * _mean(required, size)
        + f.weight_preferred * _mean(preferred, size)
        + f.weight_years * years
        + f.weight_location * location
    )
    if not query.keywords:
        total = total + f.weight_keywords  # a part not asked for is met by everyone
    return total


def _tier(pool: _Pool, cut: Cut) -> np.ndarray:
    """The pool's rows that the stretch can reach, ascending: the order puts whoever misses nothing first, so a
    stretch that those candidates fill needs no other's score (the first pages, usually a small share of the pool)."""
    if cut.before:
        return np.flatnonzero(pool.held)
    if cut.after is not None and cut.after[0] == 1:  # past the first tier: only the second can follow
        return np.flatnonzero(pool.held & (pool.missing > 0))
    meets = np.flatnonzero(pool.held & (pool.missing == 0))
    return meets if len(meets) >= cut.offset + cut.limit else np.flatnonzero(pool.held)


def _candidates(lo: np.ndarray, hi: np.ndarray, cut: Cut) -> np.ndarray:
    """Positions that may lie in ``cut`` when each true key lies in [hi, lo] (a higher match is a smaller key): the N-th
    smallest ``lo`` among the positions surely past the mark bounds the stretch, and only a position whose ``hi``
    reaches it can be in it."""
    wanted = cut.offset + cut.limit
    mark = None if cut.after is None else int(order_key(*cut.after[:2], cut.after[2]))
    maybe = np.arange(len(lo)) if mark is None else np.flatnonzero(lo > mark)
    sure = maybe if mark is None else maybe[hi[maybe] > mark]
    if len(sure) <= wanted:
        return maybe
    bound = np.partition(lo[sure], wanted - 1)[wanted - 1]
    return maybe[hi[maybe] <= bound]


def _with_keywords(query, ids, total, missing, cut, keywords_ids):
    """The exact match, keywords included, of the positions that may reach ``cut``; the others are left out."""
    weight, count = query.formula.weight_keywords, len(query.keywords)
    # A previous page reads every position (rare; the bounds would run the other way).
    chosen = np.arange(len(ids)) if cut.before else _bounded(missing, ids, total, weight, cut)
    hits = np.zeros(len(chosen))
    for found in keywords_ids(query.keywords, ids[chosen]):
        hits += np.isin(ids[chosen], found)
    return chosen, _rounded(total[chosen] + weight * (hits / count))


def _stretch(keys: np.ndarray, cut: Cut) -> np.ndarray:
    """The positions of ``cut`` in ascending key order."""
    if cut.after is not None:
        mark = int(order_key(*cut.after[:2], cut.after[2]))
        chosen = np.flatnonzero(keys < mark if cut.before else keys > mark)
    else:
        chosen = np.arange(len(keys))
    wanted = cut.offset + cut.limit
    if cut.before:
        # The rows just before the mark: the largest keys, returned in ascending order.
        if len(chosen) > wanted:
            chosen = chosen[np.argpartition(-keys[chosen], wanted - 1)[:wanted]]
        return chosen[np.argsort(-keys[chosen], kind="stable")][cut.offset :][::-1]
    if len(chosen) > wanted:
        chosen = chosen[np.argpartition(keys[chosen], wanted - 1)[:wanted]]
    return chosen[np.argsort(keys[chosen], kind="stable")][cut.offset :]


def _bounded(missing: np.ndarray, ids: np.ndarray, total: np.ndarray, slack: float, cut: Cut) -> np.ndarray:
    """The positions that may reach ``cut`` when each true match lies between ``total`` and ``total + slack``."""
    lo = order_key(missing > 0, _rounded(total), ids)
    hi = order_key(missing > 0, _rounded(total + slack), ids)
    return _candidates(lo, hi, cut)


def _ranked(columns, query, pool: _Pool, rows: np.ndarray, cut: Cut, keywords_ids) -> Ranked:
    missing = pool.missing[rows].astype(np.int64)
    ids = columns.ids[rows]
    total = _total(columns, query, pool.dense, rows)
    if query.topics:
        total = total + query.formula.weight_evidence * _evidence(columns, query, rows)
    if query.keywords:
        kept, match = _with_keywords(query, ids, total, missing, cut, keywords_ids)
        ids, missing = ids[kept], missing[kept]
    else:
        match = _rounded(total)
    chosen = _stretch(order_key(missing > 0, match, ids), cut)
    return Ranked(ids=ids[chosen], match=match[chosen], missing=missing[chosen], pool=pool.size)


def rank(
    columns: Columns,
    query: RankQuery,
    cut: Cut,
    keywords_ids: Callable[[tuple[str, ...], np.ndarray], list[np.ndarray]],
) -> Ranked:
    """The stretch ``cut`` of the ranking of ``query``. ``keywords_ids(keywords, ids)``: for each keyword, which of
    ``ids`` have a search vector that matches it (asked once, for the few candidates whose place the keywords can
    change)."""
    pool = _prepare(columns, query)
    rows = _tier(pool, cut)
    ranked = _ranked(columns, query, pool, rows, cut, keywords_ids)
    if len(ranked.ids) < cut.limit and len(rows) < pool.size:
        # The first tier ran out after the cursor: the stretch goes on into the second.
        ranked = _ranked(columns, query, pool, np.flatnonzero(pool.held), cut, keywords_ids)
    return ranked
