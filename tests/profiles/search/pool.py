"""A fictional pool of candidates, drawn once from a fixed seed, and ranking requests over it: what the SQL backend's
answers are compared against, row for row (tests/fixtures/search/sql_ranking_reference.json holds the rows the
ranking gave before it moved behind the search backend)."""

from __future__ import annotations

import datetime as dt
import random

from django.utils import timezone

from profiles.models import RelatedSkill, SkillAlias
from profiles.search import candidates_refresh_search_columns
from profiles.vocabulary_copy import skill_vocabulary_changed
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    RepositoryFactory,
    SkillFactory,
)
from tests.fixtures import FIXTURES_DIR

REFERENCE = FIXTURES_DIR / "search" / "sql_ranking_reference.json"
TODAY = dt.date(2026, 1, 1)
POOL_SIZE = 48
SKILLS = (
    "python", "go", "rust", "postgresql", "kafka", "docker", "kubernetes", "react", "typescript", "terraform",
    "pytorch", "elixir",
)  # fmt: skip
RELATED = (("python", "pytorch", 4.0), ("go", "rust", 3.0), ("go", "elixir", 2.2), ("postgresql", "kafka", 2.5))
COUNTRIES = ("DE", "DE", "FR", "US", "GB", "")
WORDS = ("distributed systems", "payments", "machine learning", "platform", "mentoring", "open source")

# Each request's criteria, switches and candidate filters (``RankRequest``'s fields).
CASES: dict[str, dict] = {
    "backend": {
        "required": (("go", 5), ("postgresql", 5), ("kafka", 4)),
        "preferred": ("rust",),
        "min_years_coding": 5,
        "countries": ("DE",),
        "keywords": ("distributed systems",),
    },
    "backend anywhere": {
        "required": (("go", 5), ("postgresql", 5), ("kafka", 4)),
        "preferred": ("rust",),
        "min_years_coding": 5,
        "countries": ("DE",),
        "keywords": ("distributed systems",),
        "anywhere": True,
    },
    "backend strict": {
        "required": (("go", 3), ("postgresql", 2)),
        "preferred": ("rust", "kafka"),
        "strict": True,
        "anywhere": True,
    },
    "widened": {"required": (("python", 7),), "preferred": ("docker",), "widen": True, "anywhere": True},
    "widened in two countries": {
        "required": (("go", 6), ("postgresql", 3)),
        "preferred": ("kubernetes",),
        "countries": ("DE", "FR"),
        "widen": True,
    },
    "widened strict": {"required": (("go", 4),), "widen": True, "strict": True},
    "excluded": {"required": (("typescript", 3), ("react", 5)), "excluded": ("go",)},
    "filtered": {
        "required": (("python", 3),),
        "keywords": ("payments", "machine learning"),
        "filters": {"min_years_coding": "4"},
    },
    "country filter names the place": {
        "required": (("docker", 2),),
        "preferred": ("kubernetes", "terraform"),
        "countries": ("DE",),
        "filters": {"country": "FR"},
    },
    "an unknown skill": {"required": (("cobol", 5), ("go", 3)), "preferred": ("fortran",)},
    "an unknown skill, strict": {"required": (("cobol", 5), ("go", 3)), "strict": True},
    "preferred only": {"preferred": ("docker", "kubernetes", "terraform"), "keywords": ("payments",)},
    "nothing known": {"required": (("cobol", 5),)},
}  # fmt: skip


def build_pool() -> None:
    """The skills (with an alias each, as an import makes them), their related pairs, and POOL_SIZE candidates with
    skills, countries, years, summaries and contributions drawn from a fixed seed, named in creation order."""
    rng = random.Random(28)
    skills = {slug: SkillFactory(slug=slug) for slug in SKILLS}
    for slug, skill in skills.items():
        SkillAlias.objects.get_or_create(label=slug, defaults={"skill": skill})
    for skill, related, lift in RELATED:
        RelatedSkill.objects.create(
            skill=skills[skill], related=skills[related], lift=lift, support=20, computed_at=timezone.now()
        )
    skill_vocabulary_changed()
    ids = []
    for number in range(POOL_SIZE):
        candidate = CandidateFactory(
            name=f"Person {number:02d}",
            title="Engineer",
            company="Acme",
            headline="",
            summary=" and ".join(rng.sample(WORDS, rng.randint(0, 2))),
            country_code=rng.choice(COUNTRIES),
            years_coding=rng.choice((None, 1, 3, 4, 6, 9, 14)),
        )
        held = rng.sample(SKILLS, rng.randint(1, 6))
        for slug in held:
            CandidateSkillFactory(candidate=candidate, skill=skills[slug], score=rng.randint(0, 10))
        for index in range(rng.randint(0, 2)):
            end = rng.choice((None, dt.date(2015, 3, 1), dt.date(2022, 9, 1), dt.date(2025, 6, 1)))
            ContributionFactory(
                candidate=candidate,
                repository=RepositoryFactory(
                    full_name=f"person{number:02d}/work{index}",
                    topic_slugs=rng.sample([*held, "cli", "web"], min(2, len(held) + 1)),
                ),
                commits=rng.choice((0, 5, 40, 300)),
                active_months=rng.choice((None, 2, 12)),
                start=dt.date(2012, 1, 1),
                end=end,
                is_current=end is None,
            )
        ids.append(candidate.pk)
    candidates_refresh_search_columns(candidate_ids=ids)
