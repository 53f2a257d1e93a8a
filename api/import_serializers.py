"""Read and write shapes of the API's imports: a batch with its progress, its failed files and files read with
warnings, and an upload checked against the ingestion limits."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ingestion.models import ImportBatch, SourceFile
from ingestion.selectors import import_batch_progress
from ingestion.services import upload_refusals


class ImportProgressSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="Files received, duplicates included.")
    processed = serializers.IntegerField()
    pending = serializers.IntegerField()
    processing = serializers.IntegerField()
    imported = serializers.IntegerField()
    unchanged = serializers.IntegerField(help_text="Already up to date, identical bytes included.")
    failed = serializers.IntegerField()
    duplicates = serializers.IntegerField()
    percent = serializers.IntegerField(min_value=0, max_value=100)
    finished = serializers.BooleanField()


class FailedFileSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="original_name")

    class Meta:
        model = SourceFile
        fields = ["id", "name", "format", "error"]


class WarnedFileSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="original_name")

    class Meta:
        model = SourceFile
        fields = ["id", "name", "format", "status", "warnings"]


class ImportBatchSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:import-detail")
    created_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    progress = serializers.SerializerMethodField(help_text="The figures of ingestion.services.batch_progress.")

    class Meta:
        model = ImportBatch
        fields = ["id", "url", "origin", "label", "created_by", "created_at", "finished_at", "progress"]

    @extend_schema_field(ImportProgressSerializer)
    def get_progress(self, batch: ImportBatch) -> dict:
        return import_batch_progress(batch)  # from the counts ingestion.selectors annotated: no query


class ImportBatchDetailSerializer(ImportBatchSerializer):
    failed_files = FailedFileSerializer(source="failed_rows", many=True, help_text="Files that failed, with why.")
    warned_count = serializers.IntegerField(read_only=True, help_text="How many files were read with warnings.")
    warned_files = WarnedFileSerializer(
        source="warned_rows",
        many=True,
        help_text="The first 100 files read with warnings (repairs made, dates kept as written), with the warnings.",
    )

    class Meta(ImportBatchSerializer.Meta):
        fields = [*ImportBatchSerializer.Meta.fields, "failed_files", "warned_count", "warned_files"]


class ImportUploadSerializer(serializers.Serializer):
    """Validates an upload against the ingestion limits before anything is stored."""

    files = serializers.ListField(
        child=serializers.FileField(allow_empty_file=True, use_url=False),
        allow_empty=False,
        error_messages={"empty": "attach one or more files as `files` parts"},
        help_text="One or more profile files (Prog.AI text exports or JSON Resume), as repeated `files` parts.",
    )

    def validate_files(self, files: list) -> list:
        refusals = upload_refusals(files=files)  # the admin's upload form applies the same limits
        if refusals:
            raise serializers.ValidationError(refusals)
        return files
