"""Privacy in the admin: the candidate changelist's "Erase selected candidates" (privacy officers and superusers),
"Request erasure" (recruiters) and "Access request", the requests for officers to decide, the read-only suppression
and audit lists, and the sourcing records with their notices.

The candidate admin is ``profiles``' and may not know this app (the layers run one way): this module gives it its
share as a mixin (``CandidatePrivacyActions``, with the actions it adds in ``CANDIDATE_ACTIONS``), which the site
composes with the others where it registers the candidate admin (``talentdb.admin``).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from privacy import services
from privacy.admin_access import may_request_access, subject_access_report
from privacy.admin_notices import NoticeFilter, RetentionFilter, SourcingRecordNotices
from privacy.models import ErasureRequest, PrivacyEvent, SourcingRecord, Suppression
from profiles.models import Candidate

# An erasure is for a person, or a few: a selection across thousands is a mistake to refuse, not to carry out.
ERASE_AT_ONCE = 100


def may_erase(user) -> bool:
    return user.has_perm("privacy.erase_candidate")


class ReasonForm(forms.Form):
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=2000,
        help_text=ErasureRequest._meta.get_field("reason").help_text,
    )


def _action_page(model_admin, request, template: str, title: str, **context) -> TemplateResponse:
    return TemplateResponse(
        request,
        f"admin/privacy/{template}.html",
        {
            **model_admin.admin_site.each_context(request),
            "title": title,
            "opts": model_admin.model._meta,
            "selected": request.POST.getlist(ACTION_CHECKBOX_NAME),
            "select_across": request.POST.get("select_across", "0"),
            **context,
        },
    )


def erase_confirmed(model_admin, request, candidates: list[Candidate], *, action: str) -> TemplateResponse | None:
    """The confirmation page of an erasure, or (once confirmed) the erasure of each candidate and a message."""
    if len(candidates) > ERASE_AT_ONCE:
        model_admin.message_user(
            request,
            f"Erase at most {ERASE_AT_ONCE} candidates at a time; {len(candidates)} were selected.",
            messages.WARNING,
        )
        return None
    if "apply" not in request.POST:
        return _action_page(
            model_admin, request, "erase_candidates", "Erase candidates", candidates=candidates, action=action
        )
    to_review = 0
    for candidate in candidates:
        event = services.candidate_erase(candidate=candidate, user=request.user)
        to_review += len(event.to_review.get("source_files", []))
    model_admin.message_user(
        request,
        f"Erased {len(candidates)} candidate(s): their data is deleted, and files about them will not be imported.",
        messages.SUCCESS,
    )
    if to_review:
        model_admin.message_user(
            request,
            f"{to_review} failed file(s) name them but may be someone else's: they were left as they are, for you to "
            "look at (Privacy › Privacy events, the erasure's files to review).",
            messages.WARNING,
        )
    return None


class CandidatePrivacyActions:
    """The candidate admin's privacy actions and their permissions; the actions to list are ``CANDIDATE_ACTIONS``."""

    def has_erase_permission(self, request) -> bool:
        return may_erase(request.user)

    def has_delete_permission(self, request, obj=None) -> bool:
        # Deleting a person is erasing them: a plain delete would leave them in the history rows and the stored
        # files, and the next import would bring them back. Merges remove duplicates through their own service.
        return False

    def has_request_erasure_permission(self, request) -> bool:
        return request.user.has_perm("privacy.add_erasurerequest")

    def has_subject_access_permission(self, request) -> bool:
        return may_request_access(request)

    @admin.action(description="Erase selected candidates", permissions=["erase"])
    def erase_candidates(self, request, queryset):
        candidates = list(queryset.order_by("pk")[: ERASE_AT_ONCE + 1])
        return erase_confirmed(self, request, candidates, action="erase_candidates")

    @admin.action(description="Request erasure of selected candidates", permissions=["request_erasure"])
    def request_erasure(self, request, queryset):
        candidates = list(queryset.order_by("pk")[: ERASE_AT_ONCE + 1])
        if len(candidates) > ERASE_AT_ONCE:
            self.message_user(
                request, f"Request the erasure of at most {ERASE_AT_ONCE} candidates at a time.", messages.WARNING
            )
            return None
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return _action_page(
                self,
                request,
                "request_erasure",
                "Request erasure",
                candidates=candidates,
                form=form,
                action="request_erasure",
            )
        created = services.erasure_request_create(
            candidates=candidates, user=request.user, reason=form.cleaned_data["reason"]
        )
        already = len(candidates) - len(created)
        message = f"Requested the erasure of {len(created)} candidate(s); a privacy officer decides."
        if already:
            message += f" {already} had an open request already."
        self.message_user(request, message, messages.SUCCESS)
        return None


# The actions ``CandidatePrivacyActions`` adds to the candidate changelist, after the domain's, in this order.
CANDIDATE_ACTIONS = ["request_erasure", "erase_candidates", subject_access_report]


# --- Requests, suppressions, the audit log ---------------------------------------------------------------------------


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ErasureRequest)
class ErasureRequestAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "candidate_link",
        "status",
        "short_reason",
        "requested_by",
        "requested_at",
        "decided_by",
        "decided_at",
    ]
    list_filter = ["status"]
    list_select_related = ["candidate", "requested_by", "decided_by"]
    fields = ["candidate_link", "status", "reason", "requested_by", "requested_at", "decided_by", "decided_at"]
    readonly_fields = fields
    actions = ["erase_requested", "reject"]

    def has_erase_permission(self, request) -> bool:
        return may_erase(request.user)

    def has_reject_permission(self, request) -> bool:
        return request.user.has_perm("privacy.change_erasurerequest")

    @admin.display(description="reason")
    def short_reason(self, obj: ErasureRequest) -> str:
        return obj.reason if len(obj.reason) <= 80 else f"{obj.reason[:79]}…"

    @admin.display(description="candidate")
    def candidate_link(self, obj: ErasureRequest):
        if obj.candidate_id is None:
            return "(erased)" if obj.status == ErasureRequest.Status.DONE else "—"
        url = reverse("admin:profiles_candidate_change", args=[obj.candidate_id])
        return format_html('<a href="{}">{} (#{})</a>', url, obj.candidate.name, obj.candidate_id)

    @admin.action(description="Erase the candidates of the selected open requests", permissions=["erase"])
    def erase_requested(self, request, queryset):
        open_requests = queryset.filter(status=ErasureRequest.Status.OPEN, candidate__isnull=False)
        candidates = list(
            Candidate.objects.filter(pk__in=open_requests.values("candidate_id")).order_by("pk")[: ERASE_AT_ONCE + 1]
        )
        if not candidates:
            self.message_user(request, "None of the selected requests is open.", messages.WARNING)
            return None
        return erase_confirmed(self, request, candidates, action="erase_requested")

    @admin.action(description="Reject the selected open requests", permissions=["reject"])
    def reject(self, request, queryset):
        rejected = sum(
            services.erasure_request_reject(request=item, user=request.user)
            for item in queryset.filter(status=ErasureRequest.Status.OPEN)
        )
        self.message_user(request, f"Rejected {rejected} request(s).", messages.SUCCESS)


@admin.register(Suppression)
class SuppressionAdmin(ReadOnlyAdmin):
    list_display = ["kind", "short_digest", "erased_at", "erased_by", "request"]
    list_filter = ["kind"]
    list_select_related = ["erased_by", "request"]

    @admin.display(description="digest")
    def short_digest(self, obj: Suppression) -> str:
        return f"{obj.digest[:16]}…"


@admin.register(PrivacyEvent)
class PrivacyEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "kind", "by", "request", "counts", "files_to_review"]
    list_filter = ["kind"]
    list_select_related = ["by", "request"]
    fields = ["at", "kind", "by", "request", "counts", "files_to_review"]
    readonly_fields = fields

    @admin.display(description="files to review")
    def files_to_review(self, obj: PrivacyEvent):
        """The stored files an erasure found naming the person but could not tell were theirs (a failed file with
        their name alone): each file's page, where a privacy officer reads it and decides."""
        ids = obj.to_review.get("source_files", [])
        if not ids:
            return "—"
        return format_html_join(
            ", ",
            '<a href="{}">file #{}</a>',
            ((reverse("admin:ingestion_sourcefile_change", args=[pk]), pk) for pk in ids),
        )


@admin.register(SourcingRecord)
class SourcingRecordAdmin(SourcingRecordNotices, admin.ModelAdmin):
    """The sourcing records, with their notices and the access request (``privacy.admin_notices``): a record being one
    per candidate, the list is also where an officer finds a person to notify or to report on."""

    list_display = [
        "candidate",
        "sourced_at",
        "lawful_basis",
        "notice_due_at",
        "notified_at",
        "notice_channel",
        "notice_state",
    ]
    list_filter = [NoticeFilter, RetentionFilter, "lawful_basis", "notice_channel"]
    actions = ["mark_notices_sent", subject_access_report]
    # A candidate's number, or the start of their name (a prefix, not a scan for a word anywhere in a million).
    search_fields = ["=candidate__id", "^candidate__name"]
    list_select_related = ["candidate"]
    fields = [
        "candidate",
        "sourced_at",
        "source_batch_id",
        "source_file_id",
        "lawful_basis",
        "notice_due_at",
        "notified_at",
        "notice_channel",
    ]
    readonly_fields = ["candidate", "sourced_at", "source_batch_id", "source_file_id", "notice_due_at"]

    def has_add_permission(self, request) -> bool:
        return False  # written by the import

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # goes with its candidate
