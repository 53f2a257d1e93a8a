"""The ranking signals: one unit per part of ``match``, each with its weight, its SQL and what a ranked row shows of
it. The formula (docs/jobs.md, "Ranking", works an example through) is their weighted sum::

    match = round(  WEIGHT_REQUIRED  × required_fit      (40)
                  + WEIGHT_PREFERRED × preferred_fit     (10)
                  + WEIGHT_EVIDENCE  × evidence          (20)
                  + WEIGHT_KEYWORDS  × keyword_fit       (10)
                  + WEIGHT_YEARS     × years_fit         (10)
                  + WEIGHT_LOCATION  × location_fit )    (10)

Each signal's docstring gives its fit (0-1). A part the request does not ask for (no preferred skills, keywords,
years or countries) is met by everyone: its weight is a constant, so it changes no order and a perfect candidate
scores 100. A new signal is a class here, added to ``SIGNALS`` with a weight taken from the others.

Widened (``widen=True``), a related skill stands in for the skill it goes with (the best one held, when several go
with it)::

    preferred skill:  max(score, RELATED_WEIGHT × related score) / 10
    required skill:   max(its coverage, RELATED_WEIGHT × related score / 10 × (min_score - 1) / min_score)

so a related skill never lowers a match, and for a required skill covers at most half of what holding the skill at
min_score - 1 covers. A related skill never meets a required one: ``missing`` stays as it is. Unwidened, or with no
related skill stored, the statement is the one without stand-ins, character for character.

Every value interpolated into the SQL is a constant of this module or an int(); the rest are named parameters
(``%(name)s``), which ``positional`` turns into RawSQL's positional ones.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from django.utils import timezone

from db.connections import read_connection
from profiles.models import Candidate, Contribution
from profiles.search.backends.base import RankRequest
from profiles.search.ranking import RELATED_WEIGHT, Resolved
from profiles.search.skills import skill_score_sql

WEIGHT_REQUIRED = 40  # the requirements decide most: a perfect rest cannot make up for weak required skills
WEIGHT_PREFERRED = 10
WEIGHT_EVIDENCE = 20  # scores say what a profile claims or a scorer inferred; contributions show the work
WEIGHT_KEYWORDS = 10
WEIGHT_YEARS = 10
WEIGHT_LOCATION = 10

EVIDENCE_HALF_LIFE_MONTHS = 36  # three years: work of 2016 weighs 1/8 of work of 2025
COMMITS_PER_ACTIVE_MONTH = 5  # a month of activity counts as five commits: squashed histories still show up
EVIDENCE_SATURATION = 50  # weighted commits giving half the evidence: 50 recent commits already show the skill
EVIDENCE_SHOWN = 3  # repositories listed per result, strongest first

# The order of every ranking: whoever meets every requirement first, then by match, then by id (a total order, as
# ``api.pagination.KeysetPagination`` and the admin's pages need).
ORDERING = ("misses_any", "-match", "id")

_MONTHS = "(extract(year from {d}) * 12 + extract(month from {d}))"
# The age (months) and weight of a contribution ``c``, today being the statement's ``%(today)s``.
_AGE = (
    '(CASE WHEN c.is_current OR coalesce(c."end", c.start) IS NULL THEN 0 ELSE greatest(0, '
    + _MONTHS.format(d="%(today)s::date")
    + " - "
    + _MONTHS.format(d='coalesce(c."end", c.start)')
    + ") END)"
)
CONTRIBUTION_WEIGHT_SQL = (
    f"power(0.5, {_AGE}::numeric / {EVIDENCE_HALF_LIFE_MONTHS})"
    f" * (c.commits + {COMMITS_PER_ACTIVE_MONTH} * coalesce(c.active_months, 0))"
)


def positional(sql: str, named: dict) -> tuple[str, list]:
    """``%(name)s`` placeholders as ``%s`` with their values in order: RawSQL takes positional parameters only."""
    values = []

    class _Collect(dict):
        def __getitem__(self, key):
            values.append(named[key])
            return "%s"

    return sql % _Collect(), values


def _mean(terms: list[str]) -> str:
    return f"(({' + '.join(terms)})::numeric / {len(terms)})" if terms else "1"


def _stand_in(resolved: Resolved, slug: str) -> str | None:
    """Widened: RELATED_WEIGHT × the best score among the related skills that go with the request's ``slug`` (0
    when the candidate holds none of them), or None when none goes with it."""
    scores = [skill_score_sql(pk) for _, pk, origin in resolved.related if origin == slug]
    if not scores:
        return None
    return f"({RELATED_WEIGHT} * coalesce(greatest({', '.join(scores)}), 0))"


def short_credit(min_score: int) -> float:
    """The credit of a required skill held just short of its minimum (min_score - 1), as ``RequiredSkills`` counts."""
    short = max(min_score - 1, 0)
    return (short / min_score + short / 10) / 2 if min_score > 0 else 0.0


@dataclass(slots=True)
class Scoring:
    """One ranking as the signals read it: the request, its skills resolved, and the statement's named parameters,
    which each signal adds to as it writes its SQL."""

    request: RankRequest
    resolved: Resolved
    params: dict = field(default_factory=dict)

    @property
    def today(self) -> dt.date:
        return self.request.today or timezone.now().date()


class Signal:
    """A part of ``match``: ``weight`` points of 100, earned in the share its ``sql`` gives (0-1)."""

    name: ClassVar[str]
    weight: ClassVar[int]

    def sql(self, scoring: Scoring) -> str:
        """The fit of a candidate (``profiles_candidate``) as SQL, from 0 to 1."""
        raise NotImplementedError

    def explain(self, page: Sequence[Candidate], scoring: Scoring) -> None:
        """Set on each candidate of a ranked page what a row shows of this signal; most show nothing."""


class RequiredSkills(Signal):
    """The mean over the required skills of their credit: the mean of how much of the skill the score covers,
    min(score / min_score, 1), and its strength, score / 10; 0 without the skill (or for a skill no one has). A post
    that lists 22 skills ranks by how much of the 22 someone covers, not by how many they miss. A row shows each
    required skill held at its minimum in ``matched`` and the others in ``missing``."""

    name, weight = "required", WEIGHT_REQUIRED

    @staticmethod
    def credit_sql(score: str, min_score: int) -> str:
        """One required skill's credit (coalesced first: PostgreSQL's ``least`` passes over a NULL)."""
        if min_score <= 0:
            coverage = f"(CASE WHEN {score} IS NULL THEN 0 ELSE 1 END)"
        else:
            coverage = f"least(coalesce({score}, 0)::numeric / {int(min_score)}, 1)"
        return f"(({coverage} + coalesce({score}, 0) / 10.0) / 2)"

    def sql(self, scoring: Scoring) -> str:
        terms = []
        for slug, pk, min_score in scoring.resolved.required:
            if pk is None:
                terms.append("0")
                continue
            term = self.credit_sql(skill_score_sql(pk), int(min_score))
            if (stand_in := _stand_in(scoring.resolved, slug)) is not None:
                # RELATED_WEIGHT of the related score's share of 10, times the credit of a score just short of the
                # minimum: never more than half of what holding the skill at min_score - 1 earns.
                term = f"greatest({term}, {stand_in} / 10.0 * {short_credit(int(min_score)):.6f})"
            terms.append(term)
        return _mean(terms)

    @staticmethod
    def missing_sql(resolved: Resolved) -> str:
        """How many required skills a candidate lacks or holds below their minimum (a skill no one has: missed)."""
        terms = [
            f"(coalesce({skill_score_sql(pk)}, -1) < {int(min_score)})::integer" if pk is not None else "1"
            for _, pk, min_score in resolved.required
        ]
        return f"({' + '.join(terms)})" if terms else "0"

    @staticmethod
    def missed(scores: dict, pk: int | None, min_score: int) -> bool:
        """Whether a candidate with ``scores`` (``skill_scores``) misses a required skill, term for term as
        ``missing_sql`` reads it: the count, the order and the row's ``missing`` list agree."""
        return pk is None or scores.get(str(pk), -1) < min_score

    @classmethod
    def missing_count(cls, candidate: Candidate, resolved: Resolved) -> int:
        """What ``missing_sql`` counts, from the candidate's ``skill_scores``."""
        scores = candidate.skill_scores or {}
        return sum(cls.missed(scores, pk, min_score) for _, pk, min_score in resolved.required)

    def explain(self, page: Sequence[Candidate], scoring: Scoring) -> None:
        for candidate in page:
            scores = candidate.skill_scores or {}
            candidate.matched, candidate.missing = [], []
            for slug, pk, min_score in scoring.resolved.required:
                if self.missed(scores, pk, min_score):
                    candidate.missing.append(slug)
                else:
                    candidate.matched.append({"skill": slug, "score": scores.get(str(pk)), "required": True})


class PreferredSkills(Signal):
    """The mean over the preferred skills of score / 10 (0 when lacking it). A row's ``matched`` lists each preferred
    skill held, then (widened) each related skill held, with ``related_to``: the skill it stands in for."""

    name, weight = "preferred", WEIGHT_PREFERRED

    def sql(self, scoring: Scoring) -> str:
        terms = []
        for slug, pk in scoring.resolved.preferred:
            if pk is None:
                terms.append("0")
                continue
            score = f"coalesce({skill_score_sql(pk)}, 0)"
            if (stand_in := _stand_in(scoring.resolved, slug)) is not None:
                score = f"greatest({score}, {stand_in})"
            terms.append(f"({score} / 10.0)")
        return _mean(terms)

    def explain(self, page: Sequence[Candidate], scoring: Scoring) -> None:
        for candidate in page:
            scores = candidate.skill_scores or {}
            for slug, pk in scoring.resolved.preferred:
                score = scores.get(str(pk)) if pk is not None else None
                if score is not None:
                    candidate.matched.append({"skill": slug, "score": score, "required": False})
            for slug, pk, origin in scoring.resolved.related:
                score = scores.get(str(pk))
                if score is not None:
                    candidate.matched.append({"skill": slug, "score": score, "required": False, "related_to": origin})


# Contributions with commits only: a repository someone is listed on without a commit shows no work of theirs. Each
# contribution's repository is read by its key (``OFFSET 0`` keeps the lateral subquery from being flattened into a
# join): as a join, the planner reads every repository holding one of the topics (a hash join) or the whole key (a merge
# join) for a page's few hundred contributions, at a cost that grows with the repositories, not with the page.
_EVIDENCE_ROWS_SQL = f"""
SELECT c.candidate_id, r.full_name, c.commits, c.is_current, coalesce(c."end", c.start), r.shared_topics
FROM profiles_contribution c CROSS JOIN LATERAL (
    SELECT r.full_name, ARRAY(SELECT t FROM unnest(r.topic_slugs) AS t WHERE t = ANY(%(topics)s::varchar[]))
        AS shared_topics
    FROM profiles_repository r
    WHERE r.id = c.repository_id AND r.topic_slugs && %(topics)s::varchar[]
    OFFSET 0
) r
WHERE c.candidate_id = ANY(%(ids)s) AND c.commits > 0
ORDER BY c.candidate_id, {CONTRIBUTION_WEIGHT_SQL} DESC, r.full_name, c.id
"""  # noqa: S608


class Evidence(Signal):
    """X / (X + EVIDENCE_SATURATION), where X sums, over the candidate's contributions to repositories whose
    ``topic_slugs`` hold one of the request's skills, (commits + COMMITS_PER_ACTIVE_MONTH × active months) ×
    0.5 ^ (age in months / EVIDENCE_HALF_LIFE_MONTHS). The age runs from the contribution's end month (its start when
    it has no end; 0 while current or undated) to today's month. 0 when the request names no known skill. A row's
    ``evidence`` lists that work with commits, strongest first, at most EVIDENCE_SHOWN repositories.

    The candidate's contributions are read through the candidate's index, each repository's topics by its primary key
    in a scalar subquery. PostgreSQL never turns that subquery into a join, so no plan reads every repository that has
    one of the topics once per candidate (a hash or GIN scan for each row of the pool, which the planner may prefer
    when the request names many common skills)."""

    name, weight = "evidence", WEIGHT_EVIDENCE

    SQL = f"""(SELECT e.x / (e.x + {EVIDENCE_SATURATION}) FROM (
    SELECT coalesce(sum({CONTRIBUTION_WEIGHT_SQL}), 0) AS x
    FROM profiles_contribution c
    WHERE c.candidate_id = profiles_candidate.id
        AND (SELECT r.topic_slugs FROM profiles_repository r WHERE r.id = c.repository_id) && %(topics)s::varchar[]
) e)"""  # noqa: S608

    def sql(self, scoring: Scoring) -> str:
        if not scoring.resolved.topics:
            return "0"
        scoring.params.update(today=scoring.today, topics=list(scoring.resolved.topics))
        return self.SQL

    def explain(self, page: Sequence[Candidate], scoring: Scoring) -> None:
        evidence: dict[int, list[dict]] = defaultdict(list)
        topics, today = scoring.resolved.topics, scoring.today
        if topics:
            ids = [candidate.pk for candidate in page]
            sql, values = positional(_EVIDENCE_ROWS_SQL, {"topics": list(topics), "ids": ids, "today": today})
            with read_connection(Contribution).cursor() as cursor:
                cursor.execute(sql, values)
                for candidate_id, repository, commits, is_current, last, shared_topics in cursor.fetchall():
                    rows = evidence[candidate_id]
                    if len(rows) < EVIDENCE_SHOWN:
                        active = today if is_current else last
                        rows.append(
                            {
                                "repository": repository,
                                "commits": commits,
                                "last_active": active.strftime("%Y-%m") if active else None,
                                "topics": shared_topics,
                            }
                        )
        for candidate in page:
            candidate.evidence = evidence[candidate.pk]


class Keywords(Signal):
    """The share of the keywords the candidate's search vector matches (``plainto_tsquery('english')`` each): a
    cheap, bounded proxy for ``ts_rank``, whose raw values have no fixed scale."""

    name, weight = "keywords", WEIGHT_KEYWORDS

    def sql(self, scoring: Scoring) -> str:
        terms = []
        for index, keyword in enumerate(scoring.request.keywords):
            scoring.params[f"kw{index}"] = keyword
            terms.append(f"(profiles_candidate.search_vector @@ plainto_tsquery('english', %(kw{index})s))::integer")
        return _mean(terms)


class Years(Signal):
    """min(years_coding / min_years_coding, 1), 0 when the profile says nothing."""

    name, weight = "years", WEIGHT_YEARS

    def sql(self, scoring: Scoring) -> str:
        if not scoring.request.min_years_coding:
            return "1"
        return (
            "(CASE WHEN profiles_candidate.years_coding IS NULL THEN 0 ELSE "
            f"least(profiles_candidate.years_coding::numeric / {int(scoring.request.min_years_coding)}, 1) END)"
        )


class Location(Signal):
    """1 when the candidate's country is one of the request's ``countries``, else 0."""

    name, weight = "location", WEIGHT_LOCATION

    def sql(self, scoring: Scoring) -> str:
        if not scoring.request.countries:
            return "1"
        scoring.params["countries"] = list(scoring.request.countries)
        return "(profiles_candidate.country_code = ANY(%(countries)s::varchar[]))::integer"


SIGNALS: tuple[Signal, ...] = (RequiredSkills(), PreferredSkills(), Evidence(), Keywords(), Years(), Location())
assert sum(signal.weight for signal in SIGNALS) == 100


def match_sql(scoring: Scoring) -> str:
    """``match`` (0-100) as SQL: every signal's weight times its fit, rounded; its parameters in ``scoring.params``."""
    parts = " + ".join(f"{signal.weight} * {signal.sql(scoring)}" for signal in SIGNALS)
    return f"round(({parts})::numeric)::integer"


def explain_page(page: Sequence[Candidate], scoring: Scoring) -> Sequence[Candidate]:
    """Set ``matched``, ``missing`` and ``evidence`` on each candidate of a ranked page (which needs
    ``skill_scores`` loaded), each signal what it shows: one query for the page (the evidence), none per row."""
    if not page:
        return page
    for signal in SIGNALS:
        signal.explain(page, scoring)
    return page
