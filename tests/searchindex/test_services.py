"""The outbox is pruned on the primary by the beat, whether or not an index process runs anywhere."""

import datetime as dt

import pytest
from django.db import connection

from profiles.models import Candidate
from searchindex.services import changes_prune
from searchindex.tasks import prune_changes
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db


def _age_rows(candidate_ids, *, by: dt.timedelta) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE searchindex_change SET created_at = created_at - %s WHERE object_id = ANY(%s)",
            [by, list(candidate_ids)],
        )


def _outbox_ids() -> set[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT object_id FROM searchindex_change WHERE kind = 'c'")
        return {row[0] for row in cursor.fetchall()}


def test_changes_older_than_the_bound_are_deleted_and_newer_ones_kept(settings):
    settings.SEARCH_INDEX_OUTBOX_KEEP_MINUTES = 60
    old, recent = CandidateFactory(), CandidateFactory()
    _age_rows([old.pk], by=dt.timedelta(minutes=61))
    _age_rows([recent.pk], by=dt.timedelta(minutes=59))
    assert {old.pk, recent.pk} <= _outbox_ids()

    deleted = changes_prune(keep=dt.timedelta(minutes=settings.SEARCH_INDEX_OUTBOX_KEEP_MINUTES))

    assert deleted >= 1
    assert old.pk not in _outbox_ids()
    assert recent.pk in _outbox_ids()


def test_the_beat_task_prunes_by_the_setting_and_is_safe_to_run_again(settings):
    settings.SEARCH_INDEX_OUTBOX_KEEP_MINUTES = 5
    old, recent = CandidateFactory(), CandidateFactory()
    _age_rows([old.pk], by=dt.timedelta(minutes=6))

    prune_changes()
    prune_changes()

    assert old.pk not in _outbox_ids()
    assert recent.pk in _outbox_ids()
    assert Candidate.objects.filter(pk__in=[old.pk, recent.pk]).count() == 2


def test_the_prune_runs_on_the_beat_and_keeps_more_than_the_index_may_lag(settings):
    entry = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "searchindex.tasks.prune_changes")

    assert entry["schedule"] > 0
    assert settings.SEARCH_INDEX_OUTBOX_KEEP_MINUTES * 60 > settings.SEARCH_INDEX_MAX_LAG_SECONDS
