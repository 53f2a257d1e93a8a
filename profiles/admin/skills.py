"""The shared vocabulary and sources of the profiles: skills with their aliases, repositories and contributions."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from core.errors import ApplicationError
from profiles import services
from profiles.admin.changelist import EstimatedCountPaginator
from profiles.models import Contribution, Repository, Skill, SkillAlias
from profiles.selectors import related_skills
from profiles.skill_curation import skill_pairs_merge
from profiles.skill_pairs import skill_pairs
from profiles.vocabulary_copy import skill_vocabulary_changed


class VocabularyAdmin(admin.ModelAdmin):
    """An edit of skills or aliases reaches every process's vocabulary (what imports map labels through)."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        transaction.on_commit(skill_vocabulary_changed)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        transaction.on_commit(skill_vocabulary_changed)

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        transaction.on_commit(skill_vocabulary_changed)


class SkillAliasInline(admin.TabularInline):
    model = SkillAlias
    extra = 0


@admin.register(Skill)
class SkillAdmin(VocabularyAdmin):
    list_display = ["slug", "name", "kind"]
    list_filter = ["kind"]
    search_fields = ["slug", "name", "aliases__label"]
    inlines = [SkillAliasInline]
    actions = ["merge_skills"]
    readonly_fields = ["also_consider"]
    change_list_template = "admin/profiles/skill/change_list.html"  # a link to the look-alike skills

    def get_urls(self):
        return [
            path(
                "look-alikes/",
                self.admin_site.admin_view(self.look_alikes_view),
                name="profiles_skill_look_alikes",
            ),
            *super().get_urls(),
        ]

    def look_alikes_view(self, request):
        """The skills that look like one technology (``profiles.skill_pairs``), each beside the skill it would become;
        a curator who may change skills merges the pairs they tick in one go."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        may_merge = self.has_change_permission(request)
        if request.method == "POST":
            if not may_merge:
                raise PermissionDenied
            self._merge_pairs(request, chosen=set(request.POST.getlist("pair")))
            return HttpResponseRedirect(request.path)
        return TemplateResponse(
            request,
            "admin/profiles/skill/look_alikes.html",
            {
                **self.admin_site.each_context(request),
                "title": "Skills that look like one technology",
                "opts": self.model._meta,
                "pairs": skill_pairs(),
                "may_merge": may_merge,
            },
        )

    def _merge_pairs(self, request, *, chosen: set[str]) -> None:
        try:
            merged = skill_pairs_merge(chosen=chosen)
        except ApplicationError as exc:
            level = messages.WARNING if exc.code == "no_pairs_chosen" else messages.ERROR
            self.message_user(request, exc.message, level)
            return
        names = ", ".join(f"{pair.source.slug} into {pair.target.slug}" for pair in merged.pairs)
        self.message_user(request, f"Merged {names}: {merged.candidates} candidates' scores moved.", messages.SUCCESS)

    @admin.display(description="Also consider")
    def also_consider(self, skill: Skill) -> str:
        """The skills that go with this one (``related_skills``, which Beat refreshes): for a curator and a recruiter
        widening a search."""
        rows = related_skills(skill=skill, limit=20) if skill.pk else []
        if not rows:
            return "None yet: no skill goes with this one in enough candidates, or the refresh has not run."
        lines = format_html_join(
            "",
            "<tr><td><a href='{}'>{}</a></td><td>{}</td><td>{}</td></tr>",
            (
                (
                    reverse("admin:profiles_skill_change", args=[r.related_id]),
                    r.related.name,
                    f"{r.lift:.2f}",
                    r.support,
                )
                for r in rows
            ),
        )
        return format_html(
            "<table><thead><tr><th>Skill</th><th>Lift</th><th>Candidates with both</th></tr></thead>"
            "<tbody>{}</tbody></table><p class='help'>Lift: how many times more often than chance a candidate has "
            "both. Computed {}.</p>",
            lines,
            f"{rows[0].computed_at:%Y-%m-%d %H:%M} UTC",
        )

    @admin.action(description="Merge the selected skills into another", permissions=["change"])
    def merge_skills(self, request, queryset):
        """A page to name the skill they are (``skills_merge`` does the rest), then the merge."""
        sources = list(queryset.annotate(candidates=Count("candidate_skills")).order_by("slug"))
        target_slug = request.POST.get("target", "").strip()
        target = Skill.objects.filter(slug=target_slug).first() if target_slug else None
        error = f"No skill has the slug “{target_slug}”." if target_slug and target is None else ""
        if target is not None and target in sources:
            error, target = f"{target.slug} is one of the skills to merge: choose the skill they are.", None
        if "apply" in request.POST and target is not None:
            try:
                done = [services.skills_merge(source=source, target=target) for source in sources]
            except ApplicationError as exc:
                error = exc.message
            else:
                moved = sum(d.candidates for d in done)
                names = ", ".join(s.slug for s in sources)
                self.message_user(
                    request, f"Merged {names} into {target.slug}: {moved} candidates' scores moved.", messages.SUCCESS
                )
                return None
        return TemplateResponse(
            request,
            "admin/profiles/skill/merge_skills.html",
            {
                **self.admin_site.each_context(request),
                "title": "Merge skills",
                "opts": self.model._meta,
                "sources": sources,
                "target": target_slug,
                "error": error,
                "action": "merge_skills",
                "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
                "select_across": request.POST.get("select_across", "0"),
            },
        )


@admin.register(SkillAlias)
class SkillAliasAdmin(VocabularyAdmin):
    list_display = ["label", "skill"]
    list_select_related = ["skill"]
    search_fields = ["label", "skill__slug"]
    autocomplete_fields = ["skill"]


@admin.register(Repository)
class RepositoryAdmin(admin.ModelAdmin):
    list_display = ["full_name", "description"]
    search_fields = ["full_name", "description"]

    def save_model(self, request, obj, form, change) -> None:
        services.repository_save(repository=obj)


@admin.register(Contribution)
class ContributionAdmin(admin.ModelAdmin):
    """Contributions across candidates. A contribution is part of its candidate: every write here goes through the
    services that record it in the candidate's history and refresh what search reads of it, one contribution at a
    time, so there is no bulk action (a "delete selected" over "select all" would do neither)."""

    list_display = ["candidate", "repository", "role", "commits", "start", "end"]
    list_select_related = ["candidate", "repository"]
    search_fields = ["repository__full_name"]
    autocomplete_fields = ["candidate", "repository"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    actions = None

    def save_model(self, request, obj, form, change):
        services.contribution_save(contribution=obj, user=request.user)

    def delete_model(self, request, obj):
        services.contributions_delete(contributions=[obj], user=request.user)

    def delete_queryset(self, request, queryset):
        services.contributions_delete(contributions=queryset, user=request.user)
