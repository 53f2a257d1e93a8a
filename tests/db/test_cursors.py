"""The bound cursor: server-side parameters and binary arrays, in Django's transaction, with Django's errors."""

import pytest
from django.db import IntegrityError, connection, transaction

from db.cursors import bound_cursor

pytestmark = pytest.mark.django_db


def test_an_array_travels_bound_and_comes_back_whole():
    values = ["plain", "it's quoted", "", "naïve", "a,b"]

    with bound_cursor() as cursor:
        cursor.execute("SELECT k FROM unnest(%b::text[]) WITH ORDINALITY AS t(k, n) ORDER BY n", [values])
        rows = [row[0] for row in cursor]

    assert rows == values


def test_it_writes_in_djangos_transaction():
    with transaction.atomic():
        with bound_cursor() as cursor:
            cursor.execute("CREATE TEMPORARY TABLE bound_cursor_probe (v int)")
            cursor.execute("INSERT INTO bound_cursor_probe SELECT unnest(%b::int[])", [[1, 2, 3]])
        transaction.set_rollback(True)

    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('bound_cursor_probe')")
        assert cursor.fetchone()[0] is None  # rolled back with Django's transaction


def test_it_copies_rows():
    with bound_cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE bound_cursor_copy (v int, t text)")
        with cursor.copy("COPY bound_cursor_copy (v, t) FROM STDIN") as copy:
            copy.write_row((1, "one"))
            copy.write_row((2, "two"))
        cursor.execute("SELECT v, t FROM bound_cursor_copy ORDER BY v")
        assert cursor.fetchall() == [(1, "one"), (2, "two")]


def test_a_database_error_comes_out_as_djangos():
    with bound_cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE bound_cursor_unique (v int PRIMARY KEY)")

    with pytest.raises(IntegrityError), transaction.atomic(), bound_cursor() as cursor:
        cursor.execute("INSERT INTO bound_cursor_unique SELECT unnest(%b::int[])", [[7, 7]])
