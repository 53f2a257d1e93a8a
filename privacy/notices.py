"""Notices to sourced people (GDPR Art. 14): who has not been told yet that TalentDB holds their data, by the date
the notice is due (a month after sourcing), and recording that they were told.

TalentDB does not send the notice: the recruiter does, by whatever channel reaches the person, and records it here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from privacy.models import PrivacyEvent, SourcingRecord

# The channels a notice can be sent by (every choice but the empty "not sent").
CHANNELS = tuple(value for value in SourcingRecord.NoticeChannel.values if value)


def notices_due() -> QuerySet[SourcingRecord]:
    """The people not told yet, the most urgent first (``sourcing_notice_due_idx``, partial on notified_at null)."""
    return (
        SourcingRecord.objects.filter(notified_at__isnull=True)
        .select_related("candidate")
        .order_by("notice_due_at", "candidate_id")
    )


def notices_overdue(*, now: dt.datetime | None = None) -> QuerySet[SourcingRecord]:
    return notices_due().filter(notice_due_at__lt=now or timezone.now())


def notices_overdue_count(*, now: dt.datetime | None = None) -> int:
    """How many notices are past their due date: a count over the partial index, which holds only those not told."""
    return SourcingRecord.objects.filter(notified_at__isnull=True, notice_due_at__lt=now or timezone.now()).count()


@transaction.atomic
def notices_mark_sent(*, candidate_ids: Iterable[int], channel: str, user, at: dt.datetime | None = None) -> int:
    """Record that these people were told, by ``channel``, at ``at`` (now by default); returns how many records
    changed. Those already told keep their date and channel (a second click changes nothing), and the act is logged
    as a PrivacyEvent with the count only."""
    if channel not in CHANNELS:
        raise ValidationError(f"Unknown notice channel {channel!r}: one of {', '.join(CHANNELS)}.")
    at = at or timezone.now()
    if at > timezone.now() + dt.timedelta(minutes=5):
        raise ValidationError("A notice cannot have been sent in the future.")
    marked = SourcingRecord.objects.filter(candidate_id__in=list(candidate_ids), notified_at__isnull=True).update(
        notified_at=at, notice_channel=channel
    )
    if marked:
        PrivacyEvent.objects.create(kind=PrivacyEvent.Kind.NOTICE, by=user, counts={"notices": marked})
    return marked
