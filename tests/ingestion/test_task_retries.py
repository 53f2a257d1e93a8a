"""What the import task retries (issue 15, hole 3): a transient database error, never a file's content.

The task runs eagerly here (``apply``), its retries too; what it did is read from the files' rows (each run claims
its files again, counting an attempt).
"""

import pytest

from ingestion import services, tasks
from ingestion.models import ImportBatch, SourceFile
from tests.ingestion.resumes import project, resume

pytestmark = pytest.mark.django_db


def _batch(*files: tuple[str, bytes]) -> list[int]:
    batch = services.batch_create(origin=ImportBatch.Origin.CLI, label="retries")
    services.batch_receive(batch=batch, files=[services.IncomingFile(n, d) for n, d in files], enqueue=False)
    return list(batch.files.values_list("pk", flat=True))


def test_a_file_the_database_refuses_is_failed_at_once_and_the_task_is_not_retried(refusing_trigger):
    ids = _batch(("bad.json", resume("Tomas Refused", projects=[project("t", "k", summary="refuse:54000")])))

    result = tasks.import_files.apply(args=[ids])

    assert result.successful(), result.traceback
    assert result.result == "imported 0, updated 0, unchanged 0, failed 1"
    source = SourceFile.objects.get()
    assert (source.status, source.attempts) == (SourceFile.Status.FAILED, 1)


def test_a_deadlock_is_retried_until_the_task_gives_up(refusing_trigger):
    ids = _batch(("unlucky.json", resume("Tomas Unlucky", projects=[project("t", "k", summary="refuse:40P01")])))

    result = tasks.import_files.apply(args=[ids])

    assert result.failed()
    source = SourceFile.objects.get()
    assert source.status == SourceFile.Status.PROCESSING  # left to the sweeper, claimed by this task
    assert source.attempts == 1 + tasks.import_files.max_retries
