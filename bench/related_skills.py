"""Related skills: the time of one refresh (``profiles.services.related_skills_refresh``, one SQL statement).

    DEBUG=1 .venv/bin/python bench/related_skills.py [--count 100000] [--sample N] [--database NAME]

Loads (or reuses) ``count`` synthetic candidates with ``bench.dataset.ensure_dataset`` (in ``--database`` when given,
else ``talentdb_bench_<count>``), refreshes the related skills once with the settings' defaults (``--sample`` sets
RELATED_SKILLS_SAMPLE_CANDIDATES, the pool's bound), and prints the time, the rows stored, the pool's size and the
pairs the self-join counted, and one skill's related skills.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000, help="candidates in the benchmark database")
    parser.add_argument("--sample", type=int, default=None, help="RELATED_SKILLS_SAMPLE_CANDIDATES for this run")
    parser.add_argument("--skill", default="python", help="the skill whose related skills are printed")
    parser.add_argument("--database", default="", help="database name (default talentdb_bench_<count>)")
    args = parser.parse_args()
    if args.database:
        dataset.database_name = lambda count: args.database
    dataset.ensure_dataset(args.count, seed=1)

    from django.conf import settings
    from django.db import connection

    from profiles.models import Skill
    from profiles.selectors import related_skills
    from profiles.services import related_skills_refresh

    if args.sample is not None:
        settings.RELATED_SKILLS_SAMPLE_CANDIDATES = args.sample
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), count(DISTINCT candidate_id) FROM profiles_candidateskill WHERE score >= %s",
            [settings.RELATED_SKILLS_MIN_SCORE],
        )
        skill_rows, candidates = cursor.fetchone()
    result = related_skills_refresh()
    print(
        f"\n{args.count:,} candidates, {skill_rows:,} candidate-skill rows at score >= "
        f"{settings.RELATED_SKILLS_MIN_SCORE} ({candidates:,} candidates); min support "
        f"{settings.RELATED_SKILLS_MIN_SUPPORT}, min lift {settings.RELATED_SKILLS_MIN_LIFT}, "
        f"{settings.RELATED_SKILLS_PER_SKILL} per skill, sample above {settings.RELATED_SKILLS_SAMPLE_CANDIDATES:,}"
    )
    print(result.line())
    skill = Skill.objects.filter(slug=args.skill).first()
    if skill is not None:
        shown = ", ".join(f"{r.related.slug} ({r.lift:.2f}, {r.support})" for r in related_skills(skill=skill, limit=8))
        print(f"{skill.slug}: {shown or 'none'}")


if __name__ == "__main__":
    main()
