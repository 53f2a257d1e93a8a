"""Open-source repositories and a candidate's contributions to them."""

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import Q

from profiles.models.candidates import Candidate


class Repository(models.Model):
    full_name = models.CharField(max_length=300, unique=True, help_text="owner/name")
    description = models.TextField(blank=True)
    # Topics as the file wrote them (split), and their canonical slugs for alias-aware filtering.
    topics = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    topic_slugs = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    topics_raw = models.CharField(max_length=1000, blank=True, help_text="The topics line before splitting.")

    class Meta:
        ordering = ["full_name"]
        verbose_name_plural = "repositories"
        indexes = [GinIndex(fields=["topic_slugs"], name="repository_topic_slugs_gin")]
        constraints = [
            models.CheckConstraint(condition=Q(full_name__regex=r"^[^/\s]+/[^/\s]+$"), name="repository_owner_name"),
        ]

    def __str__(self) -> str:
        return self.full_name


class Contribution(models.Model):
    # Indexed by the (candidate, repository) unique constraint and the (repository, candidate) index below.
    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="contributions", db_index=False)
    repository = models.ForeignKey(Repository, on_delete=models.PROTECT, related_name="contributions", db_index=False)
    position = models.PositiveSmallIntegerField(default=0)
    role = models.CharField(max_length=200, blank=True)
    commits = models.PositiveIntegerField(default=0)
    comments = models.PositiveIntegerField(default=0)
    start = models.DateField(null=True, blank=True, help_text="First day of the start month.")
    end = models.DateField(null=True, blank=True, help_text="First day of the end month; empty while ongoing.")
    is_current = models.BooleanField(default=False)
    active_months = models.PositiveIntegerField(null=True, blank=True)
    summary = models.TextField(blank=True)

    class Meta:
        ordering = ["candidate", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["candidate", "repository"], name="contribution_unique_candidate_repo"),
            models.CheckConstraint(
                condition=Q(start__isnull=True) | Q(end__isnull=True) | Q(end__gte=models.F("start")),
                name="contribution_end_after_start",
            ),
        ]
        indexes = [
            # repository=owner/name filter and the repository's contributor count.
            models.Index(fields=["repository", "candidate"], name="contribution_repo_cand_idx"),
            models.Index(fields=["candidate", "commits"], name="contribution_cand_commits_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.candidate} → {self.repository}"
