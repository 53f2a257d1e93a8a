"""The identity-key locks an import and an erasure share (issue 18): a file naming the person by another spelling of
a key (their site with ``www.`` and a trailing slash, their e-mail in capitals) waits for an erasure of them, and an
erasure waits for such an import."""

import psycopg
import pytest
from django.db import OperationalError, connection

from db.locks import lock_keys
from privacy.services import candidate_erase
from profiles.models import CandidateIdentifier
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db


def _held_elsewhere(importer, text: str) -> None:
    importer.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [text])
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL lock_timeout = '200ms'")


def test_an_erasure_waits_for_an_import_of_another_spelling_of_the_persons_site(officer):
    # Made by hand, not imported: an import in this test's transaction would hold the locks itself until the end.
    tove = CandidateFactory(name="Tove Lindqvist")
    CandidateIdentifier.objects.create(candidate=tove, kind="url", value="https://tove.example.org")
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as importer:
        # What a load of a file naming "http://www.tove.example.org/" holds besides its own spelling: the site's key.
        _held_elsewhere(importer, "url:tove.example.org")
        with pytest.raises(OperationalError, match="lock timeout"):
            candidate_erase(candidate=tove, user=officer)


@pytest.mark.parametrize(
    ("key", "erasure_holds"),
    [
        (("url", "http://www.tove.example.org"), "url:tove.example.org"),
        (("email", "mailto:tove.lindqvist@example.org"), "email:tove.lindqvist@example.org"),
    ],
)
def test_an_import_of_another_spelling_waits_for_an_erasure_of_the_person(key, erasure_holds):
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as eraser:
        _held_elsewhere(eraser, erasure_holds)
        with pytest.raises(OperationalError, match="lock timeout"):
            lock_keys([key])
