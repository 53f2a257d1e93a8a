"""The recruiter admin: candidates, working lists (shortlists, saved searches), duplicates and history.

Admin classes stay thin: the changelist filters through ``profiles.selectors.candidate_search`` (the filter
implementation the API and the exports share), reads go through selectors, and every write is a service call.
"""

from __future__ import annotations

import itertools

import pycountry
from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.admin.views.main import ORDER_VAR, SEARCH_VAR, ChangeList
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce, Lower
from django.http import HttpResponseRedirect, QueryDict, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, path, reverse
from django.utils.functional import cached_property
from django.utils.html import format_html, format_html_join
from simple_history.admin import SimpleHistoryAdmin

from core.errors import ApplicationError
from profiles import services
from profiles.exports import candidate_csv_lines, shortlist_csv_lines
from profiles.filters import CandidateFilterSet
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    Education,
    MergeRecord,
    NotDuplicate,
    Repository,
    SavedSearch,
    Shortlist,
    ShortlistEntry,
    Skill,
    SkillAlias,
)
from profiles.selectors import (
    candidate_autocomplete,
    candidate_duplicate_groups,
    candidate_filter_choices,
    candidate_search,
    candidate_top_skills_prefetch,
    queryset_count,
    shortlist_entries_for_export,
    skill_changes,
)

# --- Counting at scale ---------------------------------------------------------------------------------------------


class EstimatedCountPaginator(Paginator):
    """A paginator that never runs COUNT(*) over a large table: PostgreSQL's estimate stands in above 10,000 rows,
    and for a smaller result whose count the planner prices above ``COUNT_MAX_COST`` or that overruns
    ``COUNT_BUDGET_MS`` (measured at 1M candidates: a plan of 40,000 cost units counts in roughly 50-100 ms)."""

    COUNT_BUDGET_MS = 40
    COUNT_MAX_COST = 40_000
    is_estimate = False

    @cached_property
    def count(self) -> int:
        count, self.is_estimate = queryset_count(
            self.object_list, budget_ms=self.COUNT_BUDGET_MS, max_cost=self.COUNT_MAX_COST
        )
        return count


# --- The changelist sidebar: inputs for the shared filter parameters ------------------------------------------------

SHARED_PARAMS = frozenset(CandidateFilterSet.base_filters)


class SharedParamsFilter(admin.ListFilter):
    """Sidebar input for parameters of ``CandidateFilterSet``. It filters nothing itself: ``candidate_search`` applies
    every shared parameter, so the admin, the API and the exports select the same candidates."""

    parameters: tuple[str, ...] = ()

    def __init__(self, request, params, model, model_admin):
        super().__init__(request, params, model, model_admin)
        self.request = request
        for name in self.parameters:
            if name in params:
                self.used_parameters[name] = params.pop(name)

    def has_output(self) -> bool:
        return True

    def expected_parameters(self) -> list[str]:
        return list(self.parameters)

    def queryset(self, request, queryset):
        return queryset

    def value(self, name: str | None = None) -> str:
        values = self.used_parameters.get(name or self.parameters[0]) or [""]
        return values[-1]


class ChoicesFilter(SharedParamsFilter):
    """Links, one per value; ``options`` returns (value, label) pairs."""

    def options(self, request) -> list[tuple[str, str]]:
        raise NotImplementedError

    def choices(self, changelist):
        name = self.parameters[0]
        current = self.value()
        yield {"selected": not current, "query_string": changelist.get_query_string(remove=[name]), "display": "All"}
        options = self.options(self.request)
        if current and current not in dict(options):
            options = [(current, current), *options]
        for value, label in options:
            yield {
                "selected": current == value,
                "query_string": changelist.get_query_string({name: value}),
                "display": label,
            }


def _country_name(code: str) -> str:
    country = pycountry.countries.get(alpha_2=code)
    return f"{country.name} ({code})" if country else code


class CountryFilter(ChoicesFilter):
    title = "country"
    parameters = ("country",)

    def options(self, request):
        return [(code, _country_name(code)) for code in request.filter_choices.countries]


class BadgeFilter(ChoicesFilter):
    title = "badge"
    parameters = ("badge",)

    def options(self, request):
        return [(badge, badge) for badge in request.filter_choices.badges]


class SpokenLanguageFilter(ChoicesFilter):
    title = "spoken language"
    parameters = ("language",)

    def options(self, request):
        return [(language, language) for language in request.filter_choices.languages]


class YearsCodingFilter(SharedParamsFilter):
    title = "years coding"
    parameters = ("min_years_coding", "max_years_coding")
    BANDS = [("0–2", 0, 2), ("3–5", 3, 5), ("6–10", 6, 10), ("11–20", 11, 20), ("more than 20", 21, None)]

    def choices(self, changelist):
        low, high = self.value("min_years_coding"), self.value("max_years_coding")
        yield {
            "selected": not low and not high,
            "query_string": changelist.get_query_string(remove=list(self.parameters)),
            "display": "All",
        }
        for label, band_low, band_high in self.BANDS:
            yield {
                "selected": (low, high) == (str(band_low), str(band_high or "")),
                "query_string": changelist.get_query_string(
                    {"min_years_coding": band_low, "max_years_coding": band_high}
                ),
                "display": label,
            }


class TextInputFilter(SharedParamsFilter):
    """A one-field GET form (school, repository): too many values for a list of links."""

    template = "admin/profiles/candidate/text_filter.html"
    placeholder = ""

    def choices(self, changelist):
        name = self.parameters[0]
        yield {
            "name": name,
            "value": self.value(),
            "placeholder": self.placeholder,
            "hidden": _hidden_params(changelist, exclude={name}),
            "clear": changelist.get_query_string(remove=[name]) if self.value() else "",
        }


class SchoolFilter(TextInputFilter):
    title = "school"
    parameters = ("school",)
    placeholder = "exact name"


class RepositoryFilter(TextInputFilter):
    title = "repository"
    parameters = ("repository",)
    placeholder = "owner/name"


class SkillFilter(SharedParamsFilter):
    """A skill and a minimum score (two inputs), turned into the shared ``skill=slug:min`` parameter on submit."""

    title = "skill and minimum score"
    parameters = ("skill",)
    template = "admin/profiles/candidate/skill_filter.html"

    def choices(self, changelist):
        terms = self.used_parameters.get("skill") or []
        current = []
        for term in terms:
            rest = [t for t in terms if t != term]
            label, _, minimum = term.rpartition(":") if ":" in term else (term, "", "")
            current.append(
                {
                    "label": label,
                    "minimum": minimum,
                    "remove": changelist.get_query_string({"skill": rest or None}),
                }
            )
        yield {
            "current": current,
            "hidden": _hidden_params(changelist, exclude=set()),
            "skills": self.request.filter_choices.skills,
        }


def _hidden_params(changelist, *, exclude: set[str]) -> list[tuple[str, str]]:
    return [
        (name, value)
        for name, values in changelist.filter_params.items()
        if name not in exclude
        for value in (values if isinstance(values, list) else [values])
    ]


SIDEBAR_FILTERS = [
    SkillFilter,
    CountryFilter,
    YearsCodingFilter,
    BadgeFilter,
    SpokenLanguageFilter,
    SchoolFilter,
    RepositoryFilter,
]
SIDEBAR_PARAMS = frozenset(name for f in SIDEBAR_FILTERS for name in f.parameters)


class CandidateChangeList(ChangeList):
    """Runs the shared filters once on the root queryset; the admin then adds its ordering and pagination."""

    def get_filters_params(self, params=None):
        lookup_params = super().get_filters_params(params)
        for name in SHARED_PARAMS - SIDEBAR_PARAMS:
            lookup_params.pop(name, None)
        return lookup_params

    def get_queryset(self, request, exclude_parameters=None):
        if not getattr(self, "_shared_filters_applied", False):
            self.root_queryset = self.model_admin.shared_filtered_queryset(request, self.root_queryset)
            self._shared_filters_applied = True
        queryset = super().get_queryset(request, exclude_parameters)
        shared = self.model_admin.shared_params(request)
        if set(shared) - {SEARCH_VAR, "ordering"}:
            self.has_active_filters = True
        self.clear_all_filters_qs = self.get_query_string(remove=sorted(SHARED_PARAMS - {SEARCH_VAR, "ordering"}))
        return queryset

    def get_ordering(self, request, queryset):
        # A saved search's own `ordering` (e.g. -match) holds until a column header is clicked.
        if ORDER_VAR not in self.params and "ordering" in self.params:
            return list(queryset.query.order_by)
        return super().get_ordering(request, queryset)

    def get_results(self, request):
        super().get_results(request)
        self.result_count_is_estimate = getattr(self.paginator, "is_estimate", False)
        if self.result_count_is_estimate:
            # The planner's guess can be off: a short page tells the true size.
            shown = len(self.result_list)
            if shown < self.list_per_page:
                self.result_count = (self.page_num - 1) * self.list_per_page + shown
                self.result_count_is_estimate = False


# --- Candidate change form -------------------------------------------------------------------------------------------

SCORE_MESSAGE = "A score is a whole number from 0 (none) to 10 (best)."


class CandidateSkillForm(forms.ModelForm):
    score = forms.IntegerField(
        min_value=0,
        max_value=10,
        error_messages={"min_value": SCORE_MESSAGE, "max_value": SCORE_MESSAGE, "invalid": SCORE_MESSAGE},
        widget=forms.NumberInput(attrs={"min": 0, "max": 10, "style": "width: 4em"}),
    )

    class Meta:
        model = CandidateSkill
        fields = ["skill", "score", "label", "section"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["label"].required = False
        self.fields["label"].help_text = "As the file wrote it; empty takes the skill's name."

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("skill") and not cleaned.get("label"):
            cleaned["label"] = cleaned["skill"].name[:200]
        return cleaned


class CandidateSkillInline(admin.TabularInline):
    model = CandidateSkill
    form = CandidateSkillForm
    extra = 0
    autocomplete_fields = ["skill"]
    fields = ["skill", "score", "label", "section"]
    ordering = ["-score", "position", "id"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("skill")


class EducationInline(admin.TabularInline):
    model = Education
    extra = 0
    fields = ["degree", "field", "minor", "school"]


class ContributionInline(admin.StackedInline):
    model = Contribution
    extra = 0
    autocomplete_fields = ["repository"]
    fields = [
        ("repository", "role"),
        ("commits", "comments", "active_months"),
        ("start", "end", "is_current"),
        "summary",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("repository")


class IdentifierInline(admin.TabularInline):
    model = CandidateIdentifier
    extra = 0
    verbose_name_plural = "identifiers (how imports recognise this person)"


PROFILE_FIELDS = [
    "name",
    "headline",
    "title",
    "company",
    "summary",
    "city",
    "region",
    "country",
    "country_code",
    "years_coding",
    "years_employed",
    "badges",
    "spoken_languages",
    "email",
    "website",
]


class CandidateForm(forms.ModelForm):
    website = forms.URLField(required=False, max_length=500, assume_scheme="https")
    release_fields = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Release",
        help_text="Ticked fields follow imports again: the next import of this person overwrites them.",
    )

    class Meta:
        model = Candidate
        fields = PROFILE_FIELDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        protected = list(self.instance.protected_fields or [])
        self.fields["release_fields"].choices = [(name, _field_label(name)) for name in protected]
        for name in protected:
            if name in self.fields:
                self.fields[name].help_text = "Protected: edited by hand, imports leave it alone."


def _field_label(name: str) -> str:
    return str(Candidate._meta.get_field(name).verbose_name)


@admin.register(Candidate)
class CandidateAdmin(SimpleHistoryAdmin):
    form = CandidateForm
    list_display = ["name", "title_at_company", "location", "top_skills", "years_coding", "updated_at"]
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
    inlines = [CandidateSkillInline, ContributionInline, EducationInline, IdentifierInline]
    readonly_fields = ["protected_summary", "sources", "declared_totals", "created_at", "updated_at"]
    actions = [
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

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related(candidate_top_skills_prefetch())

    def get_changelist(self, request, **kwargs):
        return CandidateChangeList

    def shared_params(self, request) -> QueryDict:
        params = QueryDict(mutable=True)
        for name in SHARED_PARAMS:
            values = [v for v in request.GET.getlist(name) if v.strip()]
            if values:
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
            for text in _plain_messages(exc):
                self.message_user(request, text, messages.ERROR)
            return queryset.none()

    def get_search_results(self, request, queryset, search_term):
        # The changelist's `q` went through candidate_search already; autocomplete widgets send `term`.
        if search_term and request.GET.get(SEARCH_VAR) != search_term:
            return candidate_autocomplete(term=search_term, queryset=queryset), False
        return queryset, False

    def changelist_view(self, request, extra_context=None):
        if request.method == "GET" and "skill_slug" in request.GET:
            return HttpResponseRedirect(f"{request.path}?{_with_skill_term(request.GET).urlencode()}")
        request.filter_choices = candidate_filter_choices()
        extra_context = {
            **(extra_context or {}),
            "duplicates_url": reverse("admin:profiles_candidate_duplicates"),
        }
        return super().changelist_view(request, extra_context)

    # --- Columns ------------------------------------------------------------------------------------------------

    @admin.display(description="title at company", ordering=Lower("company"))
    def title_at_company(self, candidate: Candidate) -> str:
        return " at ".join(part for part in (candidate.title, candidate.company) if part) or candidate.headline

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
        fieldsets = [
            ("Who", {"fields": ["name", "headline", ("title", "company"), "summary"]}),
            ("Where", {"fields": [("city", "region"), ("country", "country_code")]}),
            ("Experience", {"fields": [("years_coding", "years_employed"), "badges", "spoken_languages"]}),
            ("Contact", {"fields": ["email", "website"]}),
        ]
        if obj is not None and obj.protected_fields:
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
        return ", ".join(_field_label(name) for name in candidate.protected_fields) or "—"

    @admin.display(description="source files")
    def sources(self, candidate: Candidate) -> str:
        files = candidate.sources.defer("content").order_by("-created_at", "-id")[:20] if candidate.pk else []
        rows = [
            (
                reverse("admin:ingestion_sourcefile_text", args=[f.pk]),
                f.original_name,
                f.get_format_display(),
                f.get_status_display().lower(),
                f.created_at.strftime("%Y-%m-%d %H:%M"),
            )
            for f in files
        ]
        if not rows:
            return "No stored file (entered by hand)."
        return format_html(
            "<ul style='margin:0; padding-left:1em'>{}</ul>",
            format_html_join("", "<li><a href='{}'>{}</a> — {}, {}, received {}</li>", rows),
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
                "Protected against imports (edited by hand): " + ", ".join(_field_label(f) for f in protected) + ".",
                messages.INFO,
            )

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        services.candidate_skills_edited(candidate_id=form.instance.pk)

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

    def has_shortlist_permission(self, request) -> bool:
        return request.user.has_perm("profiles.add_shortlistentry")

    def has_merge_permission(self, request) -> bool:
        return request.user.has_perm("profiles.add_mergerecord") and request.user.has_perm("profiles.change_candidate")

    def has_not_duplicate_permission(self, request) -> bool:
        return request.user.has_perm("profiles.add_notduplicate")

    @admin.action(description="Add selected candidates to a shortlist", permissions=["shortlist"])
    def add_to_shortlist(self, request, queryset):
        form = AddToShortlistForm(request.POST if "apply" in request.POST else None, user=request.user)
        if form.is_bound and form.is_valid():
            shortlist = form.cleaned_data["shortlist"]
            if shortlist is None:
                shortlist, _ = services.shortlist_get_or_create(owner=request.user, name=form.cleaned_data["new_name"])
            added = services.shortlist_add_candidates(
                shortlist=shortlist, candidate_ids=queryset.values_list("pk", flat=True)
            )
            url = reverse("admin:profiles_shortlist_change", args=[shortlist.pk])
            self.message_user(
                request,
                format_html("{} added to shortlist <a href='{}'>{}</a>.", _people(added), url, shortlist.name),
                messages.SUCCESS,
            )
            return None
        return self._intermediate(request, queryset, "add_to_shortlist", "Add to a shortlist", form=form)

    @admin.action(description="Export selected candidates as CSV", permissions=["view"])
    def export_csv(self, request, queryset):
        lines = candidate_csv_lines(
            queryset.order_by("name", "id"),
            url=lambda c: request.build_absolute_uri(reverse("admin:profiles_candidate_change", args=[c.pk])),
        )
        response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="candidates.csv"'
        return response

    @admin.action(description="Merge selected candidates (one person)", permissions=["merge"])
    def merge_candidates(self, request, queryset):
        candidates = list(queryset.order_by("pk"))
        if len(candidates) < 2:
            self.message_user(request, "Select at least two candidates to merge.", messages.WARNING)
            return None
        if "apply" in request.POST:
            survivor = next((c for c in candidates if str(c.pk) == request.POST.get("survivor")), None)
            if survivor is None:
                self.message_user(request, "Choose the candidate to keep.", messages.ERROR)
            else:
                self._merge(request, survivor, candidates)
                return None
        return self._intermediate(request, candidates, "merge_candidates", "Merge candidates")

    @admin.action(description="Mark selected candidates as different people", permissions=["not_duplicate"])
    def mark_not_duplicates(self, request, queryset):
        candidates = list(queryset)
        if len(candidates) < 2:
            self.message_user(request, "Select at least two candidates.", messages.WARNING)
            return
        pairs = services.candidates_mark_not_duplicate(candidates=candidates, user=request.user)
        self.message_user(request, f"Recorded {pairs} pair(s) as different people.", messages.SUCCESS)

    @admin.action(description="Release protected fields (imports may overwrite them)", permissions=["change"])
    def release_protected_fields(self, request, queryset):
        released = 0
        for candidate in queryset.filter(protected_fields__len__gt=0):
            if services.candidate_release_fields(
                candidate=candidate, field_names=candidate.protected_fields, user=request.user
            ):
                released += 1
        self.message_user(request, f"Released the protected fields of {_people(released)}.", messages.SUCCESS)

    def _merge(self, request, survivor: Candidate, candidates: list[Candidate]) -> None:
        others = [c for c in candidates if c.pk != survivor.pk]
        try:
            records = services.candidates_merge(survivor=survivor, others=others, user=request.user)
        except ApplicationError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return
        url = reverse("admin:profiles_candidate_change", args=[survivor.pk])
        self.message_user(
            request,
            format_html("Merged {} into <a href='{}'>{}</a>.", _people(len(records)), url, survivor.name),
            messages.SUCCESS,
        )

    def _intermediate(self, request, candidates, action: str, title: str, **context):
        return TemplateResponse(
            request,
            f"admin/profiles/candidate/{action}.html",
            {
                **self.admin_site.each_context(request),
                "title": title,
                "opts": self.model._meta,
                "candidates": candidates,
                "action": action,
                "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
                "select_across": request.POST.get("select_across", "0"),
                **context,
            },
        )

    # --- Possible duplicates ----------------------------------------------------------------------------------

    def get_urls(self):
        return [
            path(
                "duplicates/",
                self.admin_site.admin_view(self.duplicates_view),
                name="profiles_candidate_duplicates",
            ),
            *super().get_urls(),
        ]

    def duplicates_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            ids = [int(pk) for pk in request.POST.getlist("ids") if pk.isdigit()]
            candidates = list(Candidate.objects.filter(pk__in=ids).order_by("pk"))
            if len(candidates) < 2:
                self.message_user(request, "Choose at least two candidates of the group.", messages.WARNING)
            elif request.POST.get("decision") == "merge":
                if not self.has_merge_permission(request):
                    raise PermissionDenied
                survivor = next((c for c in candidates if str(c.pk) == request.POST.get("survivor")), None)
                if survivor is None:
                    self.message_user(request, "Choose the candidate to keep.", messages.ERROR)
                else:
                    self._merge(request, survivor, candidates)
            elif request.POST.get("decision") == "different":
                if not self.has_not_duplicate_permission(request):
                    raise PermissionDenied
                services.candidates_mark_not_duplicate(candidates=candidates, user=request.user)
                self.message_user(request, "Marked as different people; they will not be proposed again.")
            return HttpResponseRedirect(request.path)
        return TemplateResponse(
            request,
            "admin/profiles/candidate/duplicates.html",
            {
                **self.admin_site.each_context(request),
                "title": "Possible duplicates",
                "opts": self.model._meta,
                "page": candidate_duplicate_groups(after=request.GET.get("after", "")),
                "can_merge": self.has_merge_permission(request),
                "can_mark": self.has_not_duplicate_permission(request),
            },
        )


def _people(n: int) -> str:
    return f"{n} candidate" if n == 1 else f"{n} candidates"


def _with_skill_term(params: QueryDict) -> QueryDict:
    """The sidebar's two inputs (skill, minimum score) as one shared ``skill=slug:min`` parameter."""
    params = params.copy()
    slug = (params.pop("skill_slug", [""])[-1] or "").strip()
    minimum = (params.pop("skill_min", [""])[-1] or "").strip()
    params.pop("p", None)
    if slug:
        params.appendlist("skill", f"{slug}:{minimum}" if minimum else slug)
    return params


class AddToShortlistForm(forms.Form):
    shortlist = forms.ModelChoiceField(
        queryset=Shortlist.objects.none(), required=False, empty_label="— a new shortlist —", label="Shortlist"
    )
    new_name = forms.CharField(required=False, max_length=200, label="Name of the new shortlist")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["shortlist"].queryset = Shortlist.objects.filter(owner=user).order_by("name")

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("shortlist") and not (cleaned.get("new_name") or "").strip():
            raise ValidationError("Choose one of your shortlists or give a name for a new one.")
        return cleaned


# --- Skills, repositories, contributions -----------------------------------------------------------------------------


class SkillAliasInline(admin.TabularInline):
    model = SkillAlias
    extra = 0


@admin.register(Skill)
class SkillAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "kind"]
    list_filter = ["kind"]
    search_fields = ["slug", "name", "aliases__label"]
    inlines = [SkillAliasInline]


@admin.register(SkillAlias)
class SkillAliasAdmin(admin.ModelAdmin):
    list_display = ["label", "skill"]
    list_select_related = ["skill"]
    search_fields = ["label", "skill__slug"]
    autocomplete_fields = ["skill"]


@admin.register(Repository)
class RepositoryAdmin(admin.ModelAdmin):
    list_display = ["full_name", "description"]
    search_fields = ["full_name", "description"]


@admin.register(Contribution)
class ContributionAdmin(admin.ModelAdmin):
    list_display = ["candidate", "repository", "role", "commits", "start", "end"]
    list_select_related = ["candidate", "repository"]
    search_fields = ["repository__full_name"]
    autocomplete_fields = ["candidate", "repository"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator


# --- Shortlists ------------------------------------------------------------------------------------------------------


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
            raise ValidationError(_plain_messages(exc)) from exc
        return query


def _plain_messages(exc: ValidationError) -> list[str]:
    """One line per parameter: ``skill: 'python:11' is not slug or slug:min_score with a score 0-10``."""
    if not hasattr(exc, "error_dict"):
        return exc.messages
    return [
        " ".join(m for error in errors for m in error.messages)
        if name == "__all__"
        else f"{name}: {' '.join(m for error in errors for m in error.messages)}"
        for name, errors in exc.error_dict.items()
    ]


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


# --- Duplicates bookkeeping ------------------------------------------------------------------------------------------


@admin.register(NotDuplicate)
class NotDuplicateAdmin(admin.ModelAdmin):
    list_display = ["first", "second", "marked_by", "marked_at"]
    list_select_related = ["first", "second", "marked_by"]
    raw_id_fields = ["first", "second"]
    readonly_fields = ["marked_by", "marked_at"]

    def save_model(self, request, obj, form, change):
        services.candidates_mark_not_duplicate(candidates=[obj.first, obj.second], user=request.user)


@admin.register(MergeRecord)
class MergeRecordAdmin(admin.ModelAdmin):
    list_display = ["survivor", "merged_name", "merged_id", "merged_by", "merged_at"]
    list_select_related = ["survivor", "merged_by"]
    search_fields = ["merged_name"]
    readonly_fields = ["survivor", "merged_name", "merged_id", "merged_by", "merged_at", "details"]

    def has_add_permission(self, request) -> bool:
        return False  # merges happen through the merge action, which records them

    def has_change_permission(self, request, obj=None) -> bool:
        return False
