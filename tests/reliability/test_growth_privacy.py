"""The erasure's search of stored files linked to no candidate, timed on inputs that double: linear in the files it
reads, and flat in the files of every candidate, which it never reads (``ingestion.privacy``)."""

from __future__ import annotations

import hashlib
import uuid

import pytest

from ingestion.models import SourceFile
from ingestion.privacy import unlinked_files_about_them
from privacy.services import erasure_context
from tests.factories import CandidateFactory
from tests.ingestion.imports import import_file
from tests.privacy.people import TOVE_FILE
from tests.reliability.growth import assert_near_linear, measure_growth

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]


def _files(n: int, *, content: bytes, candidate=None, status=SourceFile.Status.FAILED) -> None:
    rows = []
    for _ in range(n):
        data = content + uuid.uuid4().hex.encode()
        rows.append(
            SourceFile(
                original_name="f.json",
                content=data,
                sha256=hashlib.sha256(data).hexdigest(),
                size=len(data),
                status=status,
                error="Not a profile file" if status == SourceFile.Status.FAILED else "",
                candidate=candidate,
            )
        )
    SourceFile.objects.bulk_create(rows, batch_size=1000)


def test_the_search_grows_linearly_with_the_failed_files_naming_her():
    context = erasure_context(import_file(TOVE_FILE))
    made = [0]

    def make_input(n: int):
        _files(n - made[0], content=b'{"basics": {"name": "Tove Lindqvist", "email": "tove.lindqvist@example.org", ')
        made[0] = n
        return context

    growth = measure_growth(lambda c: unlinked_files_about_them(c), make_input, base=250)

    assert_near_linear(growth, what="the erasure's search of failed files naming her")
    print(growth.describe())


def test_the_search_does_not_grow_with_the_files_of_candidates():
    context = erasure_context(import_file(TOVE_FILE))
    _files(200, content=b'{"basics": {"name": "Tove Lindqvist", "email": "tove.lindqvist@example.org", ')
    owner = CandidateFactory()
    made = [0]

    def make_input(n: int):
        _files(n - made[0], content=b"Worked with Tove Lindqvist " * 40, candidate=owner, status="imported")
        made[0] = n
        return context

    growth = measure_growth(lambda c: unlinked_files_about_them(c), make_input, base=5_000)

    print(growth.describe())
    assert growth.total_ratio < 4, f"the search reads the candidates' files: {growth.describe()}"
