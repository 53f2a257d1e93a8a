"""Erasure requests: made by a recruiter, decided by an erasure or rejected."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from privacy.models import ErasureRequest
from profiles.models import (
    Candidate,
)


def erasure_request_create(*, candidates: Sequence[Candidate], user, reason: str = "") -> list[ErasureRequest]:
    """A request per candidate that has no open one yet (a second click adds nothing); returns those created."""
    already = set(
        ErasureRequest.objects.filter(candidate__in=candidates, status=ErasureRequest.Status.OPEN).values_list(
            "candidate_id", flat=True
        )
    )
    return ErasureRequest.objects.bulk_create(
        [
            ErasureRequest(candidate=candidate, requested_by=user, reason=reason)
            for candidate in candidates
            if candidate.pk not in already
        ]
    )


def erasure_request_reject(*, request: ErasureRequest, user) -> bool:
    """Close an open request without erasing (compare-and-set: False if it was decided meanwhile)."""
    return bool(
        ErasureRequest.objects.filter(pk=request.pk, status=ErasureRequest.Status.OPEN).update(
            status=ErasureRequest.Status.REJECTED, decided_by=user, decided_at=timezone.now()
        )
    )
