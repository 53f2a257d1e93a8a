from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

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


class CandidateSkillInline(admin.TabularInline):
    model = CandidateSkill
    extra = 0
    autocomplete_fields = ["skill"]
    fields = ["skill", "score", "label", "section"]


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


class IdentifierInline(admin.TabularInline):
    model = CandidateIdentifier
    extra = 0


@admin.register(Candidate)
class CandidateAdmin(SimpleHistoryAdmin):
    list_display = ["name", "title", "company", "country_code", "years_coding", "updated_at"]
    list_filter = ["country_code"]
    search_fields = ["name", "company", "title"]
    inlines = [CandidateSkillInline, EducationInline, ContributionInline, IdentifierInline]


@admin.register(Repository)
class RepositoryAdmin(admin.ModelAdmin):
    list_display = ["full_name", "description"]
    search_fields = ["full_name", "description"]


@admin.register(Contribution)
class ContributionAdmin(admin.ModelAdmin):
    list_display = ["candidate", "repository", "role", "commits", "start", "end"]
    list_select_related = ["candidate", "repository"]
    search_fields = ["repository__full_name", "candidate__name"]
    autocomplete_fields = ["candidate", "repository"]


@admin.register(Shortlist)
class ShortlistAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    list_select_related = ["owner"]


@admin.register(ShortlistEntry)
class ShortlistEntryAdmin(admin.ModelAdmin):
    list_display = ["candidate", "shortlist", "status", "added_at"]
    list_filter = ["status"]
    list_select_related = ["candidate", "shortlist"]
    autocomplete_fields = ["candidate"]


@admin.register(SavedSearch)
class SavedSearchAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "query"]


@admin.register(NotDuplicate)
class NotDuplicateAdmin(admin.ModelAdmin):
    list_display = ["first", "second", "marked_by", "marked_at"]
    raw_id_fields = ["first", "second"]


@admin.register(MergeRecord)
class MergeRecordAdmin(admin.ModelAdmin):
    list_display = ["survivor", "merged_name", "merged_id", "merged_by", "merged_at"]
    raw_id_fields = ["survivor"]
