"""exports.services: a job is done only with its whole file written, counted and hashed (issue 15, hole 4); a run that
dies, times out or loses its claim never marks it done; re-runs rewrite the file; the per-user limit (hole 5)."""

import hashlib
import json
import time
from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.db import OperationalError
from django.utils import timezone

from exports import formats, services
from exports.models import Export
from exports.services import ExportLimitReached, export_create, export_run, exports_sweep
from profiles.models import Candidate
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db
ROW_URL = "https://talentdb.example/api/v1/candidates/{pk}/"


@pytest.fixture
def owner(db):
    return UserFactory(username="owner")


@pytest.fixture
def candidates(db) -> list[Candidate]:
    return [CandidateFactory(name=f"Person {i}") for i in range(5)]


def job(owner, format="jsonl", query="") -> Export:
    return export_create(owner=owner, format=format, query=query, row_url=ROW_URL)


def stored(export: Export) -> bytes:
    with storages["exports"].open(export.file_name, "rb") as file:
        return file.read()


def files_of(export_storage) -> list:
    return sorted(p for p in export_storage.rglob("*") if p.is_file()) if export_storage.exists() else []


def test_issue_15_hole_4_a_done_job_records_the_rows_size_and_sha256_of_its_whole_file(owner, candidates):
    export = export_run(export_id=job(owner).pk)

    content = stored(export)
    assert export.status == Export.Status.DONE
    assert export.rows_written == export.rows_total == 5
    assert export.file_size == len(content)
    assert export.file_sha256 == hashlib.sha256(content).hexdigest()
    rows = [json.loads(line) for line in content.decode().splitlines()]
    assert [row["url"] for row in rows] == [ROW_URL.format(pk=row["id"]) for row in rows]
    assert export.expires_at == export.finished_at + timedelta(hours=24)


def test_issue_15_hole_4_a_run_that_breaks_mid_file_fails_the_job_and_stores_no_file(
    owner, candidates, monkeypatch, export_storage
):
    def breaks_after_two(format, queryset, *, url, contacts):
        for n, line in enumerate(formats.export_lines(format, queryset, url=url, contacts=contacts)):
            if n == 2:
                raise RuntimeError("the disk is full")
            yield line

    monkeypatch.setattr(services, "export_lines", breaks_after_two)

    export = export_run(export_id=job(owner).pk)

    assert export.status == Export.Status.FAILED
    assert "RuntimeError" in export.error
    assert (export.file_name, export.file_size, export.file_sha256) == ("", None, "")
    assert files_of(export_storage) == []


def test_issue_15_hole_4_a_run_stopped_at_its_time_limit_fails_with_a_message(owner, candidates, monkeypatch):
    def slow(format, queryset, *, url, contacts):
        yield from formats.export_lines(format, queryset, url=url, contacts=contacts)
        raise SoftTimeLimitExceeded

    monkeypatch.setattr(services, "export_lines", slow)

    export = export_run(export_id=job(owner).pk)

    assert export.status == Export.Status.FAILED
    assert "time limit (3600 s)" in export.error


def test_issue_15_hole_4_a_database_outage_queues_the_job_again_for_the_tasks_retry(owner, candidates, monkeypatch):
    def outage(format, queryset, *, url, contacts):
        raise OperationalError("server closed the connection unexpectedly")
        yield

    monkeypatch.setattr(services, "export_lines", outage)
    export = job(owner)

    with pytest.raises(OperationalError):
        export_run(export_id=export.pk)

    export.refresh_from_db()
    assert export.status == Export.Status.QUEUED
    monkeypatch.undo()
    assert export_run(export_id=export.pk).status == Export.Status.DONE


def test_issue_15_hole_4_a_run_that_lost_its_claim_leaves_the_job_to_the_run_that_holds_it(
    owner, candidates, monkeypatch, export_storage
):
    export = job(owner)

    def taken_over(format, queryset, *, url, contacts):
        yield from formats.export_lines(format, queryset, url=url, contacts=contacts)
        # The sweeper took this run for lost and another worker claimed the job meanwhile.
        Export.objects.filter(pk=export.pk).update(claim_token="another-run")

    monkeypatch.setattr(services, "export_lines", taken_over)

    assert export_run(export_id=export.pk) is None

    export.refresh_from_db()
    assert export.status == Export.Status.RUNNING
    assert export.file_name == ""
    assert files_of(export_storage) == []


def test_issue_15_hole_4_a_job_runs_once_however_often_its_message_is_delivered(owner, candidates):
    export = export_run(export_id=job(owner).pk)
    first = stored(export)

    assert export_run(export_id=export.pk) is None  # a second delivery of the same message

    export.refresh_from_db()
    assert (export.status, export.attempts, stored(export)) == (Export.Status.DONE, 1, first)


def test_issue_15_hole_4_a_job_whose_worker_was_lost_is_queued_again_and_rewritten_from_scratch(
    owner, candidates, export_storage, django_capture_on_commit_callbacks, settings
):
    export = job(owner)
    # A run that wrote part of its file and then lost its worker: running, silent since.
    silent = timezone.now() - timedelta(seconds=settings.EXPORT_STALE_AFTER_SECONDS + 1)
    Export.objects.filter(pk=export.pk).update(
        status=Export.Status.RUNNING, attempts=1, heartbeat_at=silent, rows_written=3
    )
    storages["exports"].save(f"{export.pk}/lost-run.jsonl", ContentFile(b'{"half": '))

    with django_capture_on_commit_callbacks() as enqueued:
        result = exports_sweep()

    assert (result.requeued, result.failed) == (1, 0)
    assert len(enqueued) == 1  # the task's message, sent once the transaction commits
    export = export_run(export_id=export.pk)
    assert (export.status, export.attempts, export.rows_written) == (Export.Status.DONE, 2, 5)
    assert [p.name for p in files_of(export_storage)] == [export.file_name.split("/")[-1]]
    assert len(stored(export).splitlines()) == 5


def test_issue_15_hole_4_a_job_lost_three_times_is_failed_not_queued_again(owner, settings):
    export = job(owner)
    silent = timezone.now() - timedelta(seconds=settings.EXPORT_STALE_AFTER_SECONDS + 1)
    Export.objects.filter(pk=export.pk).update(status=Export.Status.RUNNING, attempts=3, heartbeat_at=silent)

    result = exports_sweep()

    export.refresh_from_db()
    assert (result.requeued, result.failed) == (0, 1)
    assert export.status == Export.Status.FAILED
    assert "interrupted 3 times" in export.error


def test_issue_15_hole_4_a_running_job_that_reports_is_left_alone_by_the_sweeper(owner):
    export = job(owner)
    Export.objects.filter(pk=export.pk).update(status=Export.Status.RUNNING, heartbeat_at=timezone.now())

    assert exports_sweep().requeued == 0


def test_issue_15_hole_4_files_are_deleted_after_the_retention_time(owner, candidates, export_storage):
    kept, old = export_run(export_id=job(owner).pk), export_run(export_id=job(owner, format="csv").pk)
    Export.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    assert exports_sweep().expired == 1

    old.refresh_from_db()
    assert (old.status, old.file_name) == (Export.Status.EXPIRED, "")
    assert [p.name for p in files_of(export_storage)] == [kept.file_name.split("/")[-1]]


def test_issue_15_hole_5_a_user_runs_at_most_the_configured_number_of_exports(owner, settings):
    settings.EXPORT_MAX_CONCURRENT = 2
    first, _second = job(owner), job(owner, format="csv")

    with pytest.raises(ExportLimitReached, match="You have 2 exports running"):
        job(owner)

    Export.objects.filter(pk=first.pk).update(status=Export.Status.DONE, file_name="x", file_size=1, file_sha256="x")
    job(owner)  # a finished job frees its place
    assert Export.objects.filter(owner=owner).count() == 3


def test_issue_15_hole_5_streams_count_against_the_limit_until_released_or_lapsed(owner, settings, monkeypatch):
    settings.EXPORT_MAX_CONCURRENT = 2
    candidates = Candidate.objects.all()
    slot = services.export_stream_start(user=owner, queryset=candidates)
    job(owner)

    with pytest.raises(ExportLimitReached, match="2 exports running"):
        services.export_stream_start(user=owner, queryset=candidates)

    slot.release()
    lapsing = services.export_stream_start(user=owner, queryset=candidates)
    assert services.export_streams_running(user=owner) == 1
    # A stream whose process died never releases its slot: it lapses after STREAM_SLOT_SECONDS.
    now = time.time()
    monkeypatch.setattr(services.time, "time", lambda: now + services.STREAM_SLOT_SECONDS + 1)
    assert services.export_streams_running(user=owner) == 0
    lapsing.release()


def test_issue_15_hole_4_a_stream_larger_than_the_setting_is_refused(owner, candidates, settings):
    settings.EXPORT_STREAM_MAX_ROWS = 4

    with pytest.raises(services.ApplicationError, match="more than 4 candidates") as refused:
        services.export_stream_start(user=owner, queryset=Candidate.objects.all())

    assert refused.value.code == "too_many_rows"
    assert services.export_streams_running(user=owner) == 0


def test_a_bad_query_or_format_is_refused_before_a_job_exists(owner):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        job(owner, query="skill=python:eleven")
    with pytest.raises(services.ApplicationError, match="format"):
        job(owner, format="xlsx")
    assert not Export.objects.exists()


def test_streams_slots_live_in_the_projects_cache_under_its_key_prefix(owner, settings):
    """One caching helper (STYLE): the slots are kept through Django's cache, its connection and its KEY_PREFIX."""
    from django.core.cache import cache

    slot = services.export_stream_start(user=owner, queryset=Candidate.objects.all())
    key = cache.make_key(f"exports:streams:{owner.pk}")
    client = cache._cache.get_client(key)

    assert key.startswith(settings.CACHES["default"]["KEY_PREFIX"])
    assert client.zscore(key, slot.member) is not None
    slot.release()
    assert client.zscore(key, slot.member) is None
