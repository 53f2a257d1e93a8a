"""Candidates ranked for a job's criteria.

- ``formula``: a job's ``Criteria`` as the search backend's ``RankRequest`` (``rank_request``), and
  ``candidates_ranked(criteria) -> QuerySet`` with ``match`` (0-100), ``missing_count`` and ``misses_any``, the SQL
  reference's ranking of every candidate of the pool;
- ``explain``: ``candidates_explain(page, criteria)``, what each row of a page shows (matched and missing skills,
  the work that shows them);
- ``page``: ``ranked_page``, the one path from criteria and switches (``RankOptions``) to an explained page, which the
  API and the admin take;
- ``similar``: "more like this", the same ranking over criteria read from one candidate.

The formula, its weights and what each part explains are the ranking signals' (``profiles.search.signals``, where
their constants live; docs/jobs.md, "Ranking", works an example through); the pool, ``strict``, ``widen`` and the
place are the SQL backend's (``profiles.search.backends.sql``, with ``profiles.search.ranking``'s related skills).
In short:

The order (``ORDERING``): whoever meets every requirement (``misses_any`` = 0) first, when there are any; then by
``match``; ties by id, a total order. A candidate *misses* a required skill they lack or hold below its
``min_score``; ``strict=True`` leaves them out. Candidates holding an excluded skill are left out.

Place: criteria that name countries (an on-site or hybrid job, or a remote one open to some countries) rank only the
candidates in those countries, unless ``anywhere=True`` or a ``country`` filter names the place; ranked anywhere, those
elsewhere stay in the pool and lose WEIGHT_LOCATION (a recruiter may relocate someone).

Widened (``widen=True``, off by default): each required and preferred skill brings its WIDEN_PER_SKILL related skills
of highest lift (``profiles.RelatedSkill``, at WIDEN_MIN_LIFT or more), skills the criteria already name or exclude
left out; a related skill of several goes with the one of highest lift. Their holders join the pool, and a related
skill stands in for the skill it goes with, at RELATED_WEIGHT. ``matched`` lists the related skills held, each with
``related_to``.
"""

from jobs.ranking.explain import candidates_explain
from jobs.ranking.formula import RESULT_FIELDS, candidates_ranked, place_applies
from jobs.ranking.page import SWITCHES, RankOptions, rank_options, ranked_page
from jobs.ranking.similar import (
    SIMILAR_MARGIN,
    SIMILAR_PREFERRED,
    SIMILAR_REQUIRED,
    SIMILAR_TOPICS,
    similar_candidates,
    similar_criteria,
    similar_ranked,
)

__all__ = [
    "RESULT_FIELDS",
    "SIMILAR_MARGIN",
    "SIMILAR_PREFERRED",
    "SIMILAR_REQUIRED",
    "SIMILAR_TOPICS",
    "SWITCHES",
    "RankOptions",
    "candidates_explain",
    "candidates_ranked",
    "place_applies",
    "rank_options",
    "ranked_page",
    "similar_candidates",
    "similar_criteria",
    "similar_ranked",
]
