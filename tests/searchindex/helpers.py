"""What the index tests share: a random pool of fictional candidates written as the loader writes them, the index
built over it, and the SQL reference's page next to the index's."""

from __future__ import annotations

import datetime as dt
from random import Random

from django.db import connection

from jobs.criteria import Criteria
from jobs.ranking import RankOptions, candidates_ranked, place_applies
from jobs.ranking.formula import resolve
from profiles.models import Candidate, CandidateSkill, Contribution, RelatedSkill, Repository, Skill, SkillAlias
from profiles.search import candidates_refresh_search_columns, signals
from profiles.search.ranking import RELATED_WEIGHT, Resolved
from profiles.search.signals import ORDERING, short_credit
from profiles.vocabulary_copy import skill_vocabulary_changed
from searchindex import columns as index_columns
from searchindex.pages import keywords_ids, page_rows, present_ids
from searchindex.rank import Cut, Formula, Preferred, RankQuery, Required, rank

SLUGS = ("go", "python", "rust", "kafka", "postgresql", "react", "java", "scala", "docker", "terraform")
TOPICS = ("go", "python", "kafka", "postgresql", "docker", "databases")
COUNTRIES = ("DE", "FR", "US", "GB", "")
# Stored on some candidates, never a place a request names: a place matches neither (case and length count).
ODD_COUNTRIES = ("de", "X")
WORDS = ("backend", "platform", "distributed", "frontend", "payments", "senior", "data")
TODAY = dt.date(2026, 6, 15)


FORMULA = Formula(
    weight_required=signals.WEIGHT_REQUIRED,
    weight_preferred=signals.WEIGHT_PREFERRED,
    weight_evidence=signals.WEIGHT_EVIDENCE,
    weight_keywords=signals.WEIGHT_KEYWORDS,
    weight_years=signals.WEIGHT_YEARS,
    weight_location=signals.WEIGHT_LOCATION,
    evidence_half_life_months=signals.EVIDENCE_HALF_LIFE_MONTHS,
    evidence_saturation=signals.EVIDENCE_SATURATION,
    commits_per_active_month=signals.COMMITS_PER_ACTIVE_MONTH,
    related_weight=RELATED_WEIGHT,
)


def query_for(
    criteria: Criteria, resolved: Resolved, *, options: RankOptions, params=None, today=TODAY, exclude_ids=()
) -> RankQuery:
    """The index's request for a ranking the SQL statement of ``candidates_ranked`` would run."""

    def stand_ins(slug: str) -> tuple[int, ...]:
        return tuple(pk for _, pk, origin in resolved.related if origin == slug)

    return RankQuery(
        formula=FORMULA,
        required=tuple(
            Required(pk, min_score, stand_ins(slug), float(f"{short_credit(int(min_score)):.6f}"))
            for slug, pk, min_score in resolved.required
        ),
        preferred=tuple(Preferred(pk, stand_ins(slug)) for slug, pk in resolved.preferred),
        excluded=resolved.excluded,
        topics=resolved.topics,
        keywords=tuple(criteria.keywords),
        min_years=criteria.min_years_coding,
        countries=tuple(criteria.countries),
        place=tuple(criteria.countries) if place_applies(criteria, anywhere=options.anywhere, params=params) else (),
        strict=options.strict,
        today=today,
        exclude_ids=tuple(exclude_ids),
    )


def make_pool(seed: int, size: int = 120, countries: tuple[str, ...] = COUNTRIES) -> dict[str, Skill]:
    """``size`` candidates with random skills (scores 0-10), countries, years and contributions to repositories
    with random topics; their search columns computed as every write computes them."""
    rnd = Random(seed)
    skills = {slug: Skill.objects.get_or_create(slug=slug, defaults={"name": slug.title()})[0] for slug in SLUGS}
    for slug, skill in skills.items():
        SkillAlias.objects.get_or_create(label=slug, defaults={"skill": skill})
    skill_vocabulary_changed()
    for skill, related, lift in (
        ("go", "rust", 3.0),
        ("go", "kafka", 2.5),
        ("python", "scala", 2.2),
        ("kafka", "scala", 4.0),
        ("python", "docker", 1.2),
        ("react", "java", 2.0),
    ):
        RelatedSkill.objects.get_or_create(
            skill=skills[skill],
            related=skills[related],
            defaults={"lift": lift, "support": 30, "computed_at": dt.datetime(2026, 6, 1, tzinfo=dt.UTC)},
        )
    repos = [
        Repository.objects.create(
            full_name=f"pool{seed}/repo{index}", topic_slugs=rnd.sample(TOPICS, rnd.randint(0, 3))
        )
        for index in range(15)
    ]
    candidates = Candidate.objects.bulk_create(
        Candidate(
            name=f"Person {seed}-{index}",
            title=" ".join(rnd.sample(WORDS, 2)),
            summary=" ".join(rnd.sample(WORDS, 3)),
            country_code=rnd.choice(countries),
            years_coding=rnd.choice([None, 0, 1, 3, 5, 8, 12]),
        )
        for index in range(size)
    )
    rows, contributions = [], []
    for candidate in candidates:
        for slug in rnd.sample(SLUGS, rnd.randint(0, 5)):
            rows.append(CandidateSkill(candidate=candidate, skill=skills[slug], score=rnd.randint(0, 10), label=slug))
        for repo in rnd.sample(repos, rnd.randint(0, 3)):
            start = dt.date(rnd.randint(2012, 2026), rnd.randint(1, 12), 1)
            current = rnd.random() < 0.2
            end = None if current or rnd.random() < 0.3 else min(start + dt.timedelta(days=rnd.randint(0, 900)), TODAY)
            contributions.append(
                Contribution(
                    candidate=candidate,
                    repository=repo,
                    commits=rnd.randint(0, 400),
                    active_months=rnd.choice([None, 0, 2, 7]),
                    start=None if rnd.random() < 0.1 else start,
                    end=end.replace(day=1) if end and start and end >= start else None,
                    is_current=current,
                )
            )
    CandidateSkill.objects.bulk_create(rows)
    Contribution.objects.bulk_create(contributions)
    candidates_refresh_search_columns(candidate_ids=[c.pk for c in candidates])
    return skills


def build_index() -> index_columns.Columns:
    """The index over what this connection sees (the test's transaction included)."""
    connection.ensure_connection()
    return index_columns.build(connection.connection)


def sql_page(criteria: Criteria, options: RankOptions, *, params=None, offset=0, limit=10, exclude=(), resolved=None):
    ranked = candidates_ranked(
        criteria,
        resolved=resolved,
        params=params,
        strict=options.strict,
        widen=options.widen,
        anywhere=options.anywhere,
        today=TODAY,
        queryset=Candidate.objects.exclude(id__in=exclude) if exclude else None,
    ).order_by(*ORDERING)
    return [(c.id, c.match, c.missing_count) for c in ranked[offset : offset + limit]]


def index_page(
    columns, criteria: Criteria, options: RankOptions, *, params=None, offset=0, limit=10, exclude=(), resolved=None
):
    resolved = resolved or resolve(criteria, widen=options.widen)
    query = query_for(criteria, resolved, options=options, params=params, today=TODAY, exclude_ids=exclude)
    rows = page_rows(
        lambda cut: rank(columns, query, cut, keywords_ids),
        Cut(limit=limit, offset=offset),
        lambda ids: present_ids(ids, params=params),
        filtered=bool(params),
    )
    return [(row.id, row.match, row.missing_count) for row in rows]


__all__ = ["FORMULA", "build_index", "index_page", "make_pool", "sql_page"]
