"""Celery tasks of the privacy app: thin, idempotent. The work lives in privacy.retention."""

from celery import shared_task

from privacy import retention


@shared_task(acks_late=True)
def retention_run() -> dict:
    """The beat's daily retention pass (``settings.CELERY_BEAT_SCHEDULE``): one batch of expired candidates erased or
    anonymised (``RETENTION_ACTION``), reported as a PrivacyEvent; queued again while more are left.

    Idempotent: a re-delivered or concurrent run selects again and finds what is already gone gone, and each
    candidate is checked again, locked, just before it goes (``retention.retention_apply``)."""
    report = retention.retention_apply(limit=retention.BATCH_SIZE)
    if report.more_left:
        retention_run.delay()
    return report.counts
