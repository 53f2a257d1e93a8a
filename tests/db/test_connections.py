"""The read connection follows the router: outside a web request (a test, a worker, a command) it is the primary.
Its replica side is covered against a real replica in tests/talentdb/test_replica.py."""

import pytest
from django.db import DEFAULT_DB_ALIAS

from db.connections import read_connection
from profiles.models import Candidate


@pytest.mark.django_db
def test_outside_a_request_raw_reads_go_to_the_primary():
    assert read_connection(Candidate).alias == DEFAULT_DB_ALIAS
