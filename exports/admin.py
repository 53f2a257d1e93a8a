"""Export jobs in the admin: your own, with their progress and a download link, and the page that starts one; and the
admin's streamed CSV exports held to the per-user limit.

Nobody adds or edits a job's internals here: jobs are started through ``exports.services.export_create`` and written
by a worker. A done job's file downloads from this admin (``download_view``), with the API's checks and headers
(``exports.downloads``).

The candidate and shortlist admins belong to the domain (``profiles``), which knows nothing of this app above it.
This module gives them its share as mixins, which the site composes with them where it registers them
(``talentdb.admin``): each CSV stream they send out (``csv_stream``) takes one of the user's EXPORT_MAX_CONCURRENT
export slots and gives it back when the response is closed, and a candidate selection too large to stream
(``export_too_large``) is offered to an export job.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseRedirect, QueryDict
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from core.errors import ApplicationError
from core.text import human_size
from exports import services
from exports.downloads import ExportFileUnavailable, export_file_response
from exports.formats import row_url_template
from exports.models import Export
from exports.selectors import export_detail, exports_for


class StartExportForm(forms.Form):
    format = forms.ChoiceField(choices=Export.Format.choices)
    query = forms.CharField(required=False, max_length=10_000, widget=forms.HiddenInput)


@admin.register(Export)
class ExportAdmin(admin.ModelAdmin):
    list_display = ["__str__", "search", "status", "progress_bar", "rows_written", "size", "created_at", "download"]
    list_filter = ["status", "format"]
    list_per_page = 50
    fields = [*Export.OWNER_FIELDS, "progress_bar", "download"]
    readonly_fields = fields

    def get_queryset(self, request):
        return exports_for(user=request.user)

    def has_add_permission(self, request) -> bool:
        return False  # started from the candidate changelist (start_view), written by a worker

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def history_view(self, request, object_id, extra_context=None):
        # Django looks the job up first and redirects when it finds none (another user's): refuse those without the
        # permission before that, as the change and delete pages do.
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        return super().history_view(request, object_id, extra_context)

    def delete_model(self, request, obj):
        services.export_delete(export=obj)

    def delete_queryset(self, request, queryset):
        for export in queryset:
            services.export_delete(export=export)

    # --- Columns ------------------------------------------------------------------------------------------------

    @admin.display(description="search")
    def search(self, export: Export) -> str:
        return export.query or "every candidate"

    @admin.display(description="progress")
    def progress_bar(self, export: Export) -> str:
        return format_html("<progress max='100' value='{}'></progress> {} %", export.progress, export.progress)

    @admin.display(description="size", ordering="file_size")
    def size(self, export: Export) -> str:
        return human_size(export.file_size) if export.file_size is not None else "—"

    @admin.display(description="file")
    def download(self, export: Export) -> str:
        if export.status != Export.Status.DONE:
            return export.error or "—"
        return format_html(
            "<a href='{}' download>{}</a>",
            reverse("admin:exports_export_download", args=[export.pk]),
            export.download_name,
        )

    def download_view(self, request, pk: int):
        """A done job's file: the user's own only (another's is no such job), with Content-Length and its sha256."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        try:
            export = export_detail(export_id=pk, user=request.user)
        except Export.DoesNotExist as exc:
            raise Http404("No export job of yours with this id.") from exc
        try:
            return export_file_response(export=export)
        except ExportFileUnavailable as exc:
            self.message_user(request, exc.message, messages.WARNING)
            return HttpResponseRedirect(reverse("admin:exports_export_changelist"))

    # --- Starting a job ---------------------------------------------------------------------------------------------

    def get_urls(self):
        return [
            path("start/", self.admin_site.admin_view(self.start_view), name="exports_export_start"),
            path("<int:pk>/download/", self.admin_site.admin_view(self.download_view), name="exports_export_download"),
            *super().get_urls(),
        ]

    def start_view(self, request):
        """GET: what will be exported, and a button; POST: start the job (exports.add_export) and go to the list."""
        if not request.user.has_perm(services.EXPORT_PERMISSION):
            raise PermissionDenied
        form = StartExportForm(request.POST if request.method == "POST" else request.GET)
        if request.method == "POST" and form.is_valid():
            try:
                export = services.export_create(
                    owner=request.user,
                    format=form.cleaned_data["format"],
                    query=form.cleaned_data["query"],
                    row_url=_admin_row_url(request),
                )
            except ValidationError as exc:
                self.message_user(request, f"This search cannot be exported: {' '.join(exc.messages)}", messages.ERROR)
            except ApplicationError as exc:  # the per-user limit, among others
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(
                    request,
                    f"Export {export.pk} started: its file appears here, with a download link, once it is written.",
                    messages.SUCCESS,
                )
            return HttpResponseRedirect(reverse("admin:exports_export_changelist"))
        query = form.data.get("query", "")
        return TemplateResponse(
            request,
            "admin/exports/export/start.html",
            {
                **self.admin_site.each_context(request),
                "title": "Export candidates as a background job",
                "opts": self.model._meta,
                "form": form,
                "query": query,
                "filters": list(QueryDict(query).lists()),
                "limit": request.GET.get("limit"),
            },
        )


def _admin_row_url(request) -> str:
    return row_url_template(
        lambda pk: request.build_absolute_uri(reverse("admin:profiles_candidate_change", args=[pk]))
    )


# --- The domain admins' share: streamed exports held to the per-user limit -------------------------------------------


class ExportSlotMixin:
    """Each CSV stream of this admin takes one of the user's export slots (streams and jobs together, at most
    EXPORT_MAX_CONCURRENT) for as long as its response is open; over the limit it is a message. Composed before an
    admin with ``profiles.admin.streams.CsvStreamMixin``, whose stream it wraps."""

    def csv_stream(self, request, lines, *, filename: str):
        try:
            slot = services.export_stream_slot(user=request.user)
        except services.ExportLimitReached as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return None
        try:
            return super().csv_stream(request, slot.releasing(lines), filename=filename)
        except BaseException:
            slot.release()  # no response will be closed to give it back
            raise


class ExportingCandidateAdmin(ExportSlotMixin):
    """The candidate admin's share of exports (a mixin before ``profiles.admin.candidates.CandidateAdmin``)."""

    def export_too_large(self, request, *, limit: int):
        """A selection too large to stream: the page that starts an export job of its search, for
        a user who may start one; a Viewer (read-only: a job writes a row) is told to narrow it."""
        if not request.user.has_perm(services.EXPORT_PERMISSION):
            self.message_user(
                request,
                f"More than {limit:,} candidates are too many to export at once: narrow the search, or ask a "
                "recruiter to run it as an export job.",
                messages.WARNING,
            )
            return None
        start = QueryDict(mutable=True)
        start.update({"format": "csv", "query": self.shared_params(request).urlencode(), "limit": f"{limit:,}"})
        return HttpResponseRedirect(f"{reverse('admin:exports_export_start')}?{start.urlencode()}")


class ExportingShortlistAdmin(ExportSlotMixin):
    """The shortlist admin's share of exports (a mixin before ``profiles.admin.working_lists.ShortlistAdmin``)."""
