"""What each row of a ranked page shows: the skills it matched and missed, and the work that shows them (each
ranking signal explains its own part: ``profiles.search.signals``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from jobs.criteria import Criteria
from jobs.ranking.formula import rank_request
from profiles.models import Candidate
from profiles.search.ranking import Resolved
from profiles.search.ranking import resolve as resolve_request
from profiles.search.signals import Scoring, explain_page

__all__ = ["candidates_explain"]


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
    request = rank_request(criteria, widen=widen, today=today)
    return explain_page(candidates, Scoring(request, resolved or resolve_request(request)))
