"""The ranking's formula in SQL: ``candidates_ranked(criteria) -> QuerySet`` with ``match`` (0-100), ``missing_count``
and ``misses_any``, and what the explanation and "more like this" share with it (the resolved skills, the weight of a
contribution). The package's docstring states the rule; docs/jobs.md ("Ranking") works an example through.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.db.models import IntegerField, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from jobs.criteria import Criteria
from profiles.models import Candidate, RelatedSkill
from profiles.search import skill_tokens
from profiles.search.skills import resolve_skills
from profiles.selectors import candidate_search

WEIGHT_REQUIRED = 40  # the requirements decide most: a perfect rest cannot make up for weak required skills
WEIGHT_PREFERRED = 10
WEIGHT_EVIDENCE = 20  # scores say what a profile claims or a scorer inferred; contributions show the work
WEIGHT_KEYWORDS = 10
WEIGHT_YEARS = 10
WEIGHT_LOCATION = 10
assert WEIGHT_REQUIRED + WEIGHT_PREFERRED + WEIGHT_EVIDENCE + WEIGHT_KEYWORDS + WEIGHT_YEARS + WEIGHT_LOCATION == 100

EVIDENCE_HALF_LIFE_MONTHS = 36  # three years: work of 2016 weighs 1/8 of work of 2025
COMMITS_PER_ACTIVE_MONTH = 5  # a month of activity counts as five commits: squashed histories still show up
EVIDENCE_SATURATION = 50  # weighted commits giving half the evidence: 50 recent commits already show the skill

# Widening (``widen=True``): a related skill is a hint that someone could do the job, not proof; it stands in for the
# skill it goes with at half that skill's credit, and only the few closest of each skill count.
RELATED_WEIGHT = 0.5
WIDEN_PER_SKILL = 3
WIDEN_MIN_LIFT = 2.0  # twice as often together as chance; the refresh keeps pairs from RELATED_SKILLS_MIN_LIFT (1.5)

# The columns a ranked row shows (id, name, title, company, location) and ``candidates_explain`` reads (the scores).
RESULT_FIELDS = ("id", "name", "title", "company", "city", "region", "country", "country_code", "skill_scores")

# The order of every ranking: whoever meets every requirement first, then by match, then by id (a total order, as
# ``api.pagination.KeysetPagination`` and the admin's pages need).
ORDERING = ("misses_any", "-match", "id")

# Query parameters the job's criteria decide: the candidate filters may narrow the pool, not rank it.
RANKING_PARAMS = ("skill", "any_skill", "ordering", "q")

_SCORE = "((profiles_candidate.skill_scores ->> '{id}')::integer)"
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
# Every value interpolated below is a constant of this module or an int(); the rest are parameters.
# The evidence of one candidate of the pool: their contributions through the candidate's index, each repository's
# topics read by its primary key in a scalar subquery. PostgreSQL never turns that subquery into a join, so no plan
# reads every repository that has one of the topics once per candidate (a hash or GIN scan for each row of the pool,
# which the planner may prefer when the criteria name many common skills).
_EVIDENCE_SQL = f"""(SELECT e.x / (e.x + {EVIDENCE_SATURATION}) FROM (
    SELECT coalesce(sum({CONTRIBUTION_WEIGHT_SQL}), 0) AS x
    FROM profiles_contribution c
    WHERE c.candidate_id = profiles_candidate.id
        AND (SELECT r.topic_slugs FROM profiles_repository r WHERE r.id = c.repository_id) && %(topics)s::varchar[]
) e)"""  # noqa: S608


@dataclass(frozen=True, slots=True)
class Resolved:
    """The criteria's skills as ids (None: no such skill in the database) and canonical slugs."""

    required: tuple[tuple[str, int | None, int], ...]  # (slug as asked, id, min_score)
    preferred: tuple[tuple[str, int | None], ...]
    excluded: tuple[int, ...]
    topics: tuple[str, ...]  # canonical slugs of the known required and preferred skills
    slugs: Mapping[int, str]  # id -> the slug as the criteria name it
    related: tuple[tuple[str, int, str], ...] = ()  # widened: (related slug, its id, the criteria's slug it goes with)


def _related(resolved: Resolved) -> tuple[tuple[str, int, str], ...]:
    """The related skills a widened match adds (one query): WIDEN_PER_SKILL per required and preferred skill, highest
    lift first, none the criteria name or exclude. A related skill of several of the criteria's skills goes with the
    one it is closest to (the highest lift, then the slug): never with whichever the criteria list first, so that the
    same criteria in another order rank the same."""
    origins = [pk for _, pk, *_ in (*resolved.required, *resolved.preferred) if pk is not None]
    if not origins:
        return ()
    rows = (
        RelatedSkill.objects.filter(skill_id__in=origins, lift__gte=WIDEN_MIN_LIFT)
        .exclude(related_id__in=[*origins, *resolved.excluded])
        .order_by("skill_id", "-lift", "-support", "related__slug")
        .values_list("skill_id", "related_id", "related__slug", "lift")
    )
    by_origin: dict[int, list[tuple[int, str, float]]] = defaultdict(list)
    for origin, pk, slug, lift in rows:
        if len(by_origin[origin]) < WIDEN_PER_SKILL:
            by_origin[origin].append((pk, slug, lift))
    closest: dict[int, tuple[float, str, str]] = {}  # related id -> (-lift, origin slug, related slug)
    for origin, kept in by_origin.items():
        for pk, slug, lift in kept:
            key = (-lift, resolved.slugs[origin], slug)
            if pk not in closest or key < closest[pk]:
                closest[pk] = key
    return tuple((slug, pk, origin) for pk, (_, origin, slug) in sorted(closest.items(), key=lambda kv: kv[1][2]))


def resolve(criteria: Criteria, *, widen: bool = False) -> Resolved:
    """The criteria's skills looked up (one query; widened, two)."""
    found = resolve_skills({*criteria.skills, *criteria.excluded})
    ids = {label: found[label][0] if label in found else None for label in {*criteria.skills, *criteria.excluded}}
    required = tuple((slug, ids[slug], min_score) for slug, min_score in criteria.required)
    preferred = tuple((slug, ids[slug]) for slug in criteria.preferred)
    topics = tuple(dict.fromkeys(found[slug][1] for slug in criteria.skills if slug in found))
    slugs = {pk: slug for slug, pk, *_ in (*required, *preferred) if pk is not None}
    excluded = tuple(ids[slug] for slug in criteria.excluded if ids[slug] is not None)
    resolved = Resolved(required, preferred, excluded, topics, slugs)
    if widen:
        return replace(resolved, related=_related(resolved))
    return resolved


def _mean(terms: list[str]) -> str:
    return f"(({' + '.join(terms)})::numeric / {len(terms)})" if terms else "1"


def _stand_in(resolved: Resolved, slug: str) -> str | None:
    """Widened: RELATED_WEIGHT × the best score among the related skills that go with the criteria's ``slug`` (0
    when the candidate holds none of them), or None when none goes with it."""
    scores = [_SCORE.format(id=int(pk)) for _, pk, origin in resolved.related if origin == slug]
    if not scores:
        return None
    return f"({RELATED_WEIGHT} * coalesce(greatest({', '.join(scores)}), 0))"


def _required_credit(score: str, min_score: int) -> str:
    """One required skill's credit: the mean of how much of it the score covers, min(score / min_score, 1), and its
    strength, score / 10; 0 without the skill (coalesced first: PostgreSQL's ``least`` passes over a NULL)."""
    if min_score <= 0:
        coverage = f"(CASE WHEN {score} IS NULL THEN 0 ELSE 1 END)"
    else:
        coverage = f"least(coalesce({score}, 0)::numeric / {int(min_score)}, 1)"
    return f"(({coverage} + coalesce({score}, 0) / 10.0) / 2)"


def short_credit(min_score: int) -> float:
    """The credit of a required skill held just short of its minimum (min_score - 1), as ``_required_credit``."""
    short = max(min_score - 1, 0)
    return (short / min_score + short / 10) / 2 if min_score > 0 else 0.0


def _match_sql(resolved: Resolved, criteria: Criteria) -> tuple[str, dict]:
    required = []
    for slug, pk, min_score in resolved.required:
        if pk is None:
            required.append("0")
            continue
        term = _required_credit(_SCORE.format(id=int(pk)), int(min_score))
        if (stand_in := _stand_in(resolved, slug)) is not None:
            # RELATED_WEIGHT of the related score's share of 10, times the credit of a score just short of the
            # minimum: never more than half of what holding the skill at min_score - 1 earns.
            term = f"greatest({term}, {stand_in} / 10.0 * {short_credit(int(min_score)):.6f})"
        required.append(term)
    preferred = []
    for slug, pk in resolved.preferred:
        if pk is None:
            preferred.append("0")
            continue
        score = f"coalesce({_SCORE.format(id=int(pk))}, 0)"
        if (stand_in := _stand_in(resolved, slug)) is not None:
            score = f"greatest({score}, {stand_in})"
        preferred.append(f"({score} / 10.0)")
    params: dict = {"today": None, "topics": list(resolved.topics)}
    keywords = []
    for index, keyword in enumerate(criteria.keywords):
        params[f"kw{index}"] = keyword
        keywords.append(f"(profiles_candidate.search_vector @@ plainto_tsquery('english', %(kw{index})s))::integer")
    years = "1"
    if criteria.min_years_coding:
        years = (
            "(CASE WHEN profiles_candidate.years_coding IS NULL THEN 0 ELSE "
            f"least(profiles_candidate.years_coding::numeric / {int(criteria.min_years_coding)}, 1) END)"
        )
    location = "1"
    if criteria.countries:
        params["countries"] = list(criteria.countries)
        location = "(profiles_candidate.country_code = ANY(%(countries)s::varchar[]))::integer"
    evidence = _EVIDENCE_SQL if resolved.topics else "0"
    sql = (
        f"round(({WEIGHT_REQUIRED} * {_mean(required)} + {WEIGHT_PREFERRED} * {_mean(preferred)}"
        f" + {WEIGHT_EVIDENCE} * {evidence} + {WEIGHT_KEYWORDS} * {_mean(keywords)}"
        f" + {WEIGHT_YEARS} * {years} + {WEIGHT_LOCATION} * {location})::numeric)::integer"
    )
    return sql, params


def _missing_sql(resolved: Resolved) -> str:
    terms = [
        f"(coalesce({_SCORE.format(id=int(pk))}, -1) < {int(min_score)})::integer" if pk is not None else "1"
        for _, pk, min_score in resolved.required
    ]
    return f"({' + '.join(terms)})" if terms else "0"


def positional(sql: str, named: dict) -> tuple[str, list]:
    """``%(name)s`` placeholders as ``%s`` with their values in order: RawSQL takes positional parameters only."""
    values = []

    class _Collect(dict):
        def __getitem__(self, key):
            values.append(named[key])
            return "%s"

    return sql % _Collect(), values


def _nobody(queryset: QuerySet[Candidate]) -> QuerySet[Candidate]:
    """No candidate, with the annotations and the ordering of a ranking (the paginator reads them)."""
    zero = {name: RawSQL("0", [], output_field=IntegerField()) for name in ("match", "missing_count", "misses_any")}
    return queryset.none().annotate(**zero).order_by(*ORDERING)


def place_applies(criteria: Criteria, *, anywhere: bool, params: Mapping | None) -> bool:
    """Whether the pool is kept to the criteria's countries: they name some, the recruiter did not ask for everyone
    (``anywhere``), and no ``country`` filter names the place instead."""
    return bool(criteria.countries) and not anywhere and not (params and params.get("country"))


def _tokens(pk: int, min_score: int | None, countries: tuple[str, ...]) -> list[int]:
    if not countries:
        return skill_tokens(pk, min_score)
    return [token for code in countries for token in skill_tokens(pk, min_score, country_code=code)]


def candidates_ranked(
    criteria: Criteria,
    *,
    params: Mapping | None = None,
    strict: bool = False,
    widen: bool = False,
    anywhere: bool = False,
    user=None,
    today: dt.date | None = None,
    queryset: QuerySet[Candidate] | None = None,
    resolved: Resolved | None = None,
) -> QuerySet[Candidate]:
    """The pool of ``criteria`` annotated with ``match`` (0-100), ``missing_count`` and ``misses_any`` (0 or 1), in
    ``ORDERING``; the package docstring gives the rule. ``params`` are candidate filters (query-string form) that
    narrow the pool; those that would rank (``skill``, ``any_skill``, ``q``, ``ordering``) are a ValidationError, as is
    any the filters refuse. ``strict``: only whoever meets every requirement. ``widen``: related skills join the pool
    and stand in for the skills they go with, at a lower weight. ``anywhere``: candidates in every country, not only
    the criteria's (``place_applies``). ``today`` dates the evidence (default: today, UTC). ``resolved``: the criteria's
    skills as ``resolve`` gave them for this ``widen``, when the caller has them already (a page explains with them)."""
    if params and (ranking := sorted(set(params) & set(RANKING_PARAMS))):
        raise ValidationError(
            {name: ["the job's criteria rank the candidates; narrow them with the other filters"] for name in ranking}
        )
    resolved = resolved or resolve(criteria, widen=widen)
    # In the job's countries only: the pool's index scan reads the skills' tokens scoped to those countries.
    countries = tuple(criteria.countries) if place_applies(criteria, anywhere=anywhere, params=params) else ()
    pool_tokens = [
        token
        for pk in (*resolved.slugs, *(pk for _, pk, _ in resolved.related))
        for token in _tokens(pk, None, countries)
    ]
    base = Candidate.objects.all() if queryset is None else queryset
    if not pool_tokens:
        return _nobody(base)
    pool = base.filter(skill_tokens__overlap=pool_tokens)
    if resolved.excluded:
        pool = pool.exclude(skill_tokens__overlap=[t for pk in resolved.excluded for t in skill_tokens(pk)])
    if strict:
        for _, pk, min_score in resolved.required:
            if pk is None:
                return _nobody(base)
            pool = pool.filter(skill_tokens__overlap=_tokens(pk, min_score, countries))
    if params:
        pool = candidate_search(params=params, user=user, queryset=pool)
    match_sql, named = _match_sql(resolved, criteria)
    named["today"] = today or timezone.now().date()
    match_sql, values = positional(match_sql, named)
    missing_sql = _missing_sql(resolved)
    return pool.annotate(
        match=RawSQL(match_sql, values, output_field=IntegerField()),  # noqa: S611 (constants, ints, parameters)
        missing_count=RawSQL(missing_sql, [], output_field=IntegerField()),  # noqa: S611
        misses_any=RawSQL(f"({missing_sql} > 0)::integer", [], output_field=IntegerField()),  # noqa: S611
    ).order_by(*ORDERING)
