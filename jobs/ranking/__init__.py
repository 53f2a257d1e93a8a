"""Candidates ranked for a job's criteria.

- ``formula``: ``candidates_ranked(criteria) -> QuerySet`` with ``match`` (0-100), ``missing_count`` and
  ``misses_any``, computed in SQL for every candidate of the pool;
- ``explain``: ``candidates_explain(page, criteria)``, what each row of a page shows (matched and missing skills,
  the work that shows them);
- ``page``: ``ranked_page``, the one path from criteria and switches (``RankOptions``) to an explained page, which the
  API and the admin take;
- ``similar``: "more like this", the same ranking over criteria read from one candidate.

The formula (docs/jobs.md, "Ranking", works an example through)::

    match = round(  WEIGHT_REQUIRED  × required_fit      (40)
                  + WEIGHT_PREFERRED × preferred_fit     (10)
                  + WEIGHT_EVIDENCE  × evidence          (20)
                  + WEIGHT_KEYWORDS  × keyword_fit       (10)
                  + WEIGHT_YEARS     × years_fit         (10)
                  + WEIGHT_LOCATION  × location_fit )    (10)

- ``required_fit``: how much of the requirement the candidate covers, the mean over the required skills of
  min(score / min_score, 1): a skill held at its minimum or above covers all of itself, one held below it the share
  its score reaches (4 of a minimum of 5 covers 0.8), a skill lacked nothing. A post that lists 22 skills ranks by
  how much of the 22 someone covers, not by how many they miss;
- ``preferred_fit``: the mean over the preferred skills of score / 10 (0 when lacking it);
- ``evidence`` = X / (X + EVIDENCE_SATURATION), where X sums, over the candidate's contributions to repositories whose
  ``topic_slugs`` hold one of the criteria's skills, (commits + COMMITS_PER_ACTIVE_MONTH × active months) ×
  0.5 ^ (age in months / EVIDENCE_HALF_LIFE_MONTHS). The age runs from the contribution's end month (its start when it
  has no end; 0 while current or undated) to today's month;
- ``keyword_fit``: the share of the keywords the candidate's search vector matches (``plainto_tsquery('english')``
  each): a cheap, bounded proxy for ``ts_rank``, whose raw values have no fixed scale;
- ``years_fit``: min(years_coding / min_years_coding, 1), 0 when the profile says nothing;
- ``location_fit``: 1 when the candidate's country is one of ``countries``, else 0.

A part the criteria do not ask for (no preferred skills, keywords, years or countries) is met by everyone: its weight
is a constant, so it changes no order and a perfect candidate scores 100.

The order (``ORDERING``): whoever meets every requirement (``misses_any`` = 0) first, when there are any; then by
``match``; ties by id, a total order. A candidate *misses* a required skill they lack or hold below its
``min_score``; ``strict=True`` leaves them out. Candidates holding an excluded skill are left out.

Place: criteria that name countries (an on-site or hybrid job, or a remote one open to some countries) rank only the
candidates in those countries, unless ``anywhere=True`` or a ``country`` filter names the place; ranked anywhere, those
elsewhere stay in the pool and lose WEIGHT_LOCATION (a recruiter may relocate someone).

At scale the formula runs only over a bounded pool: the candidates holding at least one of the criteria's skills
(``skill_tokens && ARRAY[...]``, one GIN index scan over the skills' posting lists, scoped to the countries when the
place applies), narrowed by the candidate filters in ``params`` and, with ``strict``, by each required skill at its
minimum (a GIN condition each).

Widened (``widen=True``, off by default): each required and preferred skill brings its WIDEN_PER_SKILL related skills
of highest lift (``profiles.RelatedSkill``, at WIDEN_MIN_LIFT or more), skills the criteria already name or exclude
left out; a related skill of several goes with the one of highest lift. Their holders join the pool, and a related
skill stands in for the skill it goes with (the best one held, when several go with it)::

    preferred skill:  max(score, RELATED_WEIGHT × related score) / 10
    required skill:   max(its coverage, RELATED_WEIGHT × related score / 10 × (min_score - 1) / min_score)

so a related skill never lowers a match, and for a required skill covers at most half of what holding the skill at
min_score - 1 covers. A related skill never meets a required one: ``missing`` stays as it is. ``matched`` lists the
related skills held, each with ``related_to``. Unwidened, or with no related skill stored, the statement is the one
above, character for character.
"""

from jobs.ranking.explain import EVIDENCE_SHOWN, candidates_explain
from jobs.ranking.formula import (
    COMMITS_PER_ACTIVE_MONTH,
    EVIDENCE_HALF_LIFE_MONTHS,
    EVIDENCE_SATURATION,
    ORDERING,
    RELATED_WEIGHT,
    RESULT_FIELDS,
    WEIGHT_EVIDENCE,
    WEIGHT_KEYWORDS,
    WEIGHT_LOCATION,
    WEIGHT_PREFERRED,
    WEIGHT_REQUIRED,
    WEIGHT_YEARS,
    WIDEN_MIN_LIFT,
    WIDEN_PER_SKILL,
    candidates_ranked,
    place_applies,
)
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
    "COMMITS_PER_ACTIVE_MONTH",
    "EVIDENCE_HALF_LIFE_MONTHS",
    "EVIDENCE_SATURATION",
    "EVIDENCE_SHOWN",
    "ORDERING",
    "RELATED_WEIGHT",
    "RESULT_FIELDS",
    "SIMILAR_MARGIN",
    "SIMILAR_PREFERRED",
    "SIMILAR_REQUIRED",
    "SIMILAR_TOPICS",
    "SWITCHES",
    "WEIGHT_EVIDENCE",
    "WEIGHT_KEYWORDS",
    "WEIGHT_LOCATION",
    "WEIGHT_PREFERRED",
    "WEIGHT_REQUIRED",
    "WEIGHT_YEARS",
    "WIDEN_MIN_LIFT",
    "WIDEN_PER_SKILL",
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
