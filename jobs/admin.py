"""Jobs in the admin (issue 16): "Add job" takes a title and a pasted description and extracts the criteria on save;
a job's page edits its fields and criteria (the skills as rows inline) and links to its pipeline, the shortlist page
(entries by stage, notes, CSV export).

Jobs are their owner's as shortlists are: the list shows what ``jobs.selectors.jobs_for`` lets the user read (their
own and those shared with the team), only the owner changes one, and every write is a ``jobs.services`` call.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.postgres.forms import SimpleArrayField
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.html import format_html

from core.countries import country_code
from core.errors import ApplicationError
from jobs import services
from jobs.models import Job, JobSkill
from jobs.selectors import description_criteria, jobs_for
from profiles.selectors import working_list_permits

CRITERIA_FIELDS = ("countries", "remote", "min_years_coding", "keywords")


def _writable(request, job: Job | None) -> bool:
    return job is None or working_list_permits(user=request.user, working_list=job, for_writing=True)


def _checked_description(text: str) -> str:
    try:
        description_criteria(text)  # the service's own checks: empty, past JOB_DESCRIPTION_MAX_CHARS, binary
    except ApplicationError as exc:
        raise ValidationError(exc.message) from exc
    return text


class JobAddForm(forms.ModelForm):
    class Meta:
        model = Job
        fields = ["title", "description", "shared"]
        widgets = {"description": forms.Textarea(attrs={"rows": 24, "cols": 100})}
        help_texts = {"description": "Paste the job post: its skills, years, place and remote are read on save."}

    def clean_description(self) -> str:
        return _checked_description(self.cleaned_data["description"])


class JobChangeForm(forms.ModelForm):
    # Names or codes, as the API takes them; stored as ISO alpha-2 (clean_countries).
    countries = SimpleArrayField(
        forms.CharField(max_length=80), required=False, help_text="Countries, comma-separated: names or ISO codes."
    )

    class Meta:
        model = Job
        fields = ["title", "status", "shared", "description", *CRITERIA_FIELDS]
        widgets = {"description": forms.Textarea(attrs={"rows": 12, "cols": 100})}

    def clean_description(self) -> str:
        return _checked_description(self.cleaned_data["description"])

    def clean_countries(self) -> list[str]:
        codes = []
        for raw in self.cleaned_data["countries"]:
            code = country_code(raw)
            if not code:
                raise ValidationError(f"“{raw}” is not a country name or ISO code.")
            codes.append(code)
        return list(dict.fromkeys(codes))


class JobSkillInline(admin.TabularInline):
    """The job's criteria skills; changed only by whoever may change the job (``obj``, the job of the page)."""

    model = JobSkill
    extra = 0
    fields = ["skill", "kind", "min_score"]
    autocomplete_fields = ["skill"]
    verbose_name, verbose_name_plural = "criteria skill", "criteria skills"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("skill")

    def has_add_permission(self, request, obj=None) -> bool:
        return _writable(request, obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return _writable(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return _writable(request, obj) and super().has_delete_permission(request, obj)


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["title", "owner", "status", "shared", "skills_summary", "pipeline_link", "created_at"]
    list_filter = ["status", "shared", ("owner", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["title"]
    readonly_fields = ["owner", "pipeline_link", "created_at", "updated_at"]
    inlines = [JobSkillInline]
    list_per_page = 50

    def get_queryset(self, request):
        return jobs_for(user=request.user)

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
        return _writable(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return _writable(request, obj) and super().has_delete_permission(request, obj)

    def history_view(self, request, object_id, extra_context=None):
        # Django looks the job up (scoped: "no such job") before checking any permission; refuse first, as the
        # change page does, so a user without the view permission learns nothing (as profiles' working lists do).
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        return super().history_view(request, object_id, extra_context=extra_context)

    @admin.display(description="criteria skills")
    def skills_summary(self, job: Job) -> str:
        rows = sorted(job.skills.all(), key=lambda row: row.pk)  # prefetched by jobs_for
        parts = [
            f"{r.skill.slug} ≥ {r.min_score}" if r.kind == JobSkill.Kind.REQUIRED else f"{r.skill.slug} ({r.kind})"
            for r in rows
        ]
        return ", ".join(parts) or "—"

    @admin.display(description="pipeline")
    def pipeline_link(self, job: Job) -> str:
        if not job.pk:
            return "—"
        url = reverse("admin:profiles_shortlist_change", args=[job.pipeline_id])
        return format_html("<a href='{}'>{}</a>", url, job.pipeline.name)

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
