"""More like this: a candidate's strongest skills and the topics of their work become criteria, and the ranking does
the rest (the same formula and order as a job's matches)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import replace

from django.db.models import QuerySet
from django.utils import timezone

from db.connections import read_connection
from jobs.criteria import Criteria
from jobs.ranking.formula import RESULT_FIELDS, candidates_ranked, rank_request
from profiles.models import Candidate, Contribution, Skill
from profiles.search.backends.base import Page
from profiles.search.pages import ranked_rows
from profiles.search.ranking import resolve as resolve_request
from profiles.search.signals import CONTRIBUTION_WEIGHT_SQL, Scoring, explain_page, positional
from profiles.search.skills import resolve_skills

SIMILAR_REQUIRED = 3  # the strongest skills, required: what the candidate is known for
SIMILAR_MARGIN = 2  # ... at the candidate's score minus this: a peer is close, not necessarily as strong
SIMILAR_PREFERRED = 5  # the next strongest skills, preferred: they refine the order, they do not gate it
SIMILAR_TOPICS = 4  # the topics of the candidate's repositories, weighted as the evidence is

_TOPICS_SQL = f"""
SELECT t.slug FROM profiles_contribution c
JOIN profiles_repository r ON r.id = c.repository_id
CROSS JOIN LATERAL unnest(r.topic_slugs) AS t(slug)
WHERE c.candidate_id = %(id)s
GROUP BY t.slug ORDER BY sum({CONTRIBUTION_WEIGHT_SQL}) DESC, t.slug LIMIT %(limit)s
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
    sql, values = positional(
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
    as the API shows them (``candidates_explain``: each with ``match``, ``matched``, ``missing``, ``evidence``),
    ranked by the search backend in use (``profiles.search.pages.ranked_rows``).

    ``strict``: only those with every required skill (a far smaller pool to rank; docs/benchmarks.md has figures).
    ``strict_first``: those first, and the whole pool only when they are fewer than ``limit``. Candidate.DoesNotExist
    when there is no such candidate."""
    criteria = similar_criteria(candidate_id=candidate_id)
    request = rank_request(
        criteria, user=user, strict=strict or strict_first, exclude_ids=(candidate_id,), page=Page(limit=limit)
    )
    resolved = resolve_request(request)  # once for the ranking (or two) and the explanation
    base = Candidate.objects.only(*RESULT_FIELDS)
    rows = ranked_rows(request, queryset=base, resolved=resolved)
    if strict_first and not strict and len(rows) < limit:
        rows = ranked_rows(replace(request, strict=False), queryset=base, resolved=resolved)
    return criteria, list(explain_page(rows, Scoring(request, resolved)))
