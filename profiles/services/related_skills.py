"""Related skills: which skills go together more often than chance, recomputed from the candidates' skills."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

# One statement: the pool of (candidate, skill) rows at the minimum score, the skills with at least the minimum support
# (a pair cannot have more candidates than either of its skills, so dropping the rarer skills loses no pair), the
# pairs (a < b) counted by a self-join on the candidate, their lift, both directions ranked per skill, the top ones
# inserted. The self-join is what grows: ~n·(n-1)/2 pairs per candidate of n skills, 190 for 20. Past
# RELATED_SKILLS_SAMPLE_CANDIDATES the pool is a fixed sample of about that many candidates (lift is a ratio of
# frequencies, which a sample estimates; support then counts the sample's candidates).
_RELATED_SKILLS_SQL = """
WITH pool AS MATERIALIZED (
    SELECT cs.candidate_id, cs.skill_id
    FROM profiles_candidateskill cs
    WHERE cs.score >= %(min_score)s {sample}
),
total AS (SELECT count(DISTINCT candidate_id) AS n FROM pool),
frequent_skill AS (
    SELECT skill_id, count(*) AS n FROM pool GROUP BY skill_id HAVING count(*) >= %(min_support)s
),
frequent AS MATERIALIZED (
    SELECT pool.candidate_id, pool.skill_id FROM pool JOIN frequent_skill USING (skill_id)
),
pair AS (
    SELECT a.skill_id AS a, b.skill_id AS b, count(*) AS support
    FROM frequent a JOIN frequent b ON b.candidate_id = a.candidate_id AND b.skill_id > a.skill_id
    GROUP BY a.skill_id, b.skill_id
    HAVING count(*) >= %(min_support)s
),
scored AS (
    SELECT pair.a, pair.b, pair.support, pair.support::float8 * total.n / (sa.n::float8 * sb.n) AS lift
    FROM pair
    JOIN frequent_skill sa ON sa.skill_id = pair.a
    JOIN frequent_skill sb ON sb.skill_id = pair.b
    CROSS JOIN total
),
ranked AS (
    SELECT skill_id, related_id, support, lift,
           row_number() OVER (PARTITION BY skill_id ORDER BY lift DESC, support DESC, related_id) AS rank
    FROM (
        SELECT a AS skill_id, b AS related_id, support, lift FROM scored
        UNION ALL
        SELECT b, a, support, lift FROM scored
    ) both_ways
    WHERE lift >= %(min_lift)s
),
inserted AS (
    INSERT INTO profiles_relatedskill (skill_id, related_id, support, lift, computed_at)
    SELECT skill_id, related_id, support, lift, %(now)s FROM ranked WHERE rank <= %(per_skill)s
    RETURNING 1
)
SELECT (SELECT count(*) FROM inserted), (SELECT n FROM total)
"""


# The sample: the candidates whose id hashes into the first ``kept`` of 16,384 buckets, spread over the ids rather than
# blocks of consecutive ones (one import's people). It reads no other table (a TABLESAMPLE of profiles_candidate would
# read all of that wide table, 2 GB at a million), and it is the same sample on every run, so a re-run over the same
# data stores the same rows.
_SAMPLE_BUCKETS = 16_384
_RELATED_SKILLS_SAMPLE = f"AND (hashint8(cs.candidate_id) & {_SAMPLE_BUCKETS - 1}) < %(kept)s"


@dataclass(frozen=True)
class RelatedSkillsRefresh:
    rows: int  # related-skill rows stored (each pair once per direction kept)
    candidates: int  # candidates in the pool counted (with a skill at the minimum score)
    sampled: bool  # the pool was a sample of the candidates
    seconds: float

    def line(self) -> str:
        pool = "a sample of " if self.sampled else ""
        return f"{self.rows} related-skill rows from {pool}{self.candidates} candidates in {self.seconds:.1f} s"


@transaction.atomic
def related_skills_refresh(
    *,
    min_score: int | None = None,
    min_support: int | None = None,
    min_lift: float | None = None,
    per_skill: int | None = None,
) -> RelatedSkillsRefresh:
    """Recompute every related-skill row from the candidates' skills (settings RELATED_SKILLS_* by default).

    In one transaction: readers see the old rows until the new ones commit. The table lock makes concurrent refreshes
    (Beat's and a hand-run ``manage.py related_skills``) run one after the other instead of clashing on the unique
    pair; it lets reads through. The same data gives the same rows, so a re-run is harmless.
    """
    started = time.monotonic()
    params = {
        "min_score": settings.RELATED_SKILLS_MIN_SCORE if min_score is None else min_score,
        "min_support": max(1, settings.RELATED_SKILLS_MIN_SUPPORT if min_support is None else min_support),
        "min_lift": settings.RELATED_SKILLS_MIN_LIFT if min_lift is None else min_lift,
        "per_skill": settings.RELATED_SKILLS_PER_SKILL if per_skill is None else per_skill,
        "now": timezone.now(),
    }
    with connection.cursor() as cursor:
        cursor.execute("LOCK TABLE profiles_relatedskill IN EXCLUSIVE MODE")
        cursor.execute("SELECT count(*) FROM profiles_candidate")
        (candidates,) = cursor.fetchone()
        cap = max(1, settings.RELATED_SKILLS_SAMPLE_CANDIDATES)
        sampled = candidates > cap
        params["kept"] = -(-_SAMPLE_BUCKETS * cap // candidates) if sampled else _SAMPLE_BUCKETS  # rounded up
        cursor.execute("DELETE FROM profiles_relatedskill")
        cursor.execute(_RELATED_SKILLS_SQL.format(sample=_RELATED_SKILLS_SAMPLE if sampled else ""), params)
        rows, pool = cursor.fetchone()
    return RelatedSkillsRefresh(
        rows=rows, candidates=pool, sampled=sampled, seconds=round(time.monotonic() - started, 3)
    )
