"""Where each candidate came from, erasures that stay erased, and the privacy audit log.

None of these tables holds readable personal data besides the candidate they point at: a suppression is a keyed
hash, a request's reason is asked for without it, and an audit row holds counts.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from profiles.models import CandidateIdentifier


class SourcingRecord(models.Model):
    """How a candidate came to be held: the first import that brought them, on what lawful basis, and whether they
    were told (GDPR Art. 14: within one month of sourcing).

    The batch and the file are plain numbers, not keys: this app sits below ``ingestion`` and never imports it, and
    the numbers say which import it was even once that file is deleted or erased.
    """

    class LawfulBasis(models.TextChoices):
        LEGITIMATE_INTEREST = "legitimate_interest", "Legitimate interest"
        CONSENT = "consent", "Consent"
        CONTRACT = "contract", "Steps towards a contract"
        LEGAL_OBLIGATION = "legal_obligation", "Legal obligation"

    class NoticeChannel(models.TextChoices):
        NONE = "", "—"
        EMAIL = "email", "E-mail"
        LINKEDIN = "linkedin", "LinkedIn message"
        PHONE = "phone", "Phone"
        LETTER = "letter", "Letter"
        OTHER = "other", "Other"

    NOTICE_PERIOD_MONTHS = 1

    # The candidate's id is this row's: one record each, found without another index.
    candidate = models.OneToOneField(
        "profiles.Candidate", on_delete=models.CASCADE, primary_key=True, related_name="sourcing"
    )
    sourced_at = models.DateTimeField(default=timezone.now, help_text="When an import first brought the candidate.")
    source_batch_id = models.PositiveBigIntegerField(null=True, blank=True, help_text="The import batch's number.")
    source_file_id = models.PositiveBigIntegerField(null=True, blank=True, help_text="The source file's number.")
    lawful_basis = models.CharField(max_length=20, choices=LawfulBasis.choices, default=LawfulBasis.LEGITIMATE_INTEREST)
    notice_due_at = models.DateTimeField(help_text="One month after sourcing: when the person must have been told.")
    notified_at = models.DateTimeField(null=True, blank=True, help_text="When the person was told.")
    notice_channel = models.CharField(max_length=10, choices=NoticeChannel.choices, blank=True)

    class Meta:
        ordering = ["notice_due_at", "candidate"]
        indexes = [
            # The "notice due" list and the dashboard's overdue count: those not told yet, by due date.
            models.Index(
                fields=["notice_due_at"], condition=Q(notified_at__isnull=True), name="sourcing_notice_due_idx"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(notified_at__isnull=True) | ~Q(notice_channel=""), name="sourcing_notified_has_channel"
            ),
        ]

    def __str__(self) -> str:
        return f"Sourcing of candidate #{self.candidate_id}"

    @classmethod
    def candidates_merged(cls, *, survivor_id: int, other_id: int) -> int:
        """Two candidates merged into one (``profiles.services.candidates_merge`` calls this): the person was sourced
        when the first of them was, and told when the first of them was told; the survivor's lawful basis stays.
        Returns 1 when the merged candidate had a record."""
        records = {r.candidate_id: r for r in cls.objects.select_for_update().filter(pk__in=[survivor_id, other_id])}
        theirs, mine = records.get(other_id), records.get(survivor_id)
        if theirs is None:
            return 0
        if mine is None:
            return cls.objects.filter(pk=other_id).update(candidate_id=survivor_id)
        if theirs.sourced_at < mine.sourced_at:
            for name in ("sourced_at", "source_batch_id", "source_file_id", "notice_due_at"):
                setattr(mine, name, getattr(theirs, name))
        if theirs.notified_at and (mine.notified_at is None or theirs.notified_at < mine.notified_at):
            mine.notified_at, mine.notice_channel = theirs.notified_at, theirs.notice_channel
        theirs.delete()
        mine.save()
        return 1


class ErasureRequest(models.Model):
    """A recruiter's request that a person be erased, for a privacy officer to decide."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DONE = "done", "Erased"
        REJECTED = "rejected", "Rejected"

    # Emptied by the erasure itself: what stays is that a request was made and decided, by whom and when.
    candidate = models.ForeignKey(
        "profiles.Candidate", null=True, blank=True, on_delete=models.SET_NULL, related_name="erasure_requests"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    reason = models.TextField(
        blank=True, help_text="Why, without personal data (no name or e-mail): it is kept after the erasure."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        indexes = [models.Index(fields=["status", "-requested_at"], name="erasurerequest_status_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="open") | Q(decided_at__isnull=False), name="erasurerequest_decided_has_date"
            ),
        ]

    def __str__(self) -> str:
        return f"Erasure request {self.pk} ({self.get_status_display().lower()})"


class PrivacyEvent(models.Model):
    """The privacy audit log: that an erasure (or another privacy act) happened, when, by whom, and how many rows of
    each kind it touched, and the ids of stored files an erasure left for a privacy officer to look at. Never a name,
    an identifier or a candidate's id: the row outlives the person."""

    class Kind(models.TextChoices):
        ERASURE = "erasure", "Erasure"
        ANONYMISATION = "anonymisation", "Anonymisation"
        RETENTION = "retention", "Retention run"
        SUBJECT_ACCESS = "subject_access", "Subject access report"
        NOTICE = "notice", "Notices marked as sent"
        IMPORT_REFUSED = "import_refused", "Import refused (erased person)"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    request = models.ForeignKey(ErasureRequest, null=True, blank=True, on_delete=models.SET_NULL, related_name="events")
    counts = models.JSONField(default=dict, blank=True, help_text="Rows or files touched, by kind; no personal data.")
    # What an erasure found naming the person but could not tell was theirs (a failed file holding their name only):
    # left as it was, for a privacy officer to look at. Ids by kind, never the text that matched.
    to_review = models.JSONField(
        default=dict, blank=True, help_text="Rows to look at (ids by kind): they name the person, maybe a namesake."
    )

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = "privacy event"
        permissions = [
            ("erase_candidate", "Can erase candidates"),
            ("subject_access_candidate", "Can produce a candidate's subject access report"),
            ("run_retention", "Can run retention and read its reports"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.at:%Y-%m-%d %H:%M}"


class Suppression(models.Model):
    """One identifier of an erased person, as a keyed hash (``privacy.hashing``): enough to refuse a later import of
    them, not enough to read who they were. The person's identifiers share their ``erasure``, which lets the import
    tell a namesake (same name and place, other accounts) from the person."""

    class Reason(models.TextChoices):
        # Why they were erased: what a refused file's message says (a retention erasure was nobody's request).
        REQUEST = "request", "At the person's request"
        RETENTION = "retention", "Under the retention policy"

    kind = models.CharField(max_length=10, choices=CandidateIdentifier.Kind.choices)
    digest = models.CharField(max_length=64, help_text="HMAC-SHA256 of the identifier, hex.")
    erased_at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=10, choices=Reason.choices, default=Reason.REQUEST)
    erased_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    request = models.ForeignKey(
        ErasureRequest, null=True, blank=True, on_delete=models.SET_NULL, related_name="suppressions"
    )
    erasure = models.ForeignKey(
        PrivacyEvent, null=True, blank=True, on_delete=models.SET_NULL, related_name="suppressions"
    )

    class Meta:
        ordering = ["-erased_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["kind", "digest"], name="suppression_unique_kind_digest")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} erased {self.erased_at:%Y-%m-%d}"
