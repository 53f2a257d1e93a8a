from django.contrib import admin

from ingestion.models import ImportBatch, SourceFile


@admin.register(ImportBatch)
class ImportBatchAdmin(admin.ModelAdmin):
    list_display = ["id", "origin", "label", "created_by", "total_files", "duplicates", "created_at", "finished_at"]
    list_filter = ["origin"]
    list_select_related = ["created_by"]
    search_fields = ["label"]
    readonly_fields = ["origin", "label", "created_by", "total_files", "duplicates", "created_at", "finished_at"]


@admin.register(SourceFile)
class SourceFileAdmin(admin.ModelAdmin):
    list_display = ["id", "original_name", "format", "status", "outcome", "size", "candidate", "created_at"]
    list_filter = ["status", "format", "outcome"]
    list_select_related = ["candidate"]
    search_fields = ["original_name", "sha256"]
    raw_id_fields = ["candidate", "batch"]
    readonly_fields = [
        "original_name",
        "sha256",
        "size",
        "format",
        "status",
        "outcome",
        "error",
        "warnings",
        "attempts",
        "queued_at",
        "claimed_at",
        "claimed_by",
        "created_at",
        "processed_at",
    ]
