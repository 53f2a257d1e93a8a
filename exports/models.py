from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import Q


class Export(models.Model):
    """One export job: a candidate search (the API's query string) written to a file in the ``exports`` storage.

    The states run queued → running → done | failed, and done → expired once the file is deleted. A job is done only
    when every row is in the stored file and counted, with the file's size and sha256 recorded; a worker that dies or
    times out leaves it running until the sweeper queues it again or fails it (``exports.services``).
    """

    class Format(models.TextChoices):
        CSV = "csv", "CSV"
        JSONL = "jsonl", "JSON Lines"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        EXPIRED = "expired", "Expired"

    ACTIVE = (Status.QUEUED, Status.RUNNING)
    # What its owner is shown of a job, in the API and the admin alike (each adds its own links and progress); the
    # claim, the heartbeat and the file's storage name are the worker's business.
    OWNER_FIELDS = (
        "format",
        "query",
        "status",
        "rows_total",
        "rows_written",
        "file_size",
        "file_sha256",
        "error",
        "created_at",
        "started_at",
        "finished_at",
        "expires_at",
    )

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exports")
    format = models.CharField(max_length=8, choices=Format.choices)
    query = models.TextField(blank=True, help_text="The candidate filters, as the API's query string.")
    row_url = models.CharField(
        max_length=500, help_text="Where each row links to: a URL with {pk} in place of the candidate's id."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    rows_total = models.PositiveIntegerField(null=True, blank=True, help_text="Candidates matching when it started.")
    rows_written = models.PositiveIntegerField(default=0)
    file_name = models.CharField(max_length=300, blank=True, help_text="In the exports storage, once done.")
    file_size = models.PositiveBigIntegerField(null=True, blank=True)
    file_sha256 = models.CharField(max_length=64, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # The run that holds the job (a compare-and-set claim) and when it last reported: a run that stops reporting
    # has lost its worker, and the sweeper hands the job on.
    claim_token = models.CharField(max_length=32, blank=True, editable=False)
    heartbeat_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="When the file is deleted.")
    # The candidates the file holds, recorded as it is written: an erasure expires only the files that hold the
    # person. Null for a file written before they were recorded, which an erasure expires whoever it holds.
    candidate_ids = ArrayField(models.BigIntegerField(), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # A user's exports, newest first (the API's list and the admin's).
            models.Index(fields=["owner", "-created_at", "-id"], name="export_owner_created_idx"),
            # The concurrency check counts a user's queued and running jobs; the sweeper reads them all.
            models.Index(fields=["owner"], condition=Q(status__in=["queued", "running"]), name="export_active_idx"),
            # The beat task deletes files past their expiry.
            models.Index(fields=["expires_at"], condition=Q(status="done"), name="export_done_expiry_idx"),
            # An erasure looks for the finished files that hold the person.
            GinIndex(fields=["candidate_ids"], condition=Q(status="done"), name="export_done_candidates_gin"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="done") | (Q(file_size__isnull=False) & ~Q(file_sha256="") & ~Q(file_name="")),
                name="export_done_has_its_file",
            ),
        ]

    def __str__(self) -> str:
        return f"Export {self.pk} ({self.get_format_display()}, {self.get_status_display().lower()})"

    @property
    def progress(self) -> int:
        """Percent of the rows written (100 once done)."""
        if self.status == self.Status.DONE:
            return 100
        if not self.rows_total:
            return 0
        return min(99, self.rows_written * 100 // self.rows_total)

    @property
    def download_name(self) -> str:
        return f"candidates-{self.pk}.{self.format}"
