"""Candidates ranked for a job's criteria: ``candidates_ranked(criteria) -> QuerySet`` with ``match`` (0-100), and
``candidates_explain(page, criteria)`` for what each row of a page shows (matched and missing skills, evidence).

The formula, computed in SQL for every candidate of the pool (the README's "Ranking" has a worked example)::

    match = round(  WEIGHT_REQUIRED  × required_fit      (40)
                  + WEIGHT_PREFERRED × preferred_fit     (10)
                  + WEIGHT_EVIDENCE  × evidence          (20)
                  + WEIGHT_KEYWORDS  × keyword_fit       (10)
                  + WEIGHT_YEARS     × years_fit         (10)
                  + WEIGHT_LOCATION  × location_fit )    (10)

- ``required_fit``: the mean over the required skills of score / 10 when the score reaches the skill's
  ``min_score``, score / 20 (half credit) when it falls short, 0 when the candidate lacks the skill;
- ``preferred_fit``: the mean over the preferred skills of score / 10 (0 when lacking it);
- ``evidence`` = X / (X + EVIDENCE_SATURATION), where X sums, over the candidate's contributions to repositories whose
  ``topic_slugs`` hold one of the criteria's skills, (commits + COMMITS_PER_ACTIVE_MONTH × active months) ×
  0.5 ^ (age in months / EVIDENCE_HALF_LIFE_MONTHS). The age runs from the contribution's end month (its start when it
  has no end; 0 while current or undated) to today's month: work of 2025 counts twice what work of 2022 does;
- ``keyword_fit``: the share of the keywords the candidate's search vector matches (``plainto_tsquery('english')``
  each): a cheap, bounded proxy for ``ts_rank``, whose raw values have no fixed scale;
- ``years_fit``: min(years_coding / min_years_coding, 1), 0 when the profile says nothing;
- ``location_fit``: 1 when the candidate's country is one of ``countries``, else 0. A remote job without countries
  accepts anyone; "remote within Germany" lists DE and reads the same as an on-site job in Germany.

A part the criteria do not ask for (no preferred skills, keywords, years or countries) is met by everyone: its weight
is a constant, so it changes no order and a perfect candidate scores 100.

Rules: a candidate *misses* a required skill they lack or hold below its ``min_score``. Rows are ordered by
(``missing_count``, ``-match``, ``id``): whoever meets every requirement comes before anyone who misses one, however
high the latter's ``match``; ``strict=True`` leaves the latter out. Candidates holding an excluded skill are left
out. Ties break by id, and the ordering is total, as ``api.pagination.KeysetPagination`` needs.

At scale the formula runs only over a bounded pool: the candidates holding at least one of the criteria's skills
(``skill_tokens && ARRAY[...]``, one GIN index scan over the skills' posting lists), narrowed by the candidate filters
in ``params`` and, with ``strict``, by each required skill at its minimum (a GIN condition each).
Wrong-country candidates stay in the pool and lose ``WEIGHT_LOCATION``: a recruiter may relocate someone.

Widened (``widen=True``, off by default; the recruiter turns it on): each required and preferred skill brings its
WIDEN_PER_SKILL related skills of highest lift (``profiles.RelatedSkill``, at WIDEN_MIN_LIFT or more), skills the
criteria already name or exclude left out. Their holders join the pool, and a related skill stands in for the skill it
goes with at RELATED_WEIGHT of its score (the best one held, when several go with it)::

    preferred skill:  max(score, RELATED_WEIGHT × related score) / 10
    required skill:   max(its term above, RELATED_WEIGHT × related score / 10 × (min_score - 1) / 20)

so a related skill never lowers a match, and weighs less than the skill itself: for a required skill at most half the
credit of a score just short of the minimum, so that holding the skill at min_score - 1 beats any stand-in. A related
skill never meets a required one: ``missing`` and ``missing_count`` stay as they are. ``matched`` lists the related
skills held, each with ``related_to`` (the criteria's skill it goes with). Unwidened, or with no related skill stored,
the statement is the one above, character for character.

"More like this" (``similar_candidates``) is the same ranking over criteria read from one candidate
(``similar_criteria``: their strongest skills and the topics of their work), that candidate left out.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.db.models import IntegerField, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from jobs.criteria import Criteria
from profiles.db import read_connection
from profiles.filters import resolve_skills
from profiles.models import Candidate, Contribution, RelatedSkill, Skill
from profiles.search import skill_tokens
from profiles.selectors import candidate_search

__all__ = [
    "COMMITS_PER_ACTIVE_MONTH",
    "EVIDENCE_HALF_LIFE_MONTHS",
    "EVIDENCE_SATURATION",
    "EVIDENCE_SHOWN",
    "RELATED_WEIGHT",
    "RESULT_FIELDS",
    "SIMILAR_MARGIN",
    "SIMILAR_PREFERRED",
    "SIMILAR_REQUIRED",
    "SIMILAR_TOPICS",
    "WEIGHT_EVIDENCE",
    "WEIGHT_KEYWORDS",
    "WEIGHT_LOCATION",
    "WEIGHT_PREFERRED",
    "WEIGHT_REQUIRED",
    "WEIGHT_YEARS",
    "WIDEN_MIN_LIFT",
    "WIDEN_PER_SKILL",
    "candidates_explain",
    "candidates_ranked",
    "similar_candidates",
    "similar_criteria",
    "similar_ranked",
]

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
EVIDENCE_SHOWN = 3  # repositories listed per result, strongest first

# Widening (``widen=True``): a related skill is a hint that someone could do the job, not proof; it stands in for the
# skill it goes with at half that skill's credit, and only the few closest of each skill count.
RELATED_WEIGHT = 0.5
WIDEN_PER_SKILL = 3
WIDEN_MIN_LIFT = 2.0  # twice as often together as chance; the refresh keeps pairs from RELATED_SKILLS_MIN_LIFT (1.5)

# The columns a ranked row shows (id, name, title, company, location) and ``candidates_explain`` reads (the scores).
RESULT_FIELDS = ("id", "name", "title", "company", "city", "region", "country", "country_code", "skill_scores")

# Query parameters the job's criteria decide: the candidate filters may narrow the pool, not rank it.
_RANKING_PARAMS = ("skill", "any_skill", "ordering", "q")

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
_WEIGHT = (
    f"power(0.5, {_AGE}::numeric / {EVIDENCE_HALF_LIFE_MONTHS})"
    f" * (c.commits + {COMMITS_PER_ACTIVE_MONTH} * coalesce(c.active_months, 0))"
)
# Every value interpolated below is a constant of this module or an int(); the rest are parameters.
# The evidence of one candidate of the pool: their contributions through the candidate's index, each repository's
# topics read by its primary key in a scalar subquery. PostgreSQL never turns that subquery into a join, so no plan
# reads every repository that has one of the topics once per candidate (a hash or GIN scan for each row of the pool,
# which the planner may prefer when the criteria name many common skills).
_EVIDENCE_SQL = f"""(SELECT e.x / (e.x + {EVIDENCE_SATURATION}) FROM (
    SELECT coalesce(sum({_WEIGHT}), 0) AS x
    FROM profiles_contribution c
    WHERE c.candidate_id = profiles_candidate.id
        AND (SELECT r.topic_slugs FROM profiles_repository r WHERE r.id = c.repository_id) && %(topics)s::varchar[]
) e)"""  # noqa: S608


@dataclass(frozen=True, slots=True)
class _Resolved:
    """The criteria's skills as ids (None: no such skill in the database) and canonical slugs."""

    required: tuple[tuple[str, int | None, int], ...]  # (slug as asked, id, min_score)
    preferred: tuple[tuple[str, int | None], ...]
    excluded: tuple[int, ...]
    topics: tuple[str, ...]  # canonical slugs of the known required and preferred skills
    slugs: Mapping[int, str]  # id -> the slug as the criteria name it
    related: tuple[tuple[str, int, str], ...] = ()  # widened: (related slug, its id, the criteria's slug it goes with)


def _related(resolved: _Resolved) -> tuple[tuple[str, int, str], ...]:
    """The related skills a widened match adds (one query): WIDEN_PER_SKILL per required and preferred skill, highest
    lift first, none the criteria name or exclude, each once (for the first skill of the criteria it goes with)."""
    origins = [pk for _, pk, *_ in (*resolved.required, *resolved.preferred) if pk is not None]
    if not origins:
        return ()
    rows = (
        RelatedSkill.objects.filter(skill_id__in=origins, lift__gte=WIDEN_MIN_LIFT)
        .exclude(related_id__in=[*origins, *resolved.excluded])
        .order_by("skill_id", "-lift", "-support", "related__slug")
        .values_list("skill_id", "related_id", "related__slug")
    )
    by_origin: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for origin, pk, slug in rows:
        if len(by_origin[origin]) < WIDEN_PER_SKILL:
            by_origin[origin].append((pk, slug))
    related: dict[int, tuple[str, int, str]] = {}
    for origin in dict.fromkeys(origins):
        for pk, slug in by_origin[origin]:
            related.setdefault(pk, (slug, pk, resolved.slugs[origin]))
    return tuple(related.values())


def _resolve(criteria: Criteria, *, widen: bool = False) -> _Resolved:
    found = resolve_skills({*criteria.skills, *criteria.excluded})
    ids = {label: found[label][0] if label in found else None for label in {*criteria.skills, *criteria.excluded}}
    required = tuple((slug, ids[slug], min_score) for slug, min_score in criteria.required)
    preferred = tuple((slug, ids[slug]) for slug in criteria.preferred)
    topics = tuple(dict.fromkeys(found[slug][1] for slug in criteria.skills if slug in found))
    slugs = {pk: slug for slug, pk, *_ in (*required, *preferred) if pk is not None}
    excluded = tuple(ids[slug] for slug in criteria.excluded if ids[slug] is not None)
    resolved = _Resolved(required, preferred, excluded, topics, slugs)
    if widen:
        return replace(resolved, related=_related(resolved))
    return resolved


def _mean(terms: list[str]) -> str:
    return f"(({' + '.join(terms)})::numeric / {len(terms)})" if terms else "1"


def _stand_in(resolved: _Resolved, slug: str) -> str | None:
    """Widened: RELATED_WEIGHT × the best score among the related skills that go with the criteria's ``slug`` (0
    when the candidate holds none of them), or None when none goes with it."""
    scores = [_SCORE.format(id=int(pk)) for _, pk, origin in resolved.related if origin == slug]
    if not scores:
        return None
    return f"({RELATED_WEIGHT} * coalesce(greatest({', '.join(scores)}), 0))"


def _match_sql(resolved: _Resolved, criteria: Criteria) -> tuple[str, dict]:
    required = []
    for slug, pk, min_score in resolved.required:
        if pk is None:
            required.append("0")
            continue
        score = _SCORE.format(id=int(pk))
        term = (
            f"(CASE WHEN {score} >= {int(min_score)} THEN {score} / 10.0 "
            f"WHEN {score} IS NOT NULL THEN {score} / 20.0 ELSE 0 END)"
        )
        if (stand_in := _stand_in(resolved, slug)) is not None:
            # Scaled to the half credit of a score just short of the minimum: never more than holding the skill.
            term = f"greatest({term}, {stand_in} / 10.0 * {max(int(min_score) - 1, 0)} / 20.0)"
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


def _missing_sql(resolved: _Resolved) -> str:
    terms = [
        f"(coalesce({_SCORE.format(id=int(pk))}, -1) < {int(min_score)})::integer" if pk is not None else "1"
        for _, pk, min_score in resolved.required
    ]
    return f"({' + '.join(terms)})" if terms else "0"


def _positional(sql: str, named: dict) -> tuple[str, list]:
    """``%(name)s`` placeholders as ``%s`` with their values in order: RawSQL takes positional parameters only."""
    values = []

    class _Collect(dict):
        def __getitem__(self, key):
            values.append(named[key])
            return "%s"

    return sql % _Collect(), values


def _nobody(queryset: QuerySet[Candidate]) -> QuerySet[Candidate]:
    """No candidate, with the annotations and the ordering of a ranking (the paginator reads them)."""
    zero = {name: RawSQL("0", [], output_field=IntegerField()) for name in ("match", "missing_count")}
    return queryset.none().annotate(**zero).order_by("missing_count", "-match", "id")


def candidates_ranked(
    criteria: Criteria,
    *,
    params: Mapping | None = None,
    strict: bool = False,
    widen: bool = False,
    user=None,
    today: dt.date | None = None,
    queryset: QuerySet[Candidate] | None = None,
) -> QuerySet[Candidate]:
    """The pool of ``criteria`` annotated with ``match`` (0-100) and ``missing_count``, ordered by
    (missing_count, -match, id); the module docstring gives the formula. ``params`` are candidate filters (query-string
    form) that narrow the pool; those that would rank (``skill``, ``any_skill``, ``q``, ``ordering``) are a
    ValidationError, as is any the filters refuse. ``today`` dates the evidence (default: today, UTC). ``widen``:
    related skills join the pool and stand in for the skills they go with, at a lower weight (the module docstring)."""
    if params and (ranking := sorted(set(params) & set(_RANKING_PARAMS))):
        raise ValidationError(
            {name: ["the job's criteria rank the candidates; narrow them with the other filters"] for name in ranking}
        )
    resolved = _resolve(criteria, widen=widen)
    pool_tokens = [
        token for pk in (*resolved.slugs, *(pk for _, pk, _ in resolved.related)) for token in skill_tokens(pk)
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
            pool = pool.filter(skill_tokens__overlap=skill_tokens(pk, min_score))
    if params:
        pool = candidate_search(params=params, user=user, queryset=pool)
    match_sql, named = _match_sql(resolved, criteria)
    named["today"] = today or timezone.now().date()
    match_sql, values = _positional(match_sql, named)
    return pool.annotate(
        match=RawSQL(match_sql, values, output_field=IntegerField()),  # noqa: S611 (constants, ints, parameters)
        missing_count=RawSQL(_missing_sql(resolved), [], output_field=IntegerField()),  # noqa: S611
    ).order_by("missing_count", "-match", "id")


_EVIDENCE_ROWS_SQL = f"""
SELECT c.candidate_id, r.full_name, c.commits, c.is_current, coalesce(c."end", c.start),
    ARRAY(SELECT t FROM unnest(r.topic_slugs) AS t WHERE t = ANY(%(topics)s::varchar[]))
FROM profiles_contribution c JOIN profiles_repository r ON r.id = c.repository_id
WHERE c.candidate_id = ANY(%(ids)s) AND r.topic_slugs && %(topics)s::varchar[]
ORDER BY c.candidate_id, {_WEIGHT} DESC, r.full_name
"""  # noqa: S608


def candidates_explain(
    candidates: Sequence[Candidate], criteria: Criteria, *, widen: bool = False, today: dt.date | None = None
) -> Sequence[Candidate]:
    """Set ``matched`` ([{skill, score, required}]), ``missing`` ([slug]) and ``evidence`` ([{repository, commits,
    last_active, topics}], strongest first, at most EVIDENCE_SHOWN) on each candidate of a page: two queries for the
    page (the skills' ids, the contributions), none per row. The candidates need ``skill_scores`` loaded. ``widen``, as
    the page was ranked: ``matched`` also lists the related skills held, each ``{skill, score, required: false,
    related_to}`` (one query more)."""
    if not candidates:
        return candidates
    resolved = _resolve(criteria, widen=widen)
    today = today or timezone.now().date()
    evidence: dict[int, list[dict]] = defaultdict(list)
    if resolved.topics:
        ids = [candidate.pk for candidate in candidates]
        sql, values = _positional(_EVIDENCE_ROWS_SQL, {"topics": list(resolved.topics), "ids": ids, "today": today})
        with read_connection(Contribution).cursor() as cursor:
            cursor.execute(sql, values)
            for candidate_id, repository, commits, is_current, last, topics in cursor.fetchall():
                rows = evidence[candidate_id]
                if len(rows) < EVIDENCE_SHOWN:
                    active = today if is_current else last
                    rows.append(
                        {
                            "repository": repository,
                            "commits": commits,
                            "last_active": active.strftime("%Y-%m") if active else None,
                            "topics": topics,
                        }
                    )
    for candidate in candidates:
        scores = candidate.skill_scores or {}
        matched, missing = [], []
        for slug, pk, min_score in resolved.required:
            score = scores.get(str(pk)) if pk is not None else None
            if score is None or score < min_score:
                missing.append(slug)
            else:
                matched.append({"skill": slug, "score": score, "required": True})
        for slug, pk in resolved.preferred:
            score = scores.get(str(pk)) if pk is not None else None
            if score is not None:
                matched.append({"skill": slug, "score": score, "required": False})
        for slug, pk, origin in resolved.related:
            score = scores.get(str(pk))
            if score is not None:
                matched.append({"skill": slug, "score": score, "required": False, "related_to": origin})
        candidate.matched, candidate.missing, candidate.evidence = matched, missing, evidence[candidate.pk]
    return candidates


# --- "More like this" ------------------------------------------------------------------------------------------------
# A candidate's strongest skills and the topics of their work become criteria, and the ranking above does the rest.

SIMILAR_REQUIRED = 3  # the strongest skills, required: what the candidate is known for
SIMILAR_MARGIN = 2  # ... at the candidate's score minus this: a peer is close, not necessarily as strong
SIMILAR_PREFERRED = 5  # the next strongest skills, preferred: they refine the order, they do not gate it
SIMILAR_TOPICS = 4  # the topics of the candidate's repositories, weighted as the evidence is

_TOPICS_SQL = f"""
SELECT t.slug FROM profiles_contribution c
JOIN profiles_repository r ON r.id = c.repository_id
CROSS JOIN LATERAL unnest(r.topic_slugs) AS t(slug)
WHERE c.candidate_id = %(id)s
GROUP BY t.slug ORDER BY sum({_WEIGHT}) DESC, t.slug LIMIT %(limit)s
"""  # noqa: S608 (module constants; the rest are parameters)


def similar_criteria(*, candidate_id: int, today: dt.date | None = None) -> Criteria:
    """The criteria of "more like this" for one candidate (Candidate.DoesNotExist when there is none):

    - their SIMILAR_REQUIRED strongest skills are required, each at the candidate's score minus SIMILAR_MARGIN
      (never below 0); the next SIMILAR_PREFERRED are preferred. Strongest: the highest score, ties by slug;
      a skill scored 0 is left out (a profile names it, nothing shows it);
    - the SIMILAR_TOPICS heaviest topics of their repositories (commits and active months decayed by age, as the
      evidence weighs them): a topic that is a skill not chosen yet is preferred too, any other is a keyword
      (hyphens as spaces, so ``distributed-systems`` matches "distributed systems" in summaries);
    - no years, countries or remote: a peer may live anywhere, so location and years weigh the same for everyone.
    """
    scores = Candidate.objects.values_list("skill_scores", flat=True).get(pk=candidate_id) or {}
    slugs = dict(Skill.objects.filter(pk__in=[int(pk) for pk in scores]).values_list("pk", "slug"))
    strongest = sorted(
        ((score, slugs[int(pk)]) for pk, score in scores.items() if score and int(pk) in slugs),
        key=lambda item: (-item[0], item[1]),
    )[: SIMILAR_REQUIRED + SIMILAR_PREFERRED]
    required = tuple((slug, max(score - SIMILAR_MARGIN, 0)) for score, slug in strongest[:SIMILAR_REQUIRED])
    preferred = [slug for _, slug in strongest[SIMILAR_REQUIRED:]]
    sql, values = _positional(
        _TOPICS_SQL, {"id": candidate_id, "limit": SIMILAR_TOPICS, "today": today or timezone.now().date()}
    )
    with read_connection(Contribution).cursor() as cursor:
        cursor.execute(sql, values)
        topics = [slug for (slug,) in cursor.fetchall()]
    known = resolve_skills(set(topics))
    chosen = {slug for _, slug in strongest}
    keywords = []
    for topic in topics:
        if topic in known:
            slug = known[topic][1]
            if slug not in chosen:
                chosen.add(slug)
                preferred.append(slug)
        else:
            keywords.append(topic.replace("-", " "))
    return Criteria(required=required, preferred=tuple(preferred), keywords=tuple(keywords))


def similar_ranked(
    *,
    candidate_id: int,
    user,
    params: Mapping | None = None,
    strict: bool = False,
    today: dt.date | None = None,
) -> tuple[Criteria, QuerySet[Candidate]]:
    """``similar_criteria`` of the candidate and the others ranked by them (``candidates_ranked``: the same formula,
    order, filters and ``strict``), the candidate left out. Candidate.DoesNotExist when there is none."""
    criteria = similar_criteria(candidate_id=candidate_id, today=today)
    return criteria, _others_ranked(criteria, candidate_id, user=user, params=params, strict=strict, today=today)


def _others_ranked(criteria: Criteria, candidate_id: int, **ranking) -> QuerySet[Candidate]:
    others = Candidate.objects.exclude(pk=candidate_id).only(*RESULT_FIELDS)
    return candidates_ranked(criteria, queryset=others, **ranking)


def similar_candidates(
    *, candidate_id: int, user, limit: int = 10, strict: bool = False, strict_first: bool = False
) -> tuple[Criteria, list]:
    """More like this: the criteria used (``similar_criteria``) and the ``limit`` best other candidates, explained
    as the API shows them (``candidates_explain``: each with ``match``, ``matched``, ``missing``, ``evidence``).

    ``strict``: only those with every required skill (a far smaller pool to rank: ~25 ms against ~420 ms at 100,000
    candidates, docs/benchmarks.md). ``strict_first``: those first, and the whole pool only when they are fewer than
    ``limit``. Candidate.DoesNotExist when there is no such candidate."""
    criteria = similar_criteria(candidate_id=candidate_id)
    rows = list(_others_ranked(criteria, candidate_id, user=user, strict=strict or strict_first)[:limit])
    if strict_first and not strict and len(rows) < limit:
        rows = list(_others_ranked(criteria, candidate_id, user=user)[:limit])
    return criteria, list(candidates_explain(rows, criteria))
