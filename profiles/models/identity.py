"""Who is who: pairs that may be one person, pairs that are not, candidates whose history mixes two people,
identifiers several people share, and the record of merges."""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from profiles.models.candidates import Candidate


class NotDuplicate(models.Model):
    """A pair of candidates a recruiter marked as different people; never proposed for merging again."""

    first = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="+")
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    marked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="notduplicate_unique_pair"),
            models.CheckConstraint(condition=Q(first__lt=models.F("second")), name="notduplicate_ordered_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.first_id} ≠ {self.second_id}"


class PossibleDuplicate(models.Model):
    """Two candidates an import could not tell apart by their identifiers: a file led by an identity key to a
    candidate of a clearly different name, and was imported as a new candidate (``second``) rather than written over
    the one that holds the key (``first``). The possible-duplicates page lists the pair until a recruiter merges it or
    marks it as different people."""

    class Reason(models.TextChoices):
        NAME_DIFFERS = "name", "An identifier of theirs, under another name"
        SPELLINGS = "spelling", "One identifier, written two ways"

    first = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    kind = models.CharField(max_length=10, blank=True)  # the identity key both named (CandidateIdentifier.Kind)
    value = models.CharField(max_length=500, blank=True)
    found_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="possibleduplicate_unique_pair"),
            models.CheckConstraint(condition=~Q(first=models.F("second")), name="possibleduplicate_two_candidates"),
        ]
        indexes = [models.Index(fields=["second"], name="possibleduplicate_second_idx")]

    def __str__(self) -> str:
        return f"{self.first_id} ~ {self.second_id}"


class IdentityReview(models.Model):
    """A candidate whose history shows their name changing to a clearly different person's: an import before names
    were checked (``PossibleDuplicate``) may have merged two people into them, the second file written over the
    first. Listed for a recruiter to check and split by hand; the finding changes nothing of the candidate."""

    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="identity_reviews")
    names = ArrayField(models.CharField(max_length=300), help_text="The names its history and its files show.")
    found_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["found_at", "id"]
        constraints = [models.UniqueConstraint(fields=["candidate"], name="identityreview_one_per_candidate")]

    def __str__(self) -> str:
        return " → ".join(self.names)


class SharedIdentifier(models.Model):
    """An identity key that several people name (an employer's homepage in two colleagues' files): no personal
    identifier, so the loader matches nobody by it and gives it to nobody."""

    kind = models.CharField(max_length=10)
    value = models.CharField(max_length=500)
    noted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "value"], name="sharedidentifier_unique_kind_value")]

    def __str__(self) -> str:
        return f"{self.kind}:{self.value}"


class MergeRecord(models.Model):
    survivor = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="merges")
    merged_name = models.CharField(max_length=300)
    merged_id = models.BigIntegerField()
    merged_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    merged_at = models.DateTimeField(auto_now_add=True)
    details = models.JSONField(default=dict)

    class Meta:
        ordering = ["-merged_at"]

    def __str__(self) -> str:
        return f"{self.merged_name} (#{self.merged_id}) merged into #{self.survivor_id}"
