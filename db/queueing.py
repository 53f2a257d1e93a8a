"""The one way a service starts work in a worker: a task queued once the transaction commits.

A task is named, not imported: an app's ``tasks`` module imports the services it runs, at its top, and the services
never import it back. The task is the one Celery registered under that name (the worker's and the tests' alike), so a
test that replaces its ``delay`` sees what is queued.
"""

from __future__ import annotations

import importlib

from celery import current_app
from django.db import transaction

__all__ = ["registered_task", "task_on_commit"]


def task_on_commit(name: str, *args, robust: bool = False) -> None:
    """Queue the task ``name`` with ``args`` once the current transaction commits (at once outside one); with
    ``robust``, a broker out of reach is logged instead of raised (the sweeper or the beat makes the work up)."""
    transaction.on_commit(lambda: registered_task(name).delay(*args), robust=robust)


def registered_task(name: str):
    """The task Celery registered under ``name``. A process that is no worker (the web, ``manage.py ingest``) may not
    have imported its module yet: the module the name starts with is imported (a shared task is named after its
    module), and no other app's tasks, as a worker imports them all at its start."""
    if name not in current_app.tasks:
        importlib.import_module(name.rpartition(".")[0])
    return current_app.tasks[name]
