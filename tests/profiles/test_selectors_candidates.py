"""The columns a candidate list or a CSV line loads are those its fields name (``profiles.candidate_fields``): a
field added there travels with the page's one query, never as a query per row."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from profiles.candidate_fields import CSV_COLUMNS, LIST_FIELDS
from profiles.models import Candidate
from profiles.selectors import candidates_for_listing
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db

COLUMNS = {field.name for field in Candidate._meta.concrete_fields}
LOCATION = ("city", "region", "country", "country_code")


def test_a_listed_candidate_has_every_column_its_list_and_csv_fields_name():
    named = {column for name in (*LIST_FIELDS, *CSV_COLUMNS) for column in (LOCATION if name == "location" else [name])}
    CandidateFactory.create_batch(2)

    with CaptureQueriesContext(connection) as queries:
        rows = list(candidates_for_listing())
        values = [[getattr(row, column) for column in sorted(named & COLUMNS)] for row in rows]

    assert len(queries) == 1
    assert len(values) == 2
    assert not rows[0].get_deferred_fields() & named
