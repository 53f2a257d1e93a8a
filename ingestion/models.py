"""Every received profile file, kept with its bytes before parsing, and the batches that brought them."""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from ingestion.parsers import format_choices


class ImportBatch(models.Model):
    class Origin(models.TextChoices):
        FOLDER = "folder", "Folder"
        INBOX = "inbox", "Watched inbox"
        ADMIN = "admin", "Admin upload"
        API = "api", "API upload"
        CLI = "cli", "Command line"

    origin = models.CharField(max_length=10, choices=Origin.choices)
    label = models.CharField(max_length=500, blank=True, help_text="Folder or upload description.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="import_batches"
    )
    # Files received, including those whose identical bytes were already stored (counted in `duplicates`).
    total_files = models.PositiveIntegerField(default=0)
    duplicates = models.PositiveIntegerField(
        default=0, help_text="Files whose identical bytes were already stored, in a batch the uploader may view."
    )
    # Of the duplicates, those whose stored copy had failed: bytes known to be broken, reported as failed again (the
    # count is what the figures read). Only the stored copies' ids are kept: the batch page shows their name and error,
    # which an erasure withholds; the name these bytes came under, stored here, would outlive it.
    duplicates_failed = models.PositiveIntegerField(
        default=0, help_text="Of the duplicates, those whose stored copy had failed: counted as failed."
    )
    duplicates_failed_ids = ArrayField(
        models.BigIntegerField(),
        default=list,
        blank=True,
        help_text="The stored copy's id of each duplicate whose stored copy had failed, in the order received.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "import batches"

    def __str__(self) -> str:
        return f"Batch {self.pk} ({self.get_origin_display()})"


class SourceFile(models.Model):
    # UNKNOWN, then one member a format of the parsers' registry, named after it (PROGAI, JSONRESUME, CV).
    Format = models.TextChoices("Format", [(name.upper(), (name, label)) for name, label in format_choices()])

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        PROCESSING = "processing", "Processing"
        IMPORTED = "imported", "Imported"
        UNCHANGED = "unchanged", "Unchanged"
        FAILED = "failed", "Failed"

    class Outcome(models.TextChoices):
        NONE = "", "—"
        CREATED = "created", "Created a candidate"
        UPDATED = "updated", "Updated a candidate"
        UNCHANGED = "unchanged", "Candidate already up to date"

    # Foreign keys indexed by the (batch, status) and (candidate) indexes below.
    batch = models.ForeignKey(
        ImportBatch, null=True, blank=True, on_delete=models.SET_NULL, related_name="files", db_index=False
    )
    original_name = models.CharField(max_length=500)
    content = models.BinaryField(editable=False)
    sha256 = models.CharField(max_length=64)  # unique within its dedup_scope: see the constraint
    # Identical bytes are stored once per scope. 0 is the shared store: files from the command line, the inbox and
    # users who may view every batch. An uploader who may view only their own batches gets a scope of their own (their
    # user id; a number, not a key, so deleting the user leaves their files as they were): what others uploaded is
    # never reported to them as "already stored", and their upload is imported like any new file.
    dedup_scope = models.PositiveBigIntegerField(
        default=0, editable=False, help_text="0: the shared store; else the id of the uploader whose own copy this is."
    )
    size = models.PositiveBigIntegerField()
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.UNKNOWN)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.NONE, blank=True)
    error = models.TextField(blank=True)
    warnings = models.JSONField(default=list, blank=True)
    candidate = models.ForeignKey(
        "profiles.Candidate", null=True, blank=True, on_delete=models.SET_NULL, related_name="sources", db_index=False
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    queued_at = models.DateTimeField(null=True, blank=True, help_text="When the file was last sent to a worker.")
    claimed_at = models.DateTimeField(null=True, blank=True, help_text="When a worker took the file.")
    claimed_by = models.CharField(max_length=64, blank=True, help_text="The task that holds the claim.")
    created_at = models.DateTimeField(auto_now_add=True)
    processed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["batch", "status"], name="sourcefile_batch_status_idx"),
            # The sweeper looks for files stuck in pending/processing.
            models.Index(
                fields=["status", "claimed_at"],
                name="sourcefile_unfinished_idx",
                condition=Q(status__in=["pending", "processing"]),
            ),
            models.Index(fields=["candidate"], name="sourcefile_candidate_idx"),
        ]
        constraints = [
            # Identical bytes once per scope; the index also serves lookups by sha256 alone (its first column).
            models.UniqueConstraint(fields=["sha256", "dedup_scope"], name="sourcefile_unique_sha256_per_scope"),
            models.CheckConstraint(condition=~Q(status="failed") | ~Q(error=""), name="sourcefile_failed_has_error"),
        ]

    def __str__(self) -> str:
        return self.original_name

    @property
    def text(self) -> str:
        """The bytes decoded for display (never executed or trusted; templates escape it)."""
        return bytes(self.content).decode("utf-8", errors="replace")


class SourceFileText(models.Model):
    """The text a parser read out of a stored binary file (a PDF's, a DOCX's), kept when the file is parsed, so that
    its admin page shows what the reader worked from without reading the file again. A text file has none: its bytes
    are its text.

    Written again at each parse of the file; deleted with the file, and by an erasure that empties the file
    (``ingestion.privacy.source_files_withhold``): it holds what the bytes hold."""

    source_file = models.OneToOneField(SourceFile, on_delete=models.CASCADE, primary_key=True, related_name="+")
    text = models.TextField()

    def __str__(self) -> str:
        return f"Text of source file {self.source_file_id}"


class SharedRowCreated(models.Model):
    """A shared row (a skill, an alias, a repository) an import created for a file before the chunk's transaction.

    Kept while the file's import is undecided; dropped when it imports, and taken back (the row deleted unless a
    profile uses it) when it fails. In the database, not in the import's memory: a retried task
    finds those rows already there and creates nothing, and the sweeper that finally fails a file never ran its
    import, yet both must still take them back.
    """

    class Kind(models.TextChoices):
        SKILL = "skill", "Skill (slug)"
        ALIAS = "alias", "Alias (label key)"
        REPOSITORY = "repository", "Repository (owner/name)"

    # Indexed by the unique constraint below (its first column).
    source_file = models.ForeignKey(SourceFile, on_delete=models.CASCADE, related_name="+", db_index=False)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    key = models.CharField(max_length=300)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["source_file", "kind", "key"], name="sharedrowcreated_unique_per_file")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"


class InboxCopyToDelete(models.Model):
    """The bytes (size and sha256) of a file an erasure emptied or the import refused, whose copies the watched inbox
    kept in ``.imported/`` or ``.rejected/`` are to be deleted (``ingestion.privacy.inbox_copies_delete``).

    Recorded in the erasure's transaction and deleted once the copies are, by the worker where the inbox is: many
    erasures at once are one listing of the inbox's folders, not one each, and a worker lost meanwhile leaves the
    rows for the next inbox scan. A hash of the bytes, no name: the refused files' rows keep theirs as well.
    """

    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.sha256[:16]}… ({self.size} bytes)"
