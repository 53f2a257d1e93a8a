"""Exports in the API: a candidate search streamed (``GET /candidates/export.csv`` and ``export.jsonl``) and export
jobs (``GET|POST /exports/``, ``GET /exports/{id}/``, ``GET /exports/{id}/download``), with their shapes, the
permission to start a job, and the 429 of the per-user limit.

Rows are written by ``exports.formats`` (CSV from ``profiles.exports``, shared with the admin, and JSON Lines), the
same functions an export job writes its file with, through one server-side cursor: memory stays flat however many
candidates match, and each chunk's skills (and, for JSON Lines, education and contributions) take one query per chunk.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import Http404, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.exceptions import APIException
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.reverse import reverse

from api.candidates.views import CandidateSearchMixin
from api.pagination import KeysetPagination
from exports.downloads import ExportFileUnavailable, export_file_response
from exports.formats import candidate_jsonl_lines, row_url, row_url_template
from exports.models import Export
from exports.selectors import export_candidates, export_detail, exports_for
from exports.services import EXPORT_PERMISSION, ExportLimitReached, export_create, export_stream_start
from profiles.contacts import may_see_contact_details
from profiles.exports import candidate_csv_lines
from profiles.models import Candidate
from profiles.selectors import candidates_for_profiles

# --- What the endpoints share: rows linked to the API, the limit, the permission --------------------------------------


def api_row_url_template(request) -> str:
    """The absolute URL of a candidate's detail, with ``{pk}`` for its id: what an export job links each row to."""
    return row_url_template(lambda pk: reverse("api:candidate-detail", kwargs={"pk": pk}, request=request))


def csv_rows(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    """The candidates' CSV lines (the same columns and neutralising as the admin's export), linked to the API; the
    contact details only for who may see them."""
    contacts = may_see_contact_details(request.user)
    return candidate_csv_lines(queryset, url=row_url(api_row_url_template(request)), contacts=contacts)


def jsonl_lines(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    contacts = may_see_contact_details(request.user)
    return candidate_jsonl_lines(queryset, url=row_url(api_row_url_template(request)), contacts=contacts)


class TooManyExports(APIException):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "too_many_exports"
    default_detail = "Too many exports running."


class ExportNotReady(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "not_ready"
    default_detail = "The export's file is not written yet."


class ExportGone(APIException):
    status_code = status.HTTP_410_GONE
    default_code = "expired"
    default_detail = "The export's file was deleted."


def limited(start, **kwargs):
    """Call an exports service that counts against the user's limit; over it, the API's 429."""
    try:
        return start(**kwargs)
    except ExportLimitReached as exc:
        raise TooManyExports(exc.message) from exc


class CanExport(BasePermission):
    """Starting an export job needs the export permission; reading one's own jobs needs a login."""

    message = f"Starting an export job needs the export permission ({EXPORT_PERMISSION})."

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or request.user.has_perm(EXPORT_PERMISSION)


EXPORT_PERMISSIONS = [IsAuthenticated, CanExport]


# --- Shapes of an export job ------------------------------------------------------------------------------------------


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


# --- A candidate search, streamed -------------------------------------------------------------------------------------


class _CandidateExportView(CandidateSearchMixin, generics.GenericAPIView):
    """Every candidate the filters select, streamed row by row (no pagination), up to EXPORT_STREAM_MAX_ROWS: a
    stream must end inside the web server's request timeout, so a larger search is a 400 that points to an export
    job. Each stream holds one of the user's EXPORT_MAX_CONCURRENT export slots until its response is closed."""

    pagination_class = None
    exporter = None

    def get(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        slot = limited(export_stream_start, user=request.user, queryset=queryset)
        lines = slot.releasing(self.exporter(queryset, request=request))
        response = StreamingHttpResponse(lines, content_type=self.content_type)
        response["Content-Disposition"] = f'attachment; filename="{self.filename}"'
        return response


_STREAM_LIMITS = (
    " At most `EXPORT_STREAM_MAX_ROWS` (10,000) candidates: a larger search is a 400 (`too_many_rows`); export it "
    "with `POST /api/v1/exports/` (with the export permission; without it, narrow the search). The stream has no "
    "length and no end marker: only an export job's download proves the file whole. A user runs at most "
    "`EXPORT_MAX_CONCURRENT` (2) exports at once, streams and jobs "
    "together; one more is a 429 (`too_many_exports`)."
)


@extend_schema_view(
    get=extend_schema(
        summary="Export candidates as CSV",
        description="The list's filters; every matching candidate, streamed. Cells that start with `=`, `+`, `-`, "
        "`@`, tab or carriage return are prefixed with `'` so spreadsheets do not run them as formulas."
        + _STREAM_LIMITS,
        responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR)},
        filters=True,
    )
)
class CandidateExportCSVView(_CandidateExportView):
    exporter = staticmethod(csv_rows)
    content_type = "text/csv; charset=utf-8"
    filename = "candidates.csv"


@extend_schema_view(
    get=extend_schema(
        summary="Export candidates as JSON Lines",
        description="The list's filters; one candidate per line in the detail's shape (without `sources`), streamed."
        + _STREAM_LIMITS,
        responses={(200, "application/jsonl"): OpenApiResponse(OpenApiTypes.STR)},
        filters=True,
    )
)
class CandidateExportJSONLView(_CandidateExportView):
    exporter = staticmethod(jsonl_lines)
    content_type = "application/jsonl; charset=utf-8"
    filename = "candidates.jsonl"

    def get_queryset(self):
        return candidates_for_profiles()


# --- Export jobs ------------------------------------------------------------------------------------------------------


@extend_schema_view(
    get=extend_schema(summary="Your export jobs, newest first"),
    post=extend_schema(
        summary="Start an export job",
        description="Writes every candidate that `query` (the list's filters as a query string) selects to a file, "
        "in a worker: for searches larger than the streamed exports take. 202 with the job to poll; once `done`, "
        "`download_url` gives the file. Needs the export permission (exports.add_export). A user runs at most "
        "`EXPORT_MAX_CONCURRENT` exports at once, jobs and streams together; one more is a 429 (`too_many_exports`).",
        request=ExportCreateSerializer,
        responses={202: ExportSerializer},
    ),
)
class ExportListView(generics.ListAPIView):
    permission_classes = EXPORT_PERMISSIONS
    serializer_class = ExportSerializer
    pagination_class = KeysetPagination

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Export.objects.none()
        return exports_for(user=self.request.user)

    def post(self, request, *args, **kwargs):
        form = ExportCreateSerializer(data=request.data, context=self.get_serializer_context())
        form.is_valid(raise_exception=True)
        export = limited(
            export_create,
            owner=request.user,
            format=form.validated_data["format"],
            query=form.validated_data["query"],
            row_url=api_row_url_template(request),
        )
        url = reverse("api:export-detail", kwargs={"pk": export.pk}, request=request)
        return Response(
            ExportSerializer(export, context=self.get_serializer_context()).data,
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": url},
        )


class _OwnExportMixin:
    queryset = Export.objects.none()  # for the schema; rows come from the selector

    def get_object(self) -> Export:
        try:
            return export_detail(export_id=self.kwargs["pk"], user=self.request.user)
        except Export.DoesNotExist as exc:
            raise Http404("No export job of yours with this id.") from exc


@extend_schema_view(get=extend_schema(summary="One of your export jobs: status, progress, and the file once done"))
class ExportDetailView(_OwnExportMixin, generics.RetrieveAPIView):
    serializer_class = ExportSerializer


@extend_schema_view(
    get=extend_schema(
        summary="Download an export job's file",
        description="The whole file, with `Content-Length` and its sha256 in `Repr-Digest` (RFC 9530): a body that "
        "ends short or hashes otherwise was cut off. 409 until the job is done, 410 once the file has expired.",
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY),
            (200, "application/jsonl"): OpenApiResponse(OpenApiTypes.BINARY),
        },
    )
)
class ExportDownloadView(_OwnExportMixin, generics.GenericAPIView):
    serializer_class = ExportSerializer  # for the schema's error responses; the body is the file

    def get(self, request, *args, **kwargs):
        try:
            return export_file_response(export=self.get_object())
        except ExportFileUnavailable as exc:
            raise (ExportGone if exc.code == "expired" else ExportNotReady)(exc.message) from exc
