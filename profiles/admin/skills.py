"""The shared vocabulary and sources of the profiles: skills with their aliases, repositories and contributions."""

from __future__ import annotations

from django.contrib import admin
from django.db import transaction

from profiles.admin.changelist import EstimatedCountPaginator
from profiles.models import Contribution, Repository, Skill, SkillAlias
from profiles.selectors import skill_vocabulary_changed


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


@admin.register(Contribution)
class ContributionAdmin(admin.ModelAdmin):
    list_display = ["candidate", "repository", "role", "commits", "start", "end"]
    list_select_related = ["candidate", "repository"]
    search_fields = ["repository__full_name"]
    autocomplete_fields = ["candidate", "repository"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
