"""Jobs in the admin: "Add job" takes a title and a pasted description, extracts the criteria on save and opens the
job's matches (``matches``); the pipeline board (``pipeline``) shows the pipeline by stage. A job's page edits its
fields and criteria (the skills as rows inline) and links to both, and to its pipeline's shortlist page (notes, CSV).

Jobs are their owner's as shortlists are: the list shows what ``jobs.selectors.jobs_for`` lets the user read (their
own and those shared with the team), only the owner changes one, and every write is a ``jobs.services`` call.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.core.exceptions import PermissionDenied
from django.db.models import Case, Count, When
from django.http import HttpResponseRedirect
from django.template.defaultfilters import pluralize
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html

from jobs import services
from jobs.admin.common import KIND_ORDER, JobPages, criteria_skills_summary, writable
from jobs.admin.forms import CRITERIA_FIELDS, JobAddForm, JobChangeForm
from jobs.admin.matches import MatchesPages
from jobs.admin.pipeline import PipelinePages
from jobs.admin.similar import similar_candidates_view
from jobs.models import Job, JobSkill
from jobs.selectors import jobs_for
from profiles.admin.common import NoRelatedObjectLinks


class JobSkillInline(NoRelatedObjectLinks, admin.TabularInline):
    """The job's criteria skills; changed only by whoever may change the job (``obj``, the job of the page). The
    skill picker has no links that add, change or delete the skill itself: that row is every candidate's."""

    model = JobSkill
    extra = 0
    fields = ["skill", "kind", "min_score"]
    autocomplete_fields = ["skill"]
    verbose_name, verbose_name_plural = "criteria skill", "criteria skills"

    def get_queryset(self, request):
        # In the order they count, as the matches page and the list show them: required, preferred, excluded.
        kinds = [When(kind=kind, then=order) for order, kind in enumerate(KIND_ORDER)]
        return super().get_queryset(request).select_related("skill").order_by(Case(*kinds), "id")

    def get_formset(self, request, obj=None, **kwargs):
        kwargs.setdefault("labels", {"kind": "counts as", "min_score": "minimum score"})
        return super().get_formset(request, obj, **kwargs)

    def has_add_permission(self, request, obj=None) -> bool:
        return writable(request, obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return writable(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return writable(request, obj) and super().has_delete_permission(request, obj)


@admin.register(Job)
class JobAdmin(MatchesPages, PipelinePages, JobPages, admin.ModelAdmin):
    list_display = ["title", "owner", "status_summary", "skills_summary", "work_links", "pipeline_size", "added"]
    list_filter = ["status", "shared", ("owner", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["title"]
    readonly_fields = ["owner", "pipeline_link", "added_at", "changed_at"]
    inlines = [JobSkillInline]
    list_per_page = 50

    def get_queryset(self, request):
        return jobs_for(user=request.user).annotate(pipeline_entries=Count("pipeline__entries"))

    def changelist_view(self, request, extra_context=None):
        # "Select job to change" names a database chore; the recruiter's list of jobs is just that.
        return super().changelist_view(request, extra_context={"title": "Jobs", **(extra_context or {})})

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = JobChangeForm if obj is not None else JobAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return list(JobAddForm.Meta.fields)
        return [*JobChangeForm.Meta.fields, *self.readonly_fields]

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else []

    def get_inlines(self, request, obj=None):
        return self.inlines if obj is not None else []  # a new job's skills are read from its description

    def has_change_permission(self, request, obj=None) -> bool:
        return writable(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return writable(request, obj) and super().has_delete_permission(request, obj)

    def history_view(self, request, object_id, extra_context=None):
        # Django looks the job up (scoped: "no such job") before checking any permission; refuse first, as the
        # change page does, so a user without the view permission learns nothing (as profiles' working lists do).
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        return super().history_view(request, object_id, extra_context=extra_context)

    @admin.display(description="skills asked for")
    def skills_summary(self, job: Job) -> str:
        """The first few criteria skills by name (required ones first, then the preferred and the excluded ones
        marked) and how many more: a job read from a long post names a dozen, and the list must fit a laptop's
        window. The whole criteria, with the minimum scores, are in the cell's tooltip and on the job's page."""
        summary = criteria_skills_summary(job.skills.all())  # prefetched by jobs_for
        if summary is None:
            return "—"
        more = format_html(", <span class='more'>+{} more</span>", summary.more) if summary.more else ""
        return format_html("<span class='criteria-skills' title='{}'>{}{}</span>", summary.details, summary.shown, more)

    @admin.display(description="status", ordering="status")
    def status_summary(self, job: Job) -> str:
        """Open or closed, and whether the team sees it: one narrow column (the filters tell either apart)."""
        if not job.shared:
            return job.get_status_display()
        return format_html("{} <span class='muted'>shared with the team</span>", job.get_status_display())

    @admin.display(description="added", ordering="created_at")
    def added(self, job: Job) -> str:
        return date_format(timezone.localtime(job.created_at), "j M Y")

    @admin.display(description="pipeline", ordering="pipeline_entries")
    def pipeline_size(self, job: Job) -> str:
        """How many candidates the pipeline holds, a link to its page (notes, CSV)."""
        n = job.pipeline_entries
        return format_html(
            "<a href='{}'>{}</a>",
            reverse("admin:profiles_shortlist_change", args=[job.pipeline_id]),
            f"{n} candidate{pluralize(n)}" if n else "empty",
        )

    @admin.display(description="candidates")
    def work_links(self, job: Job) -> str:
        return format_html(
            "<a href='{}'>Matches</a> · <a href='{}'>Board</a>",
            reverse("admin:jobs_job_matches", args=[job.pk]),
            reverse("admin:jobs_job_pipeline_board", args=[job.pk]),
        )

    @admin.display(description="pipeline")
    def pipeline_link(self, job: Job) -> str:
        """How many candidates the pipeline holds, a link to its page (notes, CSV); the board is a tab away."""
        if not job.pk:
            return "—"
        n = getattr(job, "pipeline_entries", None)
        size = "" if n is None else (f"{n} candidate{pluralize(n)}: " if n else "empty: ")
        url = reverse("admin:profiles_shortlist_change", args=[job.pipeline_id])
        return format_html("<a href='{}'>{}notes and CSV export</a>", url, size)

    @admin.display(description="added")
    def added_at(self, job: Job) -> str:
        return date_format(timezone.localtime(job.created_at), "j M Y, H:i")

    @admin.display(description="last changed")
    def changed_at(self, job: Job) -> str:
        return date_format(timezone.localtime(job.updated_at), "j M Y, H:i")

    def get_urls(self):
        view = self.admin_site.admin_view  # login, staff, CSRF on every POST
        return [
            path("<int:object_id>/matches/", view(self.matches_view), name="jobs_job_matches"),
            path("<int:object_id>/matches/criteria/", view(self.criteria_view), name="jobs_job_criteria"),
            path("<int:object_id>/matches/add/", view(self.pipeline_add_view), name="jobs_job_pipeline_add"),
            path("<int:object_id>/pipeline/board/", view(self.pipeline_board_view), name="jobs_job_pipeline_board"),
            path("<int:object_id>/pipeline/move/", view(self.pipeline_move_view), name="jobs_job_pipeline_move"),
            path("similar/<int:candidate_id>/", view(similar_candidates_view), name="jobs_job_similar"),
            *super().get_urls(),
        ]

    def response_add(self, request, obj, post_url_continue=None):
        # A job is added to find people for it: its matches are the next page (unless adding another, or a popup).
        if IS_POPUP_VAR in request.POST or "_addanother" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        self.message_user(
            request,
            f"The job “{obj}” was added with the criteria read from its description. Edit them here: the candidates "
            "are ranked again at each change.",
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:jobs_job_matches", args=[obj.pk]))

    def save_model(self, request, obj, form, change):
        if not change:
            saved = services.job_create(
                user=request.user, title=obj.title, description=obj.description, shared=obj.shared
            )
            obj.pk = saved.job.pk  # the admin goes on with the saved job (its page, its log entry)
            obj.__dict__.update({k: v for k, v in saved.job.__dict__.items() if not k.startswith("_")})
        else:
            changed = set(form.changed_data)
            saved = services.job_update(
                job=obj,
                user=request.user,
                criteria={f: form.cleaned_data[f] for f in CRITERIA_FIELDS if f in changed} or None,
                **{f: form.cleaned_data[f] for f in services.JOB_FIELDS if f in changed},
            )
        for warning in saved.warnings:
            self.message_user(request, warning, messages.WARNING)

    def save_formset(self, request, form, formset, change):
        if formset.model is not JobSkill:
            return super().save_formset(request, form, formset, change)
        rows = formset.save(commit=False)
        services.job_skills_save(job=form.instance, user=request.user, changed=rows, deleted=formset.deleted_objects)
        return None
