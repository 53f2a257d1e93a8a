"""Jobs: a description as pasted, the criteria read from it and edited by the recruiter, and a pipeline.

The pipeline is a ``profiles.Shortlist`` the job owns (one model, not two that overlap): its entries are the
candidates, their status the stage, and the shortlist machinery (permissions, CSV export, admin, events) serves both.
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from profiles.models import SHARED_HELP


class Job(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    title = models.CharField(max_length=200)
    # As pasted; its length is capped by JOB_DESCRIPTION_MAX_CHARS in the service, a setting rather than a column type.
    description = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs")
    shared = models.BooleanField("shared with the team", default=False, help_text=SHARED_HELP)
    # The criteria besides skills (those are JobSkill rows): Criteria's fields, editable by the recruiter.
    countries = ArrayField(models.CharField(max_length=2), default=list, blank=True, help_text="ISO 3166-1 alpha-2")
    remote = models.BooleanField(null=True, blank=True, help_text="Empty: either")
    min_years_coding = models.PositiveSmallIntegerField(null=True, blank=True)
    keywords = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    # What the reading of the description left out, for the recruiter to add back: Criteria.ignored as
    # [{"label", "skill", "reason"}] and Criteria.unrecognised, as extracted when the job was created.
    ignored = models.JSONField(default=list, blank=True, help_text='[{"label", "skill", "reason"}]')
    unrecognised = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    # RESTRICT, not CASCADE or PROTECT: a pipeline cannot be deleted from under its job (the shortlist pages refuse),
    # yet deleting the owner, whose jobs and shortlists both cascade, deletes the two together (PROTECT would refuse).
    pipeline = models.OneToOneField("profiles.Shortlist", on_delete=models.RESTRICT, related_name="job")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(min_years_coding__lte=80), name="job_min_years_coding_range"),
        ]

    def __str__(self) -> str:
        return self.title


class JobSkill(models.Model):
    """One skill of a job's criteria: required (with a minimum score), preferred or excluded."""

    class Kind(models.TextChoices):
        REQUIRED = "required", "Required"
        PREFERRED = "preferred", "Preferred"
        EXCLUDED = "excluded", "Excluded"

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="skills")
    skill = models.ForeignKey("profiles.Skill", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    min_score = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0-10, required skills only")

    class Meta:
        ordering = ["job", "kind", "id"]
        constraints = [
            models.UniqueConstraint(fields=["job", "skill"], name="jobskill_unique_job_skill"),
            models.CheckConstraint(
                condition=Q(min_score__isnull=True) | Q(min_score__gte=0, min_score__lte=10),
                name="jobskill_min_score_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.skill} ({self.kind})"
