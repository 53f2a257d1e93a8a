"""A task queued by name: the one Celery registered, found without importing every app's tasks."""

import subprocess
import sys

import pytest

from db.queueing import registered_task
from ingestion import tasks

pytestmark = pytest.mark.django_db

# A process that is no worker (the web, ``manage.py ingest``) after Django's setup, as it queues its first task.
FIRST_TASK_IN_A_WEB_PROCESS = """
import sys
import django
django.setup()
from db.queueing import registered_task
task = registered_task("ingestion.tasks.import_files")
print(task.name, "exports.tasks" in sys.modules, "searchindex.tasks" in sys.modules)
"""


def test_the_task_is_the_one_celery_registered():
    assert registered_task("ingestion.tasks.import_files") is tasks.import_files._get_current_object()


def test_a_process_that_is_no_worker_imports_the_tasks_module_of_the_name_alone():
    result = subprocess.run(
        [sys.executable, "-c", FIRST_TASK_IN_A_WEB_PROCESS], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.split() == ["ingestion.tasks.import_files", "False", "False"]
