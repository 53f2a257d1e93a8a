"""The skill vocabulary: canonical skills, the labels files write for them, and which skills go together."""

from django.db import models
from django.db.models import Q


class Skill(models.Model):
    class Kind(models.TextChoices):
        SKILL = "skill", "Skill"
        LANGUAGE = "language", "Programming language"
        TOPIC = "topic", "Topic"

    slug = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SKILL)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name


class SkillAlias(models.Model):
    """Every label seen in a file (lower-cased) maps to exactly one canonical skill."""

    label = models.CharField(max_length=200, unique=True)
    skill = models.ForeignKey(Skill, on_delete=models.CASCADE, related_name="aliases")

    class Meta:
        verbose_name_plural = "skill aliases"
        ordering = ["label"]
        constraints = [
            models.CheckConstraint(condition=Q(label=models.functions.Lower("label")), name="skillalias_label_lower"),
        ]

    def __str__(self) -> str:
        return f"{self.label} → {self.skill.slug}"


class RelatedSkill(models.Model):
    """``related`` goes with ``skill`` more often than chance: computed from the candidates' skills, never edited.

    ``support`` is the number of candidates (of the pool the refresh counted) who have both at the minimum score;
    ``lift`` is how many times more often than if the two were independent: support × pool / (n(skill) × n(related)).
    ``profiles.services.related_skills_refresh`` replaces every row at once; a pair is stored in both directions,
    each skill keeping only its top related ones.
    """

    # Read by skill (``related_skills``): the unique constraint's index, which leads with skill, serves that.
    skill = models.ForeignKey(Skill, on_delete=models.CASCADE, related_name="related_skills", db_index=False)
    related = models.ForeignKey(Skill, on_delete=models.CASCADE, related_name="+")
    support = models.PositiveIntegerField()
    lift = models.FloatField()
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["skill", "-lift", "-support", "related"]
        constraints = [
            models.UniqueConstraint(fields=["skill", "related"], name="relatedskill_unique_pair"),
            models.CheckConstraint(condition=~Q(skill=models.F("related")), name="relatedskill_not_itself"),
            models.CheckConstraint(condition=Q(support__gte=1), name="relatedskill_support_positive"),
            models.CheckConstraint(condition=Q(lift__gt=0), name="relatedskill_lift_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.skill_id} → {self.related_id} (lift {self.lift:.2f}, {self.support} candidates)"
