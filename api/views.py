"""Thin views: parse the request, call a selector or a service, serialize.

Every endpoint needs a login (DEFAULT_PERMISSION_CLASSES is IsAuthenticated; views only add to it). Consumers read:
the candidate, skill and repository views implement GET only, so any other method is a 405.
"""

from __future__ import annotations

from django.core.exceptions import TooManyFilesSent
from django.http import Http404, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.reverse import reverse

from api import exports
from api.export_serializers import ExportCreateSerializer, ExportSerializer
from api.filters import SelectorFilterBackend
from api.import_serializers import ImportBatchDetailSerializer, ImportBatchSerializer, ImportUploadSerializer
from api.pagination import KeysetPagination
from api.permissions import IMPORT_PERMISSIONS
from api.serializers import CandidateDetailSerializer, CandidateListSerializer, RepositorySerializer, SkillSerializer
from exports.downloads import ExportFileUnavailable, export_file_response
from exports.models import Export
from exports.selectors import export_detail, exports_for
from exports.services import export_create, export_stream_start
from ingestion.models import ImportBatch
from ingestion.selectors import candidate_sources_prefetch, import_batch_detail, import_batches_for
from ingestion.services import IncomingFile, batch_create, batch_receive
from profiles.contacts import identifiers_prefetch, may_see_contact_details
from profiles.models import Candidate, Repository, Skill
from profiles.search.filtersets import CandidateFilterSet, RepositoryFilterSet, SkillFilterSet
from profiles.search.skills import MATCH_FORMULA
from profiles.selectors import (
    candidate_detail,
    candidate_search,
    candidates_attach_skills,
    candidates_for_listing,
    candidates_for_profiles,
    repository_search,
    skill_search,
)

_MATCH_PARAMETERS = [
    OpenApiParameter(
        "skill",
        OpenApiTypes.STR,
        many=True,
        description="Repeatable `slug` or `slug:min_score`: skills to compute `match` for (not a filter here).",
    ),
    OpenApiParameter("any_skill", OpenApiTypes.STR, description="Comma-separated skills, counted in `match` too."),
]


class CandidateSearchMixin:
    """Candidates through ``profiles.selectors.candidate_search``: the filters of the admin and the exports."""

    filter_backends = [SelectorFilterBackend]
    filterset_class = CandidateFilterSet
    search = staticmethod(candidate_search)

    def get_queryset(self):
        return candidates_for_listing()


@extend_schema_view(
    get=extend_schema(
        summary="Filtered, ranked candidates",
        description=(
            "All filters combine with AND; unknown parameters and bad values are a 400. "
            f"With skill filters each result has `match`: {MATCH_FORMULA} Default ordering: `-match` with skill "
            "filters, `-rank` with `q`, else `-updated_at`. Cursor-paginated: follow `next`."
        ),
    )
)
class CandidateListView(CandidateSearchMixin, generics.ListAPIView):
    serializer_class = CandidateListSerializer
    pagination_class = KeysetPagination

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        candidates_attach_skills(page)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


@extend_schema_view(
    get=extend_schema(
        summary="One candidate's profile",
        description=(
            "The profile with its sources; for users with the contact details permission (the Recruiter group), "
            "`email`, `phone` and `links` (the public pages: accounts, profile URLs, the site) too. With `skill` / "
            f"`any_skill`, `match` too: {MATCH_FORMULA}"
        ),
        parameters=_MATCH_PARAMETERS,
    )
)
class CandidateDetailView(generics.RetrieveAPIView):
    serializer_class = CandidateDetailSerializer
    queryset = Candidate.objects.none()  # for the schema; rows come from the selector

    def get_object(self) -> Candidate:
        try:
            return candidate_detail(
                candidate_id=self.kwargs["pk"],
                params=self.request.query_params,
                prefetch=[
                    candidate_sources_prefetch(user=self.request.user),
                    *([identifiers_prefetch()] if may_see_contact_details(self.request.user) else []),
                ],
            )
        except Candidate.DoesNotExist as exc:
            raise Http404("No candidate with this id.") from exc


class _CandidateExportView(CandidateSearchMixin, generics.GenericAPIView):
    """Every candidate the filters select, streamed row by row (no pagination), up to EXPORT_STREAM_MAX_ROWS: a
    stream must end inside the web server's request timeout, so a larger search is a 400 that points to an export
    job. Each stream holds one of the user's EXPORT_MAX_CONCURRENT export slots until its response is closed."""

    pagination_class = None
    exporter = None

    def get(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        slot = exports.limited(export_stream_start, user=request.user, queryset=queryset)
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
    exporter = staticmethod(exports.csv_rows)
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
    exporter = staticmethod(exports.jsonl_lines)
    content_type = "application/jsonl; charset=utf-8"
    filename = "candidates.jsonl"

    def get_queryset(self):
        return candidates_for_profiles()


@extend_schema_view(get=extend_schema(summary="Canonical skills with their aliases and candidate counts"))
class SkillListView(generics.ListAPIView):
    serializer_class = SkillSerializer
    pagination_class = KeysetPagination
    filter_backends = [SelectorFilterBackend]
    filterset_class = SkillFilterSet
    search = staticmethod(skill_search)

    def get_queryset(self):
        return Skill.objects.all()


@extend_schema_view(get=extend_schema(summary="Repositories with their contributor counts"))
class RepositoryListView(generics.ListAPIView):
    serializer_class = RepositorySerializer
    pagination_class = KeysetPagination
    filter_backends = [SelectorFilterBackend]
    filterset_class = RepositoryFilterSet
    search = staticmethod(repository_search)

    def get_queryset(self):
        return Repository.objects.all()


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
    permission_classes = exports.EXPORT_PERMISSIONS
    serializer_class = ExportSerializer
    pagination_class = KeysetPagination

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Export.objects.none()
        return exports_for(user=self.request.user)

    def post(self, request, *args, **kwargs):
        form = ExportCreateSerializer(data=request.data, context=self.get_serializer_context())
        form.is_valid(raise_exception=True)
        export = exports.limited(
            export_create,
            owner=request.user,
            format=form.validated_data["format"],
            query=form.validated_data["query"],
            row_url=exports.api_row_url_template(request),
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
            raise (exports.ExportGone if exc.code == "expired" else exports.ExportNotReady)(exc.message) from exc
