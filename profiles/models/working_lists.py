"""A recruiter's working lists: shortlists (a pipeline's stages and their events) and saved searches."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from profiles.models.candidates import Candidate

# Shortlists and saved searches are their owner's: private unless the owner shares them with the team, and then the
# team reads them while only the owner (or a superuser) changes them. profiles.selectors.working_lists_for is the rule.
SHARED_HELP = "Every colleague may see and export it; only you change it."


class Shortlist(models.Model):
    name = models.CharField(max_length=200)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="shortlists")
    description = models.TextField(blank=True)
    shared = models.BooleanField("shared with the team", default=False, help_text=SHARED_HELP)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="shortlist_unique_owner_name")]

    def __str__(self) -> str:
        return self.name


class ShortlistEntry(models.Model):
    # The stages of a pipeline, in their order; a plain shortlist uses the same. "sourced" was "new"
    # before migration 0016.
    class Status(models.TextChoices):
        SOURCED = "sourced", "Sourced"
        CONTACTED = "contacted", "Contacted"
        REPLIED = "replied", "Replied"
        INTERVIEWING = "interviewing", "Interviewing"
        OFFER = "offer", "Offer"
        HIRED = "hired", "Hired"
        REJECTED = "rejected", "Rejected"

    shortlist = models.ForeignKey(Shortlist, on_delete=models.CASCADE, related_name="entries")
    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="shortlist_entries")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SOURCED)
    notes = models.TextField(blank=True)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["shortlist", "-added_at"]
        verbose_name_plural = "shortlist entries"
        constraints = [
            models.UniqueConstraint(fields=["shortlist", "candidate"], name="shortlistentry_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.candidate} in {self.shortlist}"


class ShortlistEntryEvent(models.Model):
    """What happened to an entry, by whom and when: it was added, moved to a stage, or given a note. Written by the
    shortlist services (``profiles.services``) alongside the change itself, never by signals, so every path that
    changes an entry goes through one place."""

    class Kind(models.TextChoices):
        ADDED = "added", "Added"
        STAGE = "stage", "Stage changed"
        NOTE = "note", "Note"

    entry = models.ForeignKey(ShortlistEntry, on_delete=models.CASCADE, related_name="events")
    # A colleague who leaves keeps their history on the entries: the event stays, without its author.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    from_status = models.CharField(max_length=20, choices=ShortlistEntry.Status.choices, blank=True)
    to_status = models.CharField(max_length=20, choices=ShortlistEntry.Status.choices, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on {self.entry_id} at {self.at:%Y-%m-%d %H:%M}"


class SavedSearch(models.Model):
    """A named set of the API's candidate filters (query-string form), shared by admin, API and exports."""

    name = models.CharField(max_length=200)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_searches")
    query = models.CharField(max_length=2000, help_text="Filters as a query string, e.g. skill=python:8&country=DE")
    shared = models.BooleanField("shared with the team", default=False, help_text=SHARED_HELP)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "saved searches"

    def __str__(self) -> str:
        return self.name
