"""Export jobs in the admin: your own, with their progress and a download link, and the page that starts one (the
candidate changelist's CSV action sends a selection too large to stream here).

Nobody adds or edits a job's internals here: jobs are started through ``exports.services.export_create`` and written
by a worker. Files download through the API (``api:export-download``), which the admin session may call.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect, QueryDict
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from core.errors import ApplicationError
from core.text import human_size
from exports import services
from exports.models import Export
from exports.selectors import exports_for

_PLACEHOLDER = 987654321987654321


class StartExportForm(forms.Form):
    format = forms.ChoiceField(choices=Export.Format.choices)
    query = forms.CharField(required=False, max_length=10_000, widget=forms.HiddenInput)


@admin.register(Export)
class ExportAdmin(admin.ModelAdmin):
    list_display = ["__str__", "search", "status", "progress_bar", "rows_written", "size", "created_at", "download"]
    list_filter = ["status", "format"]
    list_per_page = 50
    fields = [
        "format",
        "query",
        "status",
        "progress_bar",
        "rows_total",
        "rows_written",
        "size",
        "file_sha256",
        "error",
        "created_at",
        "started_at",
        "finished_at",
        "expires_at",
        "download",
    ]
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
            reverse("api:export-download", kwargs={"pk": export.pk}),
            export.download_name,
        )

    # --- Starting a job ---------------------------------------------------------------------------------------------

    def get_urls(self):
        return [
            path("start/", self.admin_site.admin_view(self.start_view), name="exports_export_start"),
            *super().get_urls(),
        ]

    def start_view(self, request):
        """GET: what will be exported, and a button; POST: start the job (exports.add_export) and go to the list."""
        if not request.user.has_perm("exports.add_export"):
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
    url = request.build_absolute_uri(reverse("admin:profiles_candidate_change", args=[_PLACEHOLDER]))
    return url.replace(str(_PLACEHOLDER), "{pk}")
