"""The erasure parses the unlinked stored files that name the person to tell whose they are: each on the per-file time
budget of an import (``INGEST_MAX_FILE_SECONDS``). A file read past it is listed for the privacy officer, as a file the
erasure cannot tell about is; it does not hold the erasure (and its locks) for as long as it takes."""

import time

import pytest

from ingestion import privacy as ingestion_privacy
from ingestion.models import SourceFile
from privacy.services import candidate_erase
from tests.factories import SourceFileFactory
from tests.ingestion.imports import import_file
from tests.privacy.people import TOVE_FILE, tove_changed

pytestmark = pytest.mark.django_db


def _slow_parse(seconds: float):
    """A parser that works the CPU for ``seconds`` (bounded: a budget that did not stop it fails the test instead of
    hanging it), then reads the file."""
    parse = ingestion_privacy.parse

    def slow(data, **kwargs):
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            pass
        return parse(data, **kwargs)

    return slow


def test_a_file_whose_parse_runs_past_the_file_budget_is_listed_for_review_and_kept(officer, settings, monkeypatch):
    """The erasure parsed with no time limit the very files that had failed as too slow to read."""
    tove = import_file(TOVE_FILE)
    settings.INGEST_MAX_FILE_SECONDS = 0.5
    too_slow = SourceFileFactory(content=tove_changed(), status=SourceFile.Status.FAILED, error="Took too long to read")
    monkeypatch.setattr(ingestion_privacy, "parse", _slow_parse(30))

    started = time.monotonic()
    event = candidate_erase(candidate=tove, user=officer)

    assert time.monotonic() - started < 15
    too_slow.refresh_from_db()
    assert bytes(too_slow.content) == tove_changed()  # left as it is, for the privacy officer
    assert event.to_review == {"source_files": [too_slow.pk]}
    assert event.counts["source_files_to_review"] == 1


def test_a_file_read_within_the_budget_is_still_told_hers_and_emptied(officer, settings, monkeypatch):
    tove = import_file(TOVE_FILE)
    settings.INGEST_MAX_FILE_SECONDS = 5
    hers = SourceFileFactory(content=tove_changed(), status=SourceFile.Status.FAILED, error="Took too long to read")
    monkeypatch.setattr(ingestion_privacy, "parse", _slow_parse(0.05))

    event = candidate_erase(candidate=tove, user=officer)

    hers.refresh_from_db()
    assert bytes(hers.content) == b""
    assert event.to_review == {}
