"""What the stored-job tests share (jobs' services, admin and API): a description and the skills it names."""

from django.utils import timezone

from profiles.models import RelatedSkill, SkillAlias
from profiles.vocabulary_copy import skill_vocabulary_changed
from tests.factories import SkillFactory

DESCRIPTION = """Senior Backend Engineer (Go)

Berlin, Germany

Requirements
- 5+ years of experience with Go and PostgreSQL
- Kafka in production

Nice to have
- Rust
"""


def make_skills() -> dict:
    made = {slug: SkillFactory(slug=slug) for slug in ("go", "postgresql", "kafka", "rust", "php")}
    for slug, skill in made.items():  # the vocabulary is the aliases: a skill an import made has its label as one
        SkillAlias.objects.get_or_create(label=slug, defaults={"skill": skill})
    skill_vocabulary_changed()
    return made


def relate(skill: str, related: str, *, lift: float = 4.0, support: int = 30) -> RelatedSkill:
    """A pair as ``related_skills_refresh`` stores it (one direction: the tests say which one they need)."""
    return RelatedSkill.objects.create(
        skill=SkillFactory(slug=skill),
        related=SkillFactory(slug=related),
        lift=lift,
        support=support,
        computed_at=timezone.now(),
    )
