"""Celery tasks of the talent domain: thin and idempotent. The work lives in profiles.services."""

from celery import shared_task
from django.db import DatabaseError

from db.errors import is_transient
from profiles import services


@shared_task(bind=True, acks_late=True, max_retries=3)
def refresh_related_skills(self) -> dict:
    """Beat: recompute the related skills. A re-run (a re-delivery, a retry) stores the same rows again."""
    try:
        return vars(services.related_skills_refresh())
    except DatabaseError as exc:
        if is_transient(exc):  # the connection, a deadlock: the same statements can pass in a moment
            raise self.retry(exc=exc, countdown=60) from exc
        raise
