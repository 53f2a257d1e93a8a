"""Which database errors are worth retrying: read from the error's SQLSTATE, never from its message.

A retry helps only when the same statements, run again in a moment, can succeed: the connection was lost or could not
be made, or the server aborted the transaction because of a concurrent one (a serialization failure, a deadlock).
Every other error is a fact about the data or the code (a value refused, a limit exceeded such as "string is too
long for tsvector", a constraint, a syntax error) and comes back on every retry: it belongs to whatever caused it, a
file or a bug, never to the retry loop.

Django's database errors carry the driver's (psycopg's) as their ``__cause__``, which this unwraps: either kind can be
asked about.
"""

from __future__ import annotations

import psycopg

__all__ = ["TRANSIENT_SQLSTATES", "is_transient", "sqlstate_of"]

# https://www.postgresql.org/docs/current/errcodes-appendix.html
TRANSIENT_SQLSTATES = frozenset(
    {
        "40001",  # serialization_failure
        "40P01",  # deadlock_detected
        # The connection, outside class 08: the server ended the session (pg_terminate_backend, a shutdown, a crash),
        # or refused it for now (starting up, every connection slot taken).
        "57P01",  # admin_shutdown
        "57P02",  # crash_shutdown
        "57P03",  # cannot_connect_now
        "53300",  # too_many_connections
    }
)
_CONNECTION_CLASS = "08"  # connection_exception and its subclasses


def _driver_error(exc: BaseException) -> psycopg.Error | None:
    """The psycopg error behind ``exc``: itself, or what Django's wrapper was raised from."""
    if isinstance(exc, psycopg.Error):
        return exc
    cause = exc.__cause__
    return cause if isinstance(cause, psycopg.Error) else None


def sqlstate_of(exc: BaseException) -> str | None:
    """The SQLSTATE the server answered with, or None (an error of the driver, or not a database error)."""
    error = _driver_error(exc)
    return error.sqlstate if error is not None else None


def is_transient(exc: BaseException) -> bool:
    """True for a connection error, a serialization failure or a deadlock: an error that a retry can get past."""
    error = _driver_error(exc)
    if error is None:
        return False
    if error.sqlstate is None:
        # No answer from the server: the driver could not connect, or lost the connection (psycopg raises these as
        # OperationalError or InterfaceError). Its own refusals of a value (a NUL in a text) are DataErrors.
        return isinstance(error, psycopg.OperationalError | psycopg.InterfaceError)
    return error.sqlstate.startswith(_CONNECTION_CLASS) or error.sqlstate in TRANSIENT_SQLSTATES
