"""The "Notices due" list: the sourcing records' changelist with a Notice filter (due, overdue, sent) and the action
"Mark notices as sent", which asks for the channel and the day; a Retention filter showing who the next retention run
retires; and there too the "Access request" action (``privacy.admin_access``), a record being one per candidate.

The sourcing records' admin is ``privacy.admin``'s, composed with ``SourcingRecordNotices`` from this module, so the
two stay one page and one set of permissions. The dashboard links to ``?notice=overdue``.
"""

from __future__ import annotations

import datetime as dt

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import ValidationError
from django.template.response import TemplateResponse
from django.utils import timezone

from privacy import admin_access, notices, retention
from privacy.models import SourcingRecord

NOTICE_PARAMETER = "notice"


class NoticeFilter(admin.SimpleListFilter):
    title = "notice"
    parameter_name = NOTICE_PARAMETER

    def lookups(self, request, model_admin):
        return [("due", "Not sent yet"), ("overdue", "Overdue"), ("sent", "Sent")]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "due":
            return queryset.filter(notified_at__isnull=True)
        if value == "overdue":
            return queryset.filter(notified_at__isnull=True, notice_due_at__lt=timezone.now())
        if value == "sent":
            return queryset.filter(notified_at__isnull=False)
        return queryset


class RetentionFilter(admin.SimpleListFilter):
    """Who the next retention run retires (``privacy.retention.expired_candidates``): the privacy officer's preview
    of ``manage.py retention --dry-run``."""

    title = "retention"
    parameter_name = "retention"

    def lookups(self, request, model_admin):
        # Retention is the privacy officers' (privacy.run_retention): for anyone else the filter is not there.
        self.permitted = request.user.has_perm("privacy.run_retention")
        return [("expired", "Expired: retired by the next run")] if self.permitted else []

    def queryset(self, request, queryset):
        if self.value() == "expired" and self.permitted:
            return queryset.filter(candidate__in=retention.expired_candidates().order_by().values("pk"))
        return queryset


class MarkSentForm(forms.Form):
    channel = forms.ChoiceField(choices=[(c, SourcingRecord.NoticeChannel(c).label) for c in notices.CHANNELS])
    sent_on = forms.DateField(
        initial=timezone.localdate,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="The day the notice went out.",
    )

    def clean_sent_on(self):
        day = self.cleaned_data["sent_on"]
        if day > timezone.localdate():
            raise ValidationError("A notice cannot have been sent in the future.")
        return day


class SourcingRecordNotices:
    """The sourcing records' admin's share of notices and access requests: the filter, the notice column, the
    actions and their permissions."""

    def has_mark_sent_permission(self, request) -> bool:
        return request.user.has_perm("privacy.change_sourcingrecord")

    def has_subject_access_permission(self, request) -> bool:
        return admin_access.may_request_access(request)

    @admin.display(description="notice", ordering="notice_due_at")
    def notice_state(self, obj: SourcingRecord) -> str:
        if obj.notified_at is not None:
            return f"Sent {timezone.localtime(obj.notified_at):%Y-%m-%d}"
        days = (timezone.localtime(obj.notice_due_at).date() - timezone.localdate()).days
        return f"Overdue by {-days} day{'s' if days != -1 else ''}" if days < 0 else f"Due in {days} days"

    @admin.action(description="Mark notices as sent", permissions=["mark_sent"])
    def mark_notices_sent(self, request, queryset):
        form = MarkSentForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return TemplateResponse(
                request,
                "admin/privacy/mark_notices_sent.html",
                {
                    **self.admin_site.each_context(request),
                    "title": "Mark notices as sent",
                    "opts": self.model._meta,
                    "form": form,
                    "count": queryset.filter(notified_at__isnull=True).count(),
                    "action": "mark_notices_sent",
                    "selected": request.POST.getlist(ACTION_CHECKBOX_NAME),
                    "select_across": request.POST.get("select_across", "0"),
                },
            )
        day = form.cleaned_data["sent_on"]
        sent_at = timezone.now() if day == timezone.localdate() else _noon(day)
        marked = notices.notices_mark_sent(
            candidate_ids=queryset.values_list("candidate_id", flat=True),
            channel=form.cleaned_data["channel"],
            user=request.user,
            at=sent_at,
        )
        self.message_user(request, f"Marked {marked} notice(s) as sent.", messages.SUCCESS)
        return None


def _noon(day: dt.date) -> dt.datetime:
    """A past day's notice, at noon in the site's time zone: the day it went out, whatever the zone of the reader."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time(12)))
