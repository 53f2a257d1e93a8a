"""The database a raw-SQL read runs on: the one Django reads the model from, as a queryset of it would.

``django.db.connection`` is always the primary: a read written as SQL on it skips the router (talentdb/db_router.py),
so a web request's replica would serve its ORM reads and the primary the rest. Every read-only ``cursor()`` of the
selectors takes its connection here instead; writers (services, loaders, the search columns' refresh) keep
``connection``, the primary, where every write goes.
"""

from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

__all__ = ["read_connection"]


def read_connection(model: type[Model]) -> BaseDatabaseWrapper:
    """The connection the router reads ``model`` from: a web request's replica, or the primary (in a worker or a
    command, after a write that pins the client, and inside a transaction of the primary, which alone sees its
    writes)."""
    return connections[router.db_for_read(model)]
