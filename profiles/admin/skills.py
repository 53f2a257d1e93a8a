"""The shared vocabulary and sources of the profiles: skills with their aliases, repositories and contributions."""

from __future__ import annotations

from django.contrib import admin

from profiles.admin.changelist import EstimatedCountPaginator
from profiles.models import Contribution, Repository, Skill, SkillAlias


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
