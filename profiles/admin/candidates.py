"""Candidates: the changelist (shared filters, sidebar, estimated counts), the admin of the change form (its form and
inlines are in ``candidate_form``), history with skill changes, and the shortlist, CSV and release actions.

Reads go through ``profiles.selectors``, writes through ``profiles.services``; the merge and duplicates share of the
candidate admin is in ``profiles.admin.duplicates``.
"""

from __future__ import annotations

import itertools

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.admin.views.main import SEARCH_VAR
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import Lower
from django.http import HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from simple_history.admin import SimpleHistoryAdmin

from profiles import services
from profiles.admin.candidate_form import (
    CandidateForm,
    CandidateSkillInline,
    ContributionInline,
    EducationInline,
    IdentifierInline,
    PositionInline,
    SpokenLanguageInline,
    field_label,
)
from profiles.admin.changelist import CandidateChangeList, EstimatedCountPaginator, plain_messages
from profiles.admin.common import HistoryRevertNeedsChangePermission, NoRelatedObjectLinks, people
from profiles.admin.duplicates import CandidateDuplicatesMixin
from profiles.admin.history import HistoryWithoutContactDetails
from profiles.admin.profile_page import CandidateProfilePageMixin, title_at_company
from profiles.admin.results import SearchResultsMixin
from profiles.admin.sidebar import SHARED_PARAMS, SIDEBAR_FILTERS, with_skill_term
from profiles.admin.streams import CsvStreamMixin
from profiles.candidate_fields import FORM_CONTACT_GROUP, FORM_GROUPS
from profiles.contacts import may_see_contact_details
from profiles.exports import candidate_csv_lines
from profiles.models import (
    Candidate,
    CandidateSkill,
    SavedSearch,
    SpokenLanguage,
)
from profiles.selectors import (
    candidate_autocomplete,
    candidate_filter_choices,
    candidate_search,
    candidate_top_skills_prefetch,
    candidates_count_up_to,
    skill_changes,
)


class CandidateAdmin(
    SearchResultsMixin,
    CandidateProfilePageMixin,
    CsvStreamMixin,
    HistoryRevertNeedsChangePermission,
    HistoryWithoutContactDetails,
    CandidateDuplicatesMixin,
    NoRelatedObjectLinks,
    SimpleHistoryAdmin,
):
    form = CandidateForm
    # One line a candidate (templates/admin/profiles/candidate/change_list.html); with skills asked for, the match
    # and their scores come after the name (``SearchResultsMixin``).
    list_display = ["name", "title_at_company", "location", "years_coding", "top_skills", "updated"]
    list_display_links = ["name"]
    list_filter = SIDEBAR_FILTERS
    list_per_page = 50
    # The search box sends `q`: the shared full-text filter (name, headline, title, company, summary, skills,
    # repositories and contribution summaries).
    search_fields = ["name"]
    search_help_text = (
        'Full text over name, title, company, headline, summary, skills and repositories. "exact phrase", or, -word '
        "work."
    )
    show_full_result_count = False
    show_facets = admin.ShowFacets.NEVER
    paginator = EstimatedCountPaginator
    inlines = [
        PositionInline,
        CandidateSkillInline,
        SpokenLanguageInline,
        ContributionInline,
        EducationInline,
        IdentifierInline,
    ]
    readonly_fields = ["protected_summary", "sources", "declared_totals", "created_at", "updated_at"]
    actions = [
        "add_to_job",
        "add_to_shortlist",
        "export_csv",
        "merge_candidates",
        "mark_not_duplicates",
        "release_protected_fields",
    ]
    change_list_template = "admin/profiles/candidate/change_list.html"
    history_list_per_page = 50
    object_history_form_template = "admin/profiles/candidate/object_history_form.html"

    # --- Queries ------------------------------------------------------------------------------------------------

    def get_inline_instances(self, request, obj=None):
        # Identifiers are e-mail addresses and accounts: contact details.
        inlines = super().get_inline_instances(request, obj)
        if may_see_contact_details(request.user):
            return inlines
        return [inline for inline in inlines if not isinstance(inline, IdentifierInline)]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related(candidate_top_skills_prefetch())

    def get_changelist(self, request, **kwargs):
        return CandidateChangeList

    def shared_params(self, request) -> QueryDict:
        params = QueryDict(mutable=True)
        for name, given in request.GET.lists():  # in the address's order, as a saved search keeps it
            values = [v for v in given if v.strip()]
            if name in SHARED_PARAMS and values:
                params.setlist(name, values)
        return params

    def shared_filtered_queryset(self, request, queryset):
        """The changelist's candidates: ``candidate_search`` over the shared parameters of the request."""
        params = self.shared_params(request)
        if not params:
            return queryset
        try:
            return candidate_search(params=params, user=request.user, queryset=queryset)
        except ValidationError as exc:
            for text in plain_messages(exc):
                self.message_user(request, text, messages.ERROR)
            return queryset.none()

    def get_search_results(self, request, queryset, search_term):
        # The changelist's `q` went through candidate_search already; autocomplete widgets send `term`.
        if search_term and request.GET.get(SEARCH_VAR) != search_term:
            return candidate_autocomplete(term=search_term, queryset=queryset), False
        return queryset, False

    def changelist_view(self, request, extra_context=None):
        if request.method == "GET" and "skill_slug" in request.GET:
            return HttpResponseRedirect(f"{request.path}?{with_skill_term(request.GET).urlencode()}")
        request.filter_choices = candidate_filter_choices()
        extra_context = {
            "title": "Candidates",  # a list to read and search, not "Select candidate to change"
            **(extra_context or {}),
            "duplicates_url": reverse("admin:profiles_candidate_duplicates"),
            "save_search_url": self._save_search_url(request),
        }
        return super().changelist_view(request, extra_context)

    def _save_search_url(self, request) -> str | None:
        """The saved search's add form, filled in with this page's filters (none: nothing to save, or no right)."""
        params = self.shared_params(request)
        saved_search_admin = self.admin_site.get_model_admin(SavedSearch)
        if not params or not saved_search_admin.has_add_permission(request):
            return None
        query = QueryDict(mutable=True)
        query["query"] = params.urlencode()
        query["owner"] = str(request.user.pk)
        return f"{reverse('admin:profiles_savedsearch_add')}?{query.urlencode()}"

    # --- Columns ------------------------------------------------------------------------------------------------

    @admin.display(description="updated", ordering="updated_at")
    def updated(self, candidate: Candidate) -> str:
        return candidate.updated_at.strftime("%Y-%m-%d") if candidate.updated_at else "—"

    @admin.display(description="title at company", ordering=Lower("company"))
    def title_at_company(self, candidate: Candidate) -> str:
        return title_at_company(candidate) or candidate.headline

    @admin.display(description="location", ordering="country_code")
    def location(self, candidate: Candidate) -> str:
        return ", ".join(part for part in (candidate.city, candidate.country_code or candidate.country) if part)

    @admin.display(description="top skills")
    def top_skills(self, candidate: Candidate) -> str:
        return format_html_join(
            ", ", "{} <b>{}</b>", ((row.skill.name, row.score) for row in getattr(candidate, "top_skills", []))
        )

    # --- Change form --------------------------------------------------------------------------------------------

    def get_fieldsets(self, request, obj=None):
        groups = [*FORM_GROUPS, *([FORM_CONTACT_GROUP] if may_see_contact_details(request.user) else [])]
        fieldsets = [(heading, {"fields": list(lines)}) for heading, lines in groups]
        if obj is not None and (obj.protected_fields or obj.skills.filter(score_by_hand=True).exists()):
            fieldsets.append(
                (
                    "Edited by hand (protected against imports)",
                    {"fields": ["protected_summary", "release_fields"]},
                )
            )
        if obj is not None:
            fieldsets.append(
                (
                    "Where this profile came from",
                    {"fields": ["sources", "declared_totals", ("created_at", "updated_at")]},
                )
            )
        return fieldsets

    @admin.display(description="protected fields")
    def protected_summary(self, candidate: Candidate) -> str:
        scores = (
            candidate.skills.filter(score_by_hand=True).order_by("skill__name").values_list("skill__name", flat=True)
        )
        names = [*(field_label(name) for name in candidate.protected_fields), *(f"{name} score" for name in scores)]
        return ", ".join(names) or "—"

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and obj.pk:
            obj.listed_sources = self._sources_for(request, obj)
        return super().render_change_form(request, context, add=add, change=change, form_url=form_url, obj=obj)

    def _sources_for(self, request, candidate: Candidate) -> list[tuple]:
        """The candidate's latest stored files, each with whether this user may view the batch it came in (only then
        is the file named and linked: an upload's file name is as private as its batch). Whether a user may view a
        batch is for the batches' own admin to say; it is found through the admin site, as profiles imports nothing
        of ingestion."""
        files = list(candidate.sources.defer("content").order_by("-created_at", "-id")[:20])
        if not files:
            return []
        file_model = type(files[0])
        batch_admin = self.admin_site.get_model_admin(file_model._meta.get_field("batch").related_model)
        viewable: set[int | None] = set()
        if batch_admin.has_view_permission(request):
            batch_ids = {f.batch_id for f in files} - {None}
            viewable = {None, *batch_admin.get_queryset(request).filter(pk__in=batch_ids).values_list("pk", flat=True)}
        may_open = self.admin_site.get_model_admin(file_model).has_view_permission(request)
        return [(f, f.batch_id in viewable, may_open) for f in files]

    @admin.display(description="source files")
    def sources(self, candidate: Candidate) -> str:
        listed = getattr(candidate, "listed_sources", [])
        if not listed:
            return "No stored file (entered by hand)."
        items = []
        for f, named, may_open in listed:
            details = (f.get_format_display(), f.get_status_display().lower(), f.created_at.strftime("%Y-%m-%d %H:%M"))
            if not named:
                items.append(
                    format_html("<li>a file from an import you may not view — {}, {}, received {}</li>", *details)
                )
            elif may_open:
                url = reverse("admin:ingestion_sourcefile_text", args=[f.pk])
                items.append(
                    format_html("<li><a href='{}'>{}</a> — {}, {}, received {}</li>", url, f.original_name, *details)
                )
            else:
                items.append(format_html("<li>{} — {}, {}, received {}</li>", f.original_name, *details))
        return format_html(
            "<ul style='margin:0; padding-left:1em'>{}</ul>", format_html_join("", "{}", ((i,) for i in items))
        )

    @admin.display(description="totals the file declared")
    def declared_totals(self, candidate: Candidate) -> str:
        parts = [
            ("skills", candidate.skills_declared),
            ("programming languages", candidate.programming_languages_declared),
            ("contributions", candidate.contributions_declared),
        ]
        return ", ".join(f"{n} {label}" for label, n in parts if n is not None) or "—"

    def save_model(self, request, obj, form, change):
        record = getattr(request, "reverting_to", None)
        if record is not None:
            protected = services.candidate_revert(candidate=obj, record=record, user=request.user)
        else:
            protected = services.candidate_save_by_hand(
                candidate=obj, user=request.user, release=form.cleaned_data.get("release_fields") or []
            )
        if protected:
            self.message_user(
                request,
                "Protected against imports (edited by hand): " + ", ".join(field_label(f) for f in protected) + ".",
                messages.INFO,
            )

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # Skills, jobs and contributions are searched: the search columns follow every inline's edits. A score the
        # recruiter set (a changed score, a skill added) is kept against imports, as an edited field is.
        scored_by_hand = [
            row.cleaned_data["skill"].pk
            for formset in formsets
            if formset.model is CandidateSkill
            for row in formset.forms
            if "score" in row.changed_data and row.cleaned_data.get("skill") and not row.cleaned_data.get("DELETE")
        ]
        services.candidate_skills_edited(candidate_id=form.instance.pk, scored_by_hand=scored_by_hand)
        if any(formset.model is SpokenLanguage and formset.has_changed() for formset in formsets):
            services.candidate_languages_edited(candidate_id=form.instance.pk)

    # --- History --------------------------------------------------------------------------------------------------

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        record = get_object_or_404(Candidate.history.model, id=unquote(object_id), history_id=version_id)
        request.reverting_to = record
        extra = {"version_skills": record.skills, **(extra_context or {})}
        return super().history_form_view(request, object_id, version_id, extra_context=extra)

    def set_history_delta_changes(self, request, historical_records, foreign_keys_are_objs=True):
        super().set_history_delta_changes(request, historical_records, foreign_keys_are_objs)
        records = list(historical_records)
        for newer, older in itertools.pairwise(records):
            changes = [
                {"field": f"{name} score", "old": old, "new": new}
                for name, old, new in skill_changes(before=older.skills, after=newer.skills)
            ]
            if changes:
                newer.history_delta_changes = [*(getattr(newer, "history_delta_changes", None) or []), *changes]

    # --- Actions --------------------------------------------------------------------------------------------------

    @admin.action(description="Export selected candidates as CSV", permissions=["view"])
    def export_csv(self, request, queryset):
        limit = settings.EXPORT_STREAM_MAX_ROWS
        # The selected rows of a page are few; "select all" is the whole search, which may be too many to stream
        # inside one request.
        if request.POST.get("select_across") == "1" and candidates_count_up_to(queryset, limit=limit) > limit:
            return self.export_too_large(request, limit=limit)
        lines = candidate_csv_lines(
            queryset.order_by("name", "id"),
            url=lambda c: request.build_absolute_uri(reverse("admin:profiles_candidate_change", args=[c.pk])),
            contacts=may_see_contact_details(request.user),
        )
        return self.csv_stream(request, lines, filename="candidates.csv")

    @admin.action(description="Release protected fields (imports may overwrite them)", permissions=["change"])
    def release_protected_fields(self, request, queryset):
        released = 0
        by_hand = CandidateSkill.objects.filter(candidate=OuterRef("pk"), score_by_hand=True)
        for candidate in queryset.filter(Q(protected_fields__len__gt=0) | Exists(by_hand)):
            fields = services.candidate_release_fields(
                candidate=candidate, field_names=candidate.protected_fields, user=request.user
            )
            if services.candidate_release_skill_scores(candidate=candidate, user=request.user) or fields:
                released += 1
        self.message_user(request, f"Released the protected fields of {people(released)}.", messages.SUCCESS)
