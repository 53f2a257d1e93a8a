"""Working lists: shortlists (with their CSV export) and saved searches (with their matches and links)."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import QueryDict, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import NoReverseMatch, path, reverse
from django.utils.html import format_html

from profiles.admin.changelist import EstimatedCountPaginator, plain_messages
from profiles.exports import shortlist_csv_lines
from profiles.models import Candidate, SavedSearch, Shortlist, ShortlistEntry
from profiles.selectors import candidate_search, queryset_count, shortlist_entries_for_export


class OwnedAdmin(admin.ModelAdmin):
    """Shortlists and saved searches: the owner is whoever creates one (superusers may pick another)."""

    def get_exclude(self, request, obj=None):
        return [] if request.user.is_superuser else ["owner"]

    def get_changeform_initial_data(self, request):
        return {"owner": request.user.pk, **super().get_changeform_initial_data(request)}

    def save_model(self, request, obj, form, change):
        if not change and not obj.owner_id:
            obj.owner = request.user
        super().save_model(request, obj, form, change)


class ShortlistEntryInline(admin.TabularInline):
    model = ShortlistEntry
    extra = 0
    autocomplete_fields = ["candidate"]
    fields = ["candidate", "status", "notes", "added_at"]
    readonly_fields = ["added_at"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("candidate")


@admin.register(Shortlist)
class ShortlistAdmin(OwnedAdmin):
    list_display = ["name", "owner", "entry_count", "created_at"]
    list_filter = ["owner"]
    list_select_related = ["owner"]
    search_fields = ["name", "description"]
    inlines = [ShortlistEntryInline]
    actions = ["export_csv"]

    def get_queryset(self, request):
        entries = (
            ShortlistEntry.objects.filter(shortlist=OuterRef("pk"))
            .order_by()
            .values("shortlist")
            .annotate(n=Count("*"))
        )
        return super().get_queryset(request).annotate(entry_count=Coalesce(Subquery(entries.values("n")), 0))

    @admin.display(description="candidates", ordering="entry_count")
    def entry_count(self, shortlist: Shortlist) -> int:
        return shortlist.entry_count

    def get_urls(self):
        return [
            path(
                "<int:pk>/export.csv",
                self.admin_site.admin_view(self.export_view),
                name="profiles_shortlist_export",
            ),
            *super().get_urls(),
        ]

    def export_view(self, request, pk: int):
        shortlist = get_object_or_404(Shortlist, pk=pk)
        if not self.has_view_permission(request, shortlist):
            raise PermissionDenied
        return self._csv_response(request, shortlist_entries_for_export(shortlists=[shortlist]), f"shortlist-{pk}.csv")

    @admin.action(description="Export selected shortlists as CSV", permissions=["view"])
    def export_csv(self, request, queryset):
        return self._csv_response(request, shortlist_entries_for_export(shortlists=queryset), "shortlists.csv")

    def _csv_response(self, request, entries, filename: str) -> StreamingHttpResponse:
        lines = shortlist_csv_lines(
            entries,
            url=lambda c: request.build_absolute_uri(reverse("admin:profiles_candidate_change", args=[c.pk])),
        )
        response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


@admin.register(ShortlistEntry)
class ShortlistEntryAdmin(admin.ModelAdmin):
    list_display = ["candidate", "shortlist", "status", "notes", "added_at"]
    list_filter = ["status", "shortlist"]
    list_editable = ["status"]
    list_select_related = ["candidate", "shortlist"]
    search_fields = ["shortlist__name", "notes"]
    autocomplete_fields = ["candidate"]


# --- Saved searches --------------------------------------------------------------------------------------------------


class SavedSearchForm(forms.ModelForm):
    class Meta:
        model = SavedSearch
        fields = ["name", "owner", "query"]
        widgets = {"query": forms.TextInput(attrs={"size": 80})}

    def clean_query(self) -> str:
        query = self.cleaned_data["query"].strip().lstrip("?")
        try:
            candidate_search(params=QueryDict(query), queryset=Candidate.objects.none())
        except ValidationError as exc:
            raise ValidationError(plain_messages(exc)) from exc
        return query


def _api_url(name: str, fallback: str) -> str:
    try:
        return reverse(name)
    except NoReverseMatch:
        return fallback


@admin.register(SavedSearch)
class SavedSearchAdmin(OwnedAdmin):
    form = SavedSearchForm
    list_display = ["name", "owner", "query", "matches", "links"]
    list_select_related = ["owner"]
    list_filter = ["owner"]
    search_fields = ["name", "query"]
    readonly_fields = ["matches", "links"]
    list_per_page = 25

    @admin.display(description="matching candidates")
    def matches(self, saved: SavedSearch) -> str:
        if not saved.pk:
            return "—"
        try:
            matching = candidate_search(params=QueryDict(saved.query))
            count, estimated = queryset_count(
                matching,
                budget_ms=EstimatedCountPaginator.COUNT_BUDGET_MS,
                max_cost=EstimatedCountPaginator.COUNT_MAX_COST,
            )
        except ValidationError as exc:
            return f"invalid: {' '.join(exc.messages)}"
        return f"about {count:,}" if estimated else f"{count:,}"

    @admin.display(description="open")
    def links(self, saved: SavedSearch) -> str:
        if not saved.pk:
            return "—"
        query = QueryDict(saved.query).urlencode()
        return format_html(
            "<a href='{}?{}'>in the admin</a> · <a href='{}?{}'>API list</a> · <a href='{}?{}'>CSV export</a>",
            reverse("admin:profiles_candidate_changelist"),
            query,
            _api_url("api:candidate-list", "/api/v1/candidates/"),
            query,
            _api_url("api:candidate-export-csv", "/api/v1/candidates/export.csv"),
            query,
        )
