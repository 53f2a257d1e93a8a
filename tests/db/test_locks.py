"""The identity-key locks: every form of a key is locked, until the transaction ends, so a taker holding another
spelling of the same key waits."""

import psycopg
import pytest
from django.db import OperationalError, connection, transaction

from db.locks import lock_keys

pytestmark = pytest.mark.django_db


def _other_session():
    return psycopg.connect(**connection.get_connection_params(), autocommit=True)


def _held_by_us(other, text: str) -> bool:
    """True when this test's transaction holds the lock: another session cannot take it."""
    taken = other.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [text]).fetchone()[0]
    if taken:
        other.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [text])
    return not taken


def test_every_form_of_each_key_is_locked_until_the_transaction_ends():
    with _other_session() as other, transaction.atomic():
        lock_keys([("url", "http://www.tove.example.org/"), ("email", "Tove.Lindqvist@example.org")])

        assert _held_by_us(other, "url:tove.example.org")
        assert _held_by_us(other, "email:tove.lindqvist@example.org")
        assert not _held_by_us(other, "url:someone-else.example.org")


def test_a_key_held_elsewhere_makes_the_taker_wait():
    with _other_session() as other:
        other.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", ["email:tove.lindqvist@example.org"])
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '200ms'")

        with pytest.raises(OperationalError, match="lock timeout"):
            lock_keys([("email", "mailto:TOVE.LINDQVIST@example.org")])


def test_no_keys_lock_nothing():
    lock_keys([])  # an empty array: the statement runs and takes no lock

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")
        assert cursor.fetchone()[0] == 0
