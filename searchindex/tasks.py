"""Celery tasks of the searchindex app: thin, idempotent. The work lives in searchindex.services."""

import datetime as dt

from celery import shared_task
from django.conf import settings

from searchindex.services import changes_prune


@shared_task(acks_late=True)
def prune_changes() -> int:
    """The beat's outbox prune (``settings.CELERY_BEAT_SCHEDULE``): rows older than SEARCH_INDEX_OUTBOX_KEEP_MINUTES
    go. Idempotent: a second run finds them gone."""
    return changes_prune(keep=dt.timedelta(minutes=settings.SEARCH_INDEX_OUTBOX_KEEP_MINUTES))
