"""What each row of a ranked page shows: the skills it matched and missed, and the work that shows them."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence

from django.utils import timezone

from db.connections import read_connection
from jobs.criteria import Criteria
from jobs.ranking.formula import CONTRIBUTION_WEIGHT_SQL, Resolved, positional, resolve
from profiles.models import Candidate, Contribution

EVIDENCE_SHOWN = 3  # repositories listed per result, strongest first

# Contributions with commits only: a repository someone is listed on without a commit shows no work of theirs.
_EVIDENCE_ROWS_SQL = f"""
SELECT c.candidate_id, r.full_name, c.commits, c.is_current, coalesce(c."end", c.start),
    ARRAY(SELECT t FROM unnest(r.topic_slugs) AS t WHERE t = ANY(%(topics)s::varchar[]))
FROM profiles_contribution c JOIN profiles_repository r ON r.id = c.repository_id
WHERE c.candidate_id = ANY(%(ids)s) AND r.topic_slugs && %(topics)s::varchar[] AND c.commits > 0
ORDER BY c.candidate_id, {CONTRIBUTION_WEIGHT_SQL} DESC, r.full_name, c.id
"""  # noqa: S608


def _evidence(ids: list[int], topics: tuple[str, ...], today: dt.date) -> dict[int, list[dict]]:
    evidence: dict[int, list[dict]] = defaultdict(list)
    if not topics:
        return evidence
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
    return evidence


def candidates_explain(
    candidates: Sequence[Candidate],
    criteria: Criteria,
    *,
    widen: bool = False,
    today: dt.date | None = None,
    resolved: Resolved | None = None,
) -> Sequence[Candidate]:
    """Set ``matched`` ([{skill, score, required}]), ``missing`` ([slug]) and ``evidence`` ([{repository, commits,
    last_active, topics}], strongest first, at most EVIDENCE_SHOWN, only work with commits) on each candidate of a
    page: two queries for the page (the skills' ids, the contributions), none per row. The candidates need
    ``skill_scores`` loaded. ``widen``, as the page was ranked: ``matched`` also lists the related skills held, each
    ``{skill, score, required: false, related_to}`` (one query more)."""
    if not candidates:
        return candidates
    resolved = resolved or resolve(criteria, widen=widen)
    evidence = _evidence([candidate.pk for candidate in candidates], resolved.topics, today or timezone.now().date())
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
