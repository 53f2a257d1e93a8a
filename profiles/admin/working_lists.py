"""Working lists: shortlists (with their CSV export) and saved searches (with their matches and links).

Each is its owner's: the pages list, open and export only what ``profiles.selectors.working_lists_for`` lets the user
read (their own and those shared with the team; a superuser everything), offer changes only where the user may write
(their own), and save and delete through the services, which check the same rule.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404
from django.urls import NoReverseMatch, path, reverse
from django.utils.dateformat import format as date_format
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator
from django.utils.timezone import localtime

from db.counting import queryset_count
from profiles import services
from profiles.admin.changelist import EstimatedCountPaginator, plain_messages
from profiles.admin.chips import active_filter_chips
from profiles.admin.common import NoRelatedObjectLinks
from profiles.admin.streams import CsvStreamMixin
from profiles.contacts import may_see_contact_details
from profiles.exports import shortlist_csv_lines
from profiles.models import Candidate, SavedSearch, Shortlist, ShortlistEntry, ShortlistEntryEvent
from profiles.selectors import (
    candidate_search,
    owned_by_another_model,
    pipeline_owner,
    pipeline_owner_relations,
    shortlist_entries_for_export,
    working_list_permits,
    working_lists_for,
)


class _ScopedAdmin(admin.ModelAdmin):
    """An admin whose queryset is scoped to the user. Django's history page looks the object up before it checks any
    permission, so a user who may not view the model at all would be told "no such object" rather than refused:
    refuse first, as the change page does."""

    def history_view(self, request, object_id, extra_context=None):
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        return super().history_view(request, object_id, extra_context=extra_context)


class OwnedAdmin(NoRelatedObjectLinks, _ScopedAdmin):
    """Shortlists and saved searches: the owner is whoever creates one (superusers may pick another, from a picker
    without links that edit, add or view a user from here); the list shows what the user may read, and only the owner
    changes or deletes (``working_lists_for``)."""

    def get_queryset(self, request):
        return working_lists_for(user=request.user, queryset=super().get_queryset(request))

    def has_change_permission(self, request, obj=None) -> bool:
        writable = obj is None or working_list_permits(user=request.user, working_list=obj, for_writing=True)
        return writable and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        writable = obj is None or working_list_permits(user=request.user, working_list=obj, for_writing=True)
        return writable and super().has_delete_permission(request, obj)

    def get_exclude(self, request, obj=None):
        return [] if request.user.is_superuser else ["owner"]

    def get_fields(self, request, obj=None):
        # The owner's "shared with the team" choice, after the form's own fields (a form class may not list it).
        readonly = self.get_readonly_fields(request, obj)
        fields = [f for f in super().get_fields(request, obj) if f != "shared"]
        editable = [f for f in fields if f not in readonly]
        return [*editable, "shared", *(f for f in fields if f in readonly)]

    def get_changeform_initial_data(self, request):
        return {"owner": request.user.pk, **super().get_changeform_initial_data(request)}

    def save_model(self, request, obj, form, change):
        services.working_list_save(working_list=obj, user=request.user)

    def delete_model(self, request, obj):
        services.working_lists_delete(working_lists=[obj], user=request.user)

    def delete_queryset(self, request, queryset):
        services.working_lists_delete(working_lists=queryset, user=request.user)

    @admin.display(description="shared", boolean=True, ordering="shared")
    def shared_with_team(self, working_list) -> bool:
        """The model's "shared with the team", in a header as narrow as its tick."""
        return working_list.shared


class ShortlistEntryInline(NoRelatedObjectLinks, admin.TabularInline):
    """A shortlist's entries; changed only by whoever may change the shortlist (``obj``, the shortlist of the page)."""

    model = ShortlistEntry
    extra = 0
    autocomplete_fields = ["candidate"]
    fields = ["candidate", "status", "notes", "added"]
    readonly_fields = ["added"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("candidate")

    @admin.display(description="added")
    def added(self, entry: ShortlistEntry) -> str:
        return date_format(localtime(entry.added_at), "j M Y") if entry.added_at else ""

    def _shortlist_writable(self, request, obj) -> bool:
        return obj is None or working_list_permits(user=request.user, working_list=obj, for_writing=True)

    def has_add_permission(self, request, obj=None) -> bool:
        return self._shortlist_writable(request, obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return self._shortlist_writable(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return self._shortlist_writable(request, obj) and super().has_delete_permission(request, obj)


class ShortlistKindFilter(admin.SimpleListFilter):
    """A recruiter's own shortlists or the jobs' pipelines (shortlists a job owns), which the same list holds."""

    title = "kind"
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        return [("shortlist", "Shortlists"), ("pipeline", "Jobs' pipelines")] if pipeline_owner_relations() else []

    def queryset(self, request, queryset):
        owned = owned_by_another_model()
        if self.value() == "shortlist":
            return queryset.exclude(owned)
        if self.value() == "pipeline":
            return queryset.filter(owned)
        return queryset


class ShortlistAdmin(CsvStreamMixin, OwnedAdmin):
    list_display = ["name", "kind", "owner", "shared_with_team", "entry_count", "created"]
    list_filter = [ShortlistKindFilter, ("owner", admin.RelatedOnlyFieldListFilter), "shared"]
    search_fields = ["name", "description"]
    inlines = [ShortlistEntryInline]
    # A description of a few lines: the entries, what the page is for, start on the first screen.
    formfield_overrides = {models.TextField: {"widget": forms.Textarea(attrs={"rows": 3, "cols": 80})}}
    actions = ["export_csv"]

    def get_queryset(self, request):
        entries = (
            ShortlistEntry.objects.filter(shortlist=OuterRef("pk"))
            .order_by()
            .values("shortlist")
            .annotate(n=Count("*"))
        )
        return super().get_queryset(request).annotate(entry_count=Coalesce(Subquery(entries.values("n")), 0))

    def get_list_select_related(self, request):
        return ["owner", *pipeline_owner_relations()]  # the owner's name, and the job a pipeline's kind names

    def save_formset(self, request, form, formset, change):
        # The entries inline saves through the services too, so that each stage change and note is an event.
        if formset.model is not ShortlistEntry:
            return super().save_formset(request, form, formset, change)
        entries = formset.save(commit=False)
        services.shortlist_entries_delete(entries=formset.deleted_objects, user=request.user)
        for entry in entries:
            services.shortlist_entry_save(entry=entry, user=request.user)
        return None

    @admin.display(description="candidates", ordering="entry_count")
    def entry_count(self, shortlist: Shortlist) -> int:
        return shortlist.entry_count

    @admin.display(description="kind")
    def kind(self, shortlist: Shortlist) -> str:
        owner = pipeline_owner(shortlist)
        return "Shortlist" if owner is None else format_html("Pipeline of {}", owner)

    @admin.display(description="created", ordering="created_at")
    def created(self, shortlist: Shortlist) -> str:
        return date_format(localtime(shortlist.created_at), "j M Y")

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
        shortlist = get_object_or_404(self.get_queryset(request), pk=pk)  # another's private list: no such list
        if not self.has_view_permission(request, shortlist):
            raise PermissionDenied
        response = self._csv_response(
            request, shortlist_entries_for_export(shortlists=[shortlist]), f"shortlist-{pk}.csv"
        )
        # A GET has no changelist to show a refusal on (csv_stream answers None): the shortlist's page shows it.
        return response or HttpResponseRedirect(reverse("admin:profiles_shortlist_change", args=[pk]))

    @admin.action(description="Export selected shortlists as CSV", permissions=["view"])
    def export_csv(self, request, queryset):
        return self._csv_response(request, shortlist_entries_for_export(shortlists=queryset), "shortlists.csv")

    def _csv_response(self, request, entries, filename: str):
        lines = shortlist_csv_lines(
            entries,
            url=lambda c: request.build_absolute_uri(reverse("admin:profiles_candidate_change", args=[c.pk])),
            contacts=may_see_contact_details(request.user),
        )
        return self.csv_stream(request, lines, filename=filename)


class ShortlistEntryEventInline(admin.TabularInline):
    """What happened to the entry, by whom and when: written by the services, never edited here."""

    model = ShortlistEntryEvent
    extra = 0
    fields = readonly_fields = ["at", "author", "kind", "from_status", "to_status", "note"]
    can_delete = False
    verbose_name, verbose_name_plural = "event", "history of this entry"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("author")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


NOTE_SHOWN = 120  # characters of an entry's note, in the list of entries


@admin.register(ShortlistEntry)
class ShortlistEntryAdmin(_ScopedAdmin):
    """Entries of the shortlists the user may read; changed only on the user's own (the services check each save, the
    status column's saves included)."""

    list_display = ["candidate", "list_name", "status", "note", "added"]
    list_filter = ["status", ("shortlist", admin.RelatedOnlyFieldListFilter)]
    list_editable = ["status"]
    search_fields = ["shortlist__name", "notes"]
    autocomplete_fields = ["candidate"]
    inlines = [ShortlistEntryEventInline]

    def get_queryset(self, request):
        shortlists = working_lists_for(user=request.user, queryset=Shortlist.objects.all())
        return super().get_queryset(request).filter(shortlist__in=shortlists)

    def get_list_select_related(self, request):
        return ["candidate", "shortlist", *(f"shortlist__{name}" for name in pipeline_owner_relations())]

    @admin.display(description="list", ordering="shortlist__name")
    def list_name(self, entry: ShortlistEntry) -> str:
        owner = pipeline_owner(entry.shortlist)
        return entry.shortlist.name if owner is None else format_html("Pipeline of {}", owner)

    @admin.display(description="notes", ordering="notes")
    def note(self, entry: ShortlistEntry) -> str:
        """The note's start, whole in its title: a row stays a few lines high."""
        if not entry.notes:
            return ""
        return format_html('<span title="{}">{}</span>', entry.notes, Truncator(entry.notes).chars(NOTE_SHOWN))

    @admin.display(description="added", ordering="added_at")
    def added(self, entry: ShortlistEntry) -> str:
        return date_format(localtime(entry.added_at), "j M Y")

    def _shortlist_writable(self, request, obj) -> bool:
        return obj is None or working_list_permits(user=request.user, working_list=obj.shortlist, for_writing=True)

    def has_change_permission(self, request, obj=None) -> bool:
        return self._shortlist_writable(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return self._shortlist_writable(request, obj) and super().has_delete_permission(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "shortlist":  # an entry goes on a list the user may write
            writable = working_lists_for(user=request.user, queryset=Shortlist.objects.all(), for_writing=True)
            kwargs["queryset"] = writable.order_by("name")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        services.shortlist_entry_save(entry=obj, user=request.user)

    def delete_model(self, request, obj):
        services.shortlist_entries_delete(entries=[obj], user=request.user)

    def delete_queryset(self, request, queryset):
        services.shortlist_entries_delete(entries=queryset.select_related("shortlist"), user=request.user)


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


def invalid_in_words(exc: ValidationError) -> str:
    """Why a stored search no longer runs, in a line: the filters it names that this version does not know (a
    search saved by an older one), else each filter's complaint; never the list of every known filter, which the
    filters' own message appends and which made the row as tall as the screen."""
    errors = [e for es in exc.error_dict.values() for e in es] if hasattr(exc, "error_dict") else exc.error_list
    unknown = [e.params["unknown"] for e in errors if e.code == "unknown_parameter" and e.params]
    if unknown:
        names = ", ".join(unknown)
        one = "," not in names
        return f"Uses {'a filter' if one else 'filters'} this version does not know: {names}"
    return f"invalid: {'; '.join(plain_messages(exc))}"


FILTERS_SHOWN = 6  # of a saved search, in the list: a row stays a few lines high


@admin.register(SavedSearch)
class SavedSearchAdmin(OwnedAdmin):
    form = SavedSearchForm
    list_display = ["name", "owner", "shared_with_team", "filters", "matches", "links"]
    list_select_related = ["owner"]
    list_filter = [("owner", admin.RelatedOnlyFieldListFilter), "shared"]
    search_fields = ["name", "query"]
    readonly_fields = ["matches", "links"]
    list_per_page = 25

    @admin.display(description="filters", ordering="query")
    def filters(self, saved: SavedSearch) -> str:
        """The search as the candidate list's chips say it ("search “python django” · country United Kingdom (GB)"),
        not as the address stores it; the first few, and how many more."""
        chips = active_filter_chips(QueryDict(saved.query))
        if not chips:
            return "—"
        shown = format_html_join(" · ", "{} {}", ((chip.label, chip.value) for chip in chips[:FILTERS_SHOWN]))
        more = len(chips) - FILTERS_SHOWN
        return format_html("{}, +{} more", shown, more) if more > 0 else shown

    @admin.display(description="matches")
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
            return invalid_in_words(exc)
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
