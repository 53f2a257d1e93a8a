"""Read and write shapes of the API's export jobs: a job with its progress and download link, and what to export."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from exports.models import Export
from exports.selectors import export_candidates


class ExportSerializer(serializers.ModelSerializer):
    """An export job: its search, where it stands, and once done the file's size, sha256 and download link."""

    url = serializers.HyperlinkedIdentityField(view_name="api:export-detail")
    progress = serializers.IntegerField(
        read_only=True, min_value=0, max_value=100, help_text="Percent of rows written."
    )
    download_url = serializers.SerializerMethodField(help_text="The file, once the job is done; else null.")

    class Meta:
        model = Export
        fields = ["id", "url", *Export.OWNER_FIELDS, "progress", "download_url"]

    @extend_schema_field({"type": "string", "format": "uri", "nullable": True})
    def get_download_url(self, export: Export) -> str | None:
        if export.status != Export.Status.DONE:
            return None
        return reverse("api:export-download", kwargs={"pk": export.pk}, request=self.context.get("request"))


class ExportCreateSerializer(serializers.Serializer):
    """What to export: the format, and the candidate filters as the list's query string."""

    format = serializers.ChoiceField(choices=Export.Format.choices)
    query = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=10_000,
        trim_whitespace=True,
        help_text="The list's filters as a query string, e.g. `skill=python:8&country=DE`; empty exports everyone.",
    )

    def validate_query(self, query: str) -> str:
        query = query.removeprefix("?")
        try:
            export_candidates(format=Export.Format.CSV, query=query, user=self.context["request"].user)
        except DjangoValidationError as exc:  # the list's own messages, each naming its parameter
            raise serializers.ValidationError(
                [
                    text if name == NON_FIELD_ERRORS else f"{name}: {text}"
                    for name, texts in exc.message_dict.items()
                    for text in texts
                ]
            ) from exc
        return query
