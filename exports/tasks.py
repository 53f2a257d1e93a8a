"""Celery tasks: thin and idempotent, id-based. The work and its state machine live in exports.services."""

from celery import shared_task
from django.conf import settings
from kombu.exceptions import OperationalError as BrokerOperationalError

from exports import services


# An export of a large search runs for minutes: it has time limits of its own instead of the imports' (240/300 s).
# Late acknowledgement and re-delivery on a lost worker are safe: a run claims the job only while it is queued, and
# every run writes the file from scratch. So is a run longer than the broker's visibility timeout (Redis then delivers
# the message again while it runs): that copy finds the job running and returns.
@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=services.TRANSIENT_ERRORS,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=5,
    soft_time_limit=settings.EXPORT_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.EXPORT_TASK_SOFT_TIME_LIMIT + 60,
)
def run_export(export_id: int) -> str | None:
    """Write the file of this export job."""
    export = services.export_run(export_id=export_id)
    return None if export is None else export.status


@shared_task(acks_late=True, autoretry_for=(*services.TRANSIENT_ERRORS, BrokerOperationalError), max_retries=5)
def sweep_exports() -> dict:
    """Beat: queue again the jobs a lost worker left, and delete expired files."""
    return vars(services.exports_sweep())
