"""Cursors beyond Django's own."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from django.db import connection

__all__ = ["bound_cursor"]


@contextmanager
def bound_cursor() -> Iterator[psycopg.Cursor]:
    """A cursor on Django's connection, in its transaction, that binds parameters on the server and can ``COPY``.

    With ``%b`` placeholders arrays travel in binary: Django's cursor renders every array element into the SQL text in
    Python, which costs more than the statements themselves on a chunk of thousands. Database errors still come out as
    Django's (IntegrityError, DataError, ...), so a bad value fails exactly as it would through
    ``connection.cursor()``.
    """
    with connection.cursor(), connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        yield cursor
