"""Search backends (``base``: the interface, ``sql``: PostgreSQL, the reference) and the one in use."""

from __future__ import annotations

import functools

from django.conf import settings
from django.utils.module_loading import import_string

from profiles.search.backends.base import SearchBackend

DEFAULT_BACKEND = "profiles.search.backends.sql.SqlBackend"


@functools.cache
def _backend(path: str) -> SearchBackend:
    backend = import_string(path)()
    if not isinstance(backend, SearchBackend):
        raise TypeError(f"SEARCH_BACKEND {path!r} is no profiles.search.backends.base.SearchBackend")
    return backend


def search_backend() -> SearchBackend:
    """The backend the ``SEARCH_BACKEND`` setting names (a dotted path to a ``SearchBackend`` subclass; default
    ``DEFAULT_BACKEND``), one instance per path and process."""
    return _backend(getattr(settings, "SEARCH_BACKEND", "") or DEFAULT_BACKEND)
