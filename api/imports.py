"""Imports in the API: ``GET|POST /imports/`` (upload profile files; the batches you may see) and
``GET /imports/{id}/`` (a batch with its progress, its failed files and the files read with warnings), with their
shapes; an upload is checked against the ingestion limits."""

from __future__ import annotations

from django.core.exceptions import TooManyFilesSent
from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.reverse import reverse

from api.pagination import KeysetPagination
from api.permissions import IMPORT_PERMISSIONS
from ingestion.models import ImportBatch, SourceFile
from ingestion.selectors import import_batch_detail, import_batch_progress, import_batches_for
from ingestion.services import IncomingFile, batch_create, batch_receive, upload_refusals


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


@extend_schema_view(
    get=extend_schema(summary="Import batches: yours, or all with the view permission"),
    post=extend_schema(
        summary="Upload profile files",
        description="Multipart, one or more `files` parts. Every file is stored (bytes and sha256) and queued; the "
        "answer is 202 with the batch to poll. A file counts as a duplicate only when its identical bytes are in a "
        "batch you may view (your own, or any with the view permission). Needs the import permission "
        "(ingestion.add_importbatch).",
        request={"multipart/form-data": ImportUploadSerializer},
        responses={202: ImportBatchSerializer},
    ),
)
class ImportListView(generics.ListAPIView):
    permission_classes = IMPORT_PERMISSIONS
    serializer_class = ImportBatchSerializer
    pagination_class = KeysetPagination
    parser_classes = [MultiPartParser]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return ImportBatch.objects.none()
        return import_batches_for(user=self.request.user)

    def post(self, request, *args, **kwargs):
        try:
            files = request.FILES.getlist("files")
        except TooManyFilesSent as exc:
            raise ValidationError({"files": ["too many files in one upload"]}) from exc
        upload = ImportUploadSerializer(data={"files": files})
        upload.is_valid(raise_exception=True)
        files = upload.validated_data["files"]
        batch = batch_create(
            origin=ImportBatch.Origin.API, label=f"API upload by {request.user} ({len(files)} files)", user=request.user
        )
        batch_receive(batch=batch, files=(IncomingFile(name=f.name, data=f.read()) for f in files))
        batch = import_batch_detail(batch_id=batch.pk, user=request.user)
        url = reverse("api:import-detail", kwargs={"pk": batch.pk}, request=request)
        return Response(
            ImportBatchSerializer(batch, context=self.get_serializer_context()).data,
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": url},
        )


@extend_schema_view(get=extend_schema(summary="One import batch: progress and failed files with their errors"))
class ImportDetailView(generics.RetrieveAPIView):
    serializer_class = ImportBatchDetailSerializer
    queryset = ImportBatch.objects.none()  # for the schema; rows come from the selector

    def get_object(self) -> ImportBatch:
        try:
            return import_batch_detail(batch_id=self.kwargs["pk"], user=self.request.user)
        except ImportBatch.DoesNotExist as exc:
            raise Http404("No import batch with this id that you may see.") from exc
