"""An export job through a real Celery worker (issue 15, hole 4): queued on commit, written by the worker's task with
its own time limits, downloadable whole."""

import hashlib

import pytest
from django.core.files.storage import storages

from conftest import TEST_EXPORT_QUEUE, wait_for
from exports.models import Export
from exports.services import export_create
from exports.tasks import run_export
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.worker


def test_issue_15_hole_4_a_worker_writes_the_queued_export_whole(start_worker, export_storage):
    for i in range(25):
        CandidateFactory(name=f"Person {i}")
    worker = start_worker(EXPORT_DIR=str(export_storage))

    export = export_create(owner=UserFactory(), format="jsonl", query="", row_url="https://x/{pk}")  # commits: sent

    def finished() -> bool:
        export.refresh_from_db()
        return export.status in (Export.Status.DONE, Export.Status.FAILED)

    wait_for(finished, timeout=90, message=f"the export to finish; worker log:\n{worker.output()}")
    assert export.status == Export.Status.DONE, export.error
    with storages["exports"].open(export.file_name, "rb") as file:
        content = file.read()
    assert len(content.splitlines()) == export.rows_written == 25
    assert hashlib.sha256(content).hexdigest() == export.file_sha256


def test_the_export_task_has_time_limits_of_its_own_above_the_imports(settings):
    assert run_export.soft_time_limit == settings.EXPORT_TASK_SOFT_TIME_LIMIT > settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert run_export.time_limit == run_export.soft_time_limit + 60


def test_issue_15_hole_4_export_jobs_have_a_queue_of_their_own_so_they_never_hold_the_import_workers(settings):
    """An export job may run for an hour: on the imports' queue two of them would stop imports for that long, and on the
    default queue the sweeper and the inbox scans."""
    from talentdb.celery import app

    assert settings.CELERY_TASK_ROUTES[run_export.name] == {"queue": settings.EXPORT_QUEUE}
    assert settings.EXPORT_QUEUE not in (settings.CELERY_TASK_DEFAULT_QUEUE, settings.INGEST_QUEUE)
    # The tests' private queues (conftest) route the same way, and the tests' workers consume them all.
    assert app.amqp.router.route({}, run_export.name)["queue"].name == TEST_EXPORT_QUEUE
    assert app.amqp.router.route({}, "exports.tasks.sweep_exports")["queue"].name == app.conf.task_default_queue
