"""Duplicates: the candidate changelist's merge and "different people" actions, the possible-duplicates page, and
the records both decisions leave (merges, pairs marked as different people).

The admin only reads what the recruiter chose; the services decide what a group is, who survives and what is merged
(``candidates_merge_group``, ``candidates_group_mark_not_duplicate``).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from core.errors import ApplicationError
from profiles import services
from profiles.admin.common import action_page, people
from profiles.models import IdentityReview, MergeRecord, NotDuplicate
from profiles.selectors import candidate_duplicate_groups


def _posted_id(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


class CandidateDuplicatesMixin:
    """The candidate admin's share of duplicates: two actions, the possible-duplicates page and its permissions."""

    def has_merge_permission(self, request) -> bool:
        return request.user.has_perm("profiles.add_mergerecord") and request.user.has_perm("profiles.change_candidate")

    def has_not_duplicate_permission(self, request) -> bool:
        return request.user.has_perm("profiles.add_notduplicate")

    @admin.action(description="Merge selected candidates (one person)", permissions=["merge"])
    def merge_candidates(self, request, queryset):
        try:
            group = services.candidates_group(candidate_ids=queryset.values_list("pk", flat=True))
        except ApplicationError as exc:
            self.message_user(request, exc.message, messages.WARNING)
            return None
        if "apply" in request.POST and self._merge(request, [c.pk for c in group]):
            return None
        return action_page(self, request, group, "merge_candidates", "Merge candidates")

    @admin.action(description="Mark selected candidates as different people", permissions=["not_duplicate"])
    def mark_not_duplicates(self, request, queryset):
        try:
            pairs = services.candidates_group_mark_not_duplicate(
                candidate_ids=queryset.values_list("pk", flat=True), user=request.user
            )
        except ApplicationError as exc:
            self.message_user(request, exc.message, messages.WARNING)
            return
        self.message_user(request, f"Recorded {pairs} pair(s) as different people.", messages.SUCCESS)

    def _merge(self, request, candidate_ids: list[int]) -> bool:
        """Merge into the posted survivor; False (with the reason shown) when the services refuse."""
        try:
            survivor, records = services.candidates_merge_group(
                candidate_ids=candidate_ids, survivor_id=_posted_id(request.POST.get("survivor")), user=request.user
            )
        except ApplicationError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return False
        url = reverse("admin:profiles_candidate_change", args=[survivor.pk])
        self.message_user(
            request,
            format_html("Merged {} into <a href='{}'>{}</a>.", people(len(records)), url, survivor.name),
            messages.SUCCESS,
        )
        return True

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
            self._decide(request, [pk for pk in map(_posted_id, request.POST.getlist("ids")) if pk is not None])
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

    def _decide(self, request, candidate_ids: list[int]) -> None:
        """A proposed group's decision: merge it, or record its candidates as different people."""
        decision = request.POST.get("decision")
        if decision == "merge":
            if not self.has_merge_permission(request):
                raise PermissionDenied
            self._merge(request, candidate_ids)
        elif decision == "different":
            if not self.has_not_duplicate_permission(request):
                raise PermissionDenied
            try:
                services.candidates_group_mark_not_duplicate(candidate_ids=candidate_ids, user=request.user)
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.WARNING)
            else:
                self.message_user(request, "Marked as different people; they will not be proposed again.")


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


@admin.register(IdentityReview)
class IdentityReviewAdmin(admin.ModelAdmin):
    """Candidates an old import may have merged two people into (listed once by a migration): read only, for a
    recruiter to open each and split it by hand."""

    list_display = ["candidate", "names", "found_at"]
    list_select_related = ["candidate"]
    readonly_fields = ["candidate", "names", "found_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
