"""Which database errors are worth retrying, on errors a real PostgreSQL server raises."""

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction

from db.errors import is_transient


def _error_from_the_server(sqlstate: str) -> DatabaseError:
    # The savepoint rolls back the error, not the test's transaction.
    with pytest.raises(DatabaseError) as caught, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DO $$ BEGIN RAISE EXCEPTION 'raised for the test' USING ERRCODE = '{sqlstate}'; END $$")
    return caught.value


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("sqlstate", "transient"),
    [
        ("08006", True),  # connection_failure: class 08, connection exceptions
        ("08001", True),  # sqlclient_unable_to_establish_sqlconnection
        ("40001", True),  # serialization_failure
        ("40P01", True),  # deadlock_detected
        ("57P01", True),  # admin_shutdown: the server ended the session (pg_terminate_backend)
        ("57P03", True),  # cannot_connect_now: the server is starting up
        ("53300", True),  # too_many_connections: refused at connect, free again in a moment
        ("54000", False),  # program_limit_exceeded: "string is too long for tsvector", an OperationalError
        ("53100", False),  # disk_full: an operator's problem, not one a retry in seconds solves
        ("57014", False),  # query_canceled (a statement timeout): the same statement would be cancelled again
        ("40002", False),  # transaction_integrity_constraint_violation: class 40, but no race
        ("23514", False),  # check_violation
        ("22001", False),  # string_data_right_truncation
        ("42601", False),  # syntax_error
        ("XX000", False),  # internal_error
    ],
)
def test_only_connection_serialization_and_deadlock_errors_are_transient(sqlstate, transient):
    error = _error_from_the_server(sqlstate)

    assert error.__cause__.sqlstate == sqlstate
    assert is_transient(error) is transient
    assert is_transient(error.__cause__) is transient  # psycopg's own error, unwrapped


def test_an_error_the_driver_raises_without_a_server_answer_is_a_connection_error():
    assert is_transient(psycopg.OperationalError("connection failed: Connection refused"))
    assert is_transient(psycopg.InterfaceError("the connection is closed"))
    assert not is_transient(psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes"))
    assert not is_transient(ValueError("not a database error"))
