"""Import monitoring: batches with a live progress bar, an upload form, and stored files with their text and errors.

Writes go through ``ingestion.services`` (batch_create, batch_receive, source_files_requeue).
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import display_for_field
from django.core.exceptions import PermissionDenied
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from core.text import human_size
from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from ingestion.parsers import formats_in_words
from ingestion.selectors import (
    BatchFilesState,
    batch_failed_duplicates,
    batch_files_state,
    batch_files_with_warnings,
    import_batch_progress,
    source_file_text,
)


class _StatusCount(Subquery):
    """How many files of the batch (the outer row) have this status: an index-only count per row of the page."""

    output_field = IntegerField()

    def __init__(self, status: str):
        files = (
            SourceFile.objects.filter(batch=OuterRef("pk"), status=status)
            .order_by()
            .values("batch")
            .annotate(n=Count("*"))
            .values("n")
        )
        super().__init__(files)


def progress_bar(batch: ImportBatch, progress: dict) -> SafeString:
    """A <progress> bar with its figures; while the batch runs, the page's script polls its JSON endpoint."""
    return render_to_string(
        "admin/ingestion/progress_bar.html",
        {"progress": progress, "url": reverse("admin:ingestion_importbatch_progress", args=[batch.pk])},
    )


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field. Empty files are accepted: stored, then failed with a message like any bad file."""

    widget = MultipleFileInput

    def __init__(self, **kwargs):
        super().__init__(allow_empty_file=True, **kwargs)

    def clean(self, data, initial=None):
        files = data if isinstance(data, list | tuple) else [data] if data else []
        if not files:
            raise forms.ValidationError("Choose at least one profile file.")
        refusals = services.upload_refusals(files=files)  # the limits of the API's uploads, from the same function
        if refusals:
            raise forms.ValidationError(refusals)
        return [super(MultipleFileField, self).clean(f, initial) for f in files]


class UploadForm(forms.Form):
    files = MultipleFileField(
        label="Profile files",
        help_text=f"{formats_in_words()} files; several at once. Every file is stored before it is read.",
    )
    label = forms.CharField(
        required=False,
        max_length=500,
        help_text="Optional: where these files come from. Without one, the batch is labelled by its size and time.",
    )


@admin.register(ImportBatch)
class ImportBatchAdmin(admin.ModelAdmin):
    list_display = ["id", "label", "origin", "created_by", "created_at", "progress", "finished"]
    list_display_links = ["id", "label"]
    list_filter = ["origin"]
    list_select_related = ["created_by"]
    search_fields = ["label"]
    fields = [
        "batch_progress",
        ("origin", "created_by"),
        "label",
        ("total_files", "duplicates"),
        ("created_at", "finished"),
        "files_link",
        "failed_files",
        "warned_files",
    ]
    readonly_fields = [
        "batch_progress",
        "origin",
        "created_by",
        "label",
        "total_files",
        "duplicates",
        "created_at",
        "finished",
        "files_link",
        "failed_files",
        "warned_files",
    ]
    WARNED_FILES_SHOWN = 20
    # The failed files the page lists and its progress JSON carries (the count says how many there are in all).
    FAILED_FILES_SHOWN = 100
    change_list_template = "admin/ingestion/importbatch/change_list.html"
    change_form_template = "admin/ingestion/importbatch/change_form.html"

    def get_queryset(self, request):
        # The counts ``import_batch_progress`` reads, as ``import_batches_for`` names them; here one subquery per
        # status and row of the page instead of its join of every file of every batch.
        return (
            super()
            .get_queryset(request)
            .annotate(**{f"n_{status}": Coalesce(_StatusCount(status), 0) for status in SourceFile.Status.values})
        )

    @admin.display(description="progress")
    def progress(self, batch: ImportBatch) -> SafeString:
        """A row of the list: from the counts ``get_queryset`` annotated."""
        return progress_bar(batch, import_batch_progress(batch))

    @admin.display(description="progress")
    def batch_progress(self, batch: ImportBatch) -> SafeString:
        """The batch's page: from the read its failed files come from too (``_files_state``)."""
        return progress_bar(batch, self._files_state(batch).progress)

    def _files_state(self, batch: ImportBatch) -> BatchFilesState:
        """The page's one read of its files' states, kept on the batch for the fields that show it: the figures and
        the failed files read at two moments of a running batch could disagree."""
        if not hasattr(batch, "files_state"):
            batch.files_state = batch_files_state(batch=batch, failed_limit=self.FAILED_FILES_SHOWN)
        return batch.files_state

    @admin.display(description="files")
    def files_link(self, batch: ImportBatch) -> str:
        url = reverse("admin:ingestion_sourcefile_changelist") + f"?batch__id__exact={batch.pk}"
        return format_html("<a href='{}'>All files of this batch</a>", url)

    # The finish time and the failed files are marked for progress_script.html, which updates them with the bar from
    # the progress JSON (progress_view), in the same words.

    @admin.display(description="finished at", ordering="finished_at")
    def finished(self, batch: ImportBatch) -> str:
        return format_html('<span class="batch-finished-at">{}</span>', self._finished_at_text(batch))

    def _finished_at_text(self, batch: ImportBatch) -> str:
        field = ImportBatch._meta.get_field("finished_at")
        return str(display_for_field(batch.finished_at, field, self.get_empty_value_display()))

    @admin.display(description="failed files")
    def failed_files(self, batch: ImportBatch) -> str:
        state = self._files_state(batch)
        rows = [(f["url"], f["name"], f["error"]) for f in self._failed_file_rows(batch, state)]
        count = state.progress["failed"]
        if not rows:
            return format_html('<div class="batch-failed-files">{}</div>', "None.")
        return format_html(
            '<div class="batch-failed-files">{}<ul>{}</ul></div>',
            self._failed_files_heading(count, len(rows)),
            format_html_join("", "<li><a href='{}'>{}</a>: {}</li>", rows),
        )

    def _failed_file_rows(self, batch: ImportBatch, state: BatchFilesState) -> list[dict]:
        """The batch's failed files (those of ``state``), then the files it received whose bytes were stored before and
        had failed: each is that stored copy (in a batch the uploader may view), with its name and error as an erasure
        left them."""
        rows = list(
            SourceFile.objects.filter(pk__in=state.failed_ids)
            .only("id", "batch_id", "original_name", "error")
            .order_by("id")
        )
        rows += batch_failed_duplicates(batch=batch, limit=self.FAILED_FILES_SHOWN - len(rows))
        return [
            {
                "name": f.original_name,
                "url": reverse("admin:ingestion_sourcefile_change", args=[f.pk]),
                "error": f.error,
            }
            for f in rows
        ]

    @staticmethod
    def _failed_files_heading(count: int, shown: int) -> str:
        """Said only when the list is cut short; progress_script.html words it the same way."""
        return f"{count:,} files failed (the first {shown} below):" if count > shown else ""

    @admin.display(description="files with warnings")
    def warned_files(self, batch: ImportBatch) -> str:
        count, files = batch_files_with_warnings(batch=batch, limit=self.WARNED_FILES_SHOWN)
        if not count:
            return "None."
        items = format_html_join(
            "",
            "<li><a href='{}'>{}</a> ({}): <ul>{}</ul></li>",
            (
                (
                    reverse("admin:ingestion_sourcefile_change", args=[f.pk]),
                    f.original_name,
                    f.get_status_display(),
                    format_html_join("", "<li>{}</li>", ((str(w),) for w in f.warnings)),
                )
                for f in files
            ),
        )
        listing = reverse("admin:ingestion_sourcefile_changelist") + f"?batch__id__exact={batch.pk}&warnings=yes"
        return format_html(
            "{}{}: <ul>{}</ul><a href='{}'>All of them</a>",
            "1 file imported with warnings" if count == 1 else f"{count:,} files imported with warnings",
            f" (the first {len(files)} below)" if count > len(files) else "",
            items,
            listing,
        )

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # a batch is a record of what arrived; nothing to edit

    def has_delete_permission(self, request, obj=None) -> bool:
        # Nor to delete, by anyone: its files would lose the batch that tells who brought them and when, and an
        # erasure or the retention rules remove what must go (privacy.services).
        return False

    # --- Upload and progress ----------------------------------------------------------------------------------------

    def get_urls(self):
        return [
            path(
                "<int:pk>/progress.json",
                self.admin_site.admin_view(self.progress_view),
                name="ingestion_importbatch_progress",
            ),
            *super().get_urls(),
        ]

    def progress_view(self, request, pk: int) -> JsonResponse:
        batch = get_object_or_404(ImportBatch, pk=pk)
        if not self.has_view_permission(request, batch):
            raise PermissionDenied
        state = batch_files_state(batch=batch, failed_limit=self.FAILED_FILES_SHOWN)
        return JsonResponse(
            {
                **state.progress,
                "finished_at": self._finished_at_text(batch),
                "failed_files": self._failed_file_rows(batch, state),
            }
        )

    def add_view(self, request, form_url="", extra_context=None):
        """The upload form: several files become one batch (origin admin), stored, then queued for the workers."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = UploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            files = form.cleaned_data["files"]
            label = form.cleaned_data["label"]  # none typed: the batch's default, which names no file
            batch = services.batch_create(origin=ImportBatch.Origin.ADMIN, label=label, user=request.user)
            batch = services.batch_receive(batch=batch, files=(services.IncomingFile(f.name, f.read()) for f in files))
            self.message_user(
                request,
                f"Received {batch.total_files} file(s) ({batch.duplicates} already stored); importing now.",
                messages.SUCCESS,
            )
            return HttpResponseRedirect(reverse("admin:ingestion_importbatch_change", args=[batch.pk]))
        return TemplateResponse(
            request,
            "admin/ingestion/importbatch/upload.html",
            {
                **self.admin_site.each_context(request),
                "title": "Upload profile files",
                "opts": self.model._meta,
                "form": form,
                "adminform": helpers.AdminForm(form, [(None, {"fields": ["files", "label"]})], {}),
                "max_files": settings.INGEST_MAX_FILES_PER_UPLOAD,
                "max_size": human_size(settings.INGEST_MAX_FILE_BYTES),
            },
        )


class WarningsFilter(admin.SimpleListFilter):
    title = "warnings"
    parameter_name = "warnings"

    def lookups(self, request, model_admin):
        return [("yes", "With warnings"), ("no", "Without warnings")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(warnings=[])
        if self.value() == "no":
            return queryset.filter(warnings=[])
        return queryset


@admin.register(SourceFile)
class SourceFileAdmin(admin.ModelAdmin):
    # Narrow enough for a 1366 px window beside the navigation and the filters: long names are cut (whole in their
    # title), the outcome sits under the status, the batch is its number, sizes read in KiB/MiB, the time goes under
    # the date; the format is a filter and, with the id, on the file's page (change_list.html has the CSS).
    list_display = ["file_name", "status_and_outcome", "candidate_name", "batch_link", "file_size", "created"]
    list_display_links = ["file_name"]
    list_filter = ["status", "format", "outcome", WarningsFilter]
    list_select_related = ["candidate", "batch"]
    search_fields = ["original_name", "=sha256"]
    show_full_result_count = False
    actions = ["reparse_failed", "reimport"]
    fieldsets = [
        (None, {"fields": [("original_name", "status", "outcome"), "problem", "warning_list"]}),
        ("Result", {"fields": [("candidate", "batch"), ("format", "size"), "sha256"]}),
        ("Processing", {"fields": [("created_at", "queued_at"), ("claimed_at", "processed_at"), "attempts"]}),
        ("Text", {"fields": ["text_preview"]}),
    ]
    readonly_fields = [
        "original_name",
        "status",
        "outcome",
        "problem",
        "warning_list",
        "candidate",
        "batch",
        "format",
        "size",
        "sha256",
        "created_at",
        "queued_at",
        "claimed_at",
        "processed_at",
        "attempts",
        "text_preview",
    ]
    PREVIEW_CHARS = 20_000
    change_list_template = "admin/ingestion/sourcefile/change_list.html"

    def get_queryset(self, request):
        # The stored bytes are only read by the page of one file.
        return super().get_queryset(request).defer("content")

    def has_add_permission(self, request) -> bool:
        return False  # files arrive through uploads, the inbox, the API or the command line

    @admin.display(description="original name", ordering="original_name")
    def file_name(self, source: SourceFile) -> str:
        return format_html('<span class="cut" title="{}">{}</span>', source.original_name, source.original_name)

    @admin.display(description="status", ordering="status")
    def status_and_outcome(self, source: SourceFile) -> str:
        if not source.outcome:
            return source.get_status_display()
        return format_html(
            '{}<br><span class="quiet">{}</span>', source.get_status_display(), source.get_outcome_display()
        )

    @admin.display(description="candidate", ordering="candidate__name")
    def candidate_name(self, source: SourceFile) -> str:
        if source.candidate is None:
            return self.get_empty_value_display()
        return format_html('<span class="cut" title="{}">{}</span>', source.candidate.name, source.candidate.name)

    @admin.display(description="batch", ordering="batch_id")
    def batch_link(self, source: SourceFile) -> str:
        if source.batch is None:
            return self.get_empty_value_display()
        return format_html(
            '<a href="{}" title="{}">Batch {}</a>',
            reverse("admin:ingestion_importbatch_change", args=[source.batch_id]),
            source.batch.label or str(source.batch),
            source.batch_id,
        )

    @admin.display(description="size", ordering="size")
    def file_size(self, source: SourceFile) -> str:
        return human_size(source.size)

    @admin.display(description="created", ordering="created_at")
    def created(self, source: SourceFile) -> str:
        at = timezone.localtime(source.created_at)
        return format_html("{}<br>{}", formats.date_format(at, "DATE_FORMAT"), formats.time_format(at, "TIME_FORMAT"))

    @admin.display(description="error")
    def problem(self, source: SourceFile) -> str:
        return source.error or "—"

    @admin.display(description="warnings")
    def warning_list(self, source: SourceFile) -> str:
        if not source.warnings:
            return "—"
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>", ((str(w),) for w in source.warnings)))

    def get_object(self, request, object_id, from_field=None):
        source = super().get_object(request, object_id, from_field)
        if source is not None:
            # The text's contact details depend on who reads it; a display method is given only the row.
            source.text_reader = request.user
        return source

    @admin.display(description="text")
    def text_preview(self, source: SourceFile) -> str:
        text = source_file_text(source=source, user=getattr(source, "text_reader", None))
        more = len(text) > self.PREVIEW_CHARS
        return format_html(
            "<pre style='white-space: pre-wrap; max-height: 30em; overflow: auto'>{}</pre><a href='{}'>{}</a>",
            text[: self.PREVIEW_CHARS] + ("\n…" if more else ""),
            reverse("admin:ingestion_sourcefile_text", args=[source.pk]),
            "The whole text" if more else "Open the text on its own page",
        )

    def get_urls(self):
        return [
            path("<int:pk>/text/", self.admin_site.admin_view(self.text_view), name="ingestion_sourcefile_text"),
            *super().get_urls(),
        ]

    def text_view(self, request, pk: int):
        """The stored file as text, escaped in a page of the admin (never served raw: it is untrusted input)."""
        source = get_object_or_404(SourceFile, pk=pk)
        if not self.has_view_permission(request, source):
            raise PermissionDenied
        return TemplateResponse(
            request,
            "admin/ingestion/sourcefile/text.html",
            {
                **self.admin_site.each_context(request),
                "title": source.original_name,
                "opts": self.model._meta,
                "source": source,
                "size": human_size(source.size),
                "text": source_file_text(source=source, user=request.user),
            },
        )

    @admin.action(description="Re-parse the selected failed files", permissions=["change"])
    def reparse_failed(self, request, queryset):
        ids = list(queryset.filter(status=SourceFile.Status.FAILED).values_list("pk", flat=True))
        queued = services.source_files_requeue(file_ids=ids) if ids else 0
        self.message_user(request, f"Queued {queued} failed file(s) for parsing again.", messages.SUCCESS)

    @admin.action(description="Re-import the selected files", permissions=["change"])
    def reimport(self, request, queryset):
        ids = list(queryset.exclude(status=SourceFile.Status.PROCESSING).values_list("pk", flat=True))
        queued = services.source_files_requeue(file_ids=ids) if ids else 0
        skipped = queryset.count() - len(ids)
        note = f"; {skipped} being processed right now were left alone" if skipped else ""
        self.message_user(request, f"Queued {queued} file(s) to be imported again{note}.", messages.SUCCESS)
