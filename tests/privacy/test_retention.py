"""Retention (issue 18): candidates without activity for RETENTION_DAYS, in no open job's pipeline, are erased or
anonymised; the dry run lists exactly those the real run then removes."""

import datetime as dt
import json
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from ingestion.models import SourceFile
from jobs.models import Job
from privacy import retention, tasks
from privacy.access import subject_access_document
from privacy.models import PrivacyEvent, SourcingRecord, Suppression
from profiles import services
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    Education,
    Position,
    Repository,
    Shortlist,
    ShortlistEntry,
    ShortlistEntryEvent,
    SpokenLanguage,
)
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    EducationFactory,
    PositionFactory,
    RepositoryFactory,
    SkillFactory,
    SourceFileFactory,
    SpokenLanguageFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

DAYS = 730
NOW = timezone.now()
LONG_AGO = NOW - dt.timedelta(days=DAYS + 10)
RECENTLY = NOW - dt.timedelta(days=DAYS - 10)


def _aged(candidate, when=LONG_AGO):
    """Backdate every trace of activity the factories left: the candidate's times and its history rows."""
    Candidate.objects.filter(pk=candidate.pk).update(created_at=when, updated_at=when)
    Candidate.history.filter(id=candidate.pk).update(history_date=when)
    return candidate


def _job(owner, status=Job.Status.OPEN, name="Backend"):
    pipeline = Shortlist.objects.create(owner=owner, name=f"{name} pipeline")
    return Job.objects.create(title=name, description="A job", owner=owner, pipeline=pipeline, status=status)


def _add(shortlist, candidate, owner, when=LONG_AGO):
    services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[candidate.pk], user=owner)
    ShortlistEntry.objects.filter(shortlist=shortlist, candidate=candidate).update(added_at=when)
    ShortlistEntryEvent.objects.filter(entry__shortlist=shortlist, entry__candidate=candidate).update(at=when)


@pytest.fixture
def people():
    """One candidate per case, each named for what should happen to them."""
    owner = UserFactory(username="rita")
    open_job, closed_job = _job(owner), _job(owner, status=Job.Status.CLOSED, name="Frontend")
    plain = Shortlist.objects.create(owner=owner, name="Maybe later")
    p = {
        "idle": _aged(CandidateFactory(name="Ivy Idle")),
        "idle_in_closed_job": _aged(CandidateFactory(name="Cleo Closed")),
        "idle_on_plain_shortlist": _aged(CandidateFactory(name="Pia Plain")),
        "kept_in_open_job": _aged(CandidateFactory(name="Olga Open")),
        "kept_edited": _aged(CandidateFactory(name="Eve Edited"), when=RECENTLY),
        "kept_imported": _aged(CandidateFactory(name="Ian Imported")),
        "kept_moved": _aged(CandidateFactory(name="Max Moved")),
        "kept_history": _aged(CandidateFactory(name="Hal History")),
    }
    _add(closed_job.pipeline, p["idle_in_closed_job"], owner)
    _add(plain, p["idle_on_plain_shortlist"], owner)
    _add(open_job.pipeline, p["kept_in_open_job"], owner)
    SourceFileFactory(candidate=p["idle"])
    SourceFile.objects.filter(candidate=p["idle"]).update(created_at=LONG_AGO, processed_at=LONG_AGO)
    SourceFileFactory(candidate=p["kept_imported"])  # received now
    _add(closed_job.pipeline, p["kept_moved"], owner)
    ShortlistEntryEvent.objects.filter(entry__candidate=p["kept_moved"]).update(at=RECENTLY)
    Candidate.history.filter(id=p["kept_history"].pk).update(history_date=RECENTLY)
    return p


def _names(queryset):
    return sorted(queryset.values_list("name", flat=True))


@override_settings(RETENTION_DAYS=DAYS)
def test_expired_are_those_without_activity_for_the_period_and_in_no_open_pipeline(people):
    assert _names(retention.expired_candidates(now=NOW)) == ["Cleo Closed", "Ivy Idle", "Pia Plain"]


@override_settings(RETENTION_DAYS=DAYS + 30)
def test_a_longer_period_keeps_them_all(people):
    assert not retention.expired_candidates(now=NOW).exists()


def test_the_open_pipeline_names_privacy_uses_are_those_of_jobs():
    """privacy may not import jobs (layers): the names it queries by are pinned here against jobs.models."""
    assert Job.pipeline.field.related_query_name() == retention.PIPELINE_OWNER
    assert Job.Status.OPEN == retention.OPEN_STATUS


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_the_dry_run_lists_exactly_those_the_real_run_erases(people, capsys):
    call_command("retention", "--dry-run")
    listed = capsys.readouterr().out
    before = set(Candidate.objects.values_list("pk", flat=True))

    call_command("retention")

    after = set(Candidate.objects.values_list("pk", flat=True))
    erased = before - after
    listed_ids = {int(line.split("\t")[0]) for line in listed.splitlines() if "\t" in line}
    assert listed_ids == erased == {people[k].pk for k in ("idle", "idle_in_closed_job", "idle_on_plain_shortlist")}
    assert "3 candidates would be erased" in listed
    kept = {k for k in people if k.startswith("kept")}
    assert {people[k].pk for k in kept} <= after
    # Erased through the erasure service: suppression records stay, the retention run is reported.
    assert Suppression.objects.exists()
    report = PrivacyEvent.objects.get(kind=PrivacyEvent.Kind.RETENTION)
    assert report.counts["erased"] == 3
    assert report.counts["retention_days"] == DAYS
    assert PrivacyEvent.objects.filter(kind=PrivacyEvent.Kind.ERASURE).count() == 3


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_a_second_run_finds_nothing_and_says_so(people):
    retention.retention_apply(now=NOW)

    report = retention.retention_apply(now=NOW)

    assert report.counts["erased"] == 0
    assert report.counts["expired"] == 0


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_a_run_is_limited_to_a_batch_and_says_more_are_left(people):
    report = retention.retention_apply(now=NOW, limit=2)

    assert report.counts["erased"] == 2
    assert report.more_left
    assert _names(retention.expired_candidates(now=NOW)) in (["Pia Plain"], ["Cleo Closed"], ["Ivy Idle"])


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_a_candidate_added_to_an_open_pipeline_after_the_selection_is_kept(people):
    owner = UserFactory(username="late")
    idle = people["idle"]
    job = _job(owner, name="Late job")
    services.shortlist_add_candidates(shortlist=job.pipeline, candidate_ids=[idle.pk], user=owner)

    retention.retention_apply(now=NOW, candidate_ids=[idle.pk])

    assert Candidate.objects.filter(pk=idle.pk).exists()


@pytest.fixture
def idle_person():
    """An expired candidate with a row in every table, a public repository others use and a repository of their own."""
    owner = UserFactory(username="rita")
    ada = CandidateFactory(name="Ada Quux", email="ada.quux@example.com", website="https://ada.example.org")
    other = CandidateFactory(name="Bob Bystander")
    CandidateSkillFactory(candidate=ada, skill=SkillFactory(slug="python", name="Python"), score=9)
    shared = RepositoryFactory(full_name="python/cpython")
    ContributionFactory(candidate=ada, repository=shared, commits=41, role="Core dev", summary="Ada's parser work")
    ContributionFactory(candidate=other, repository=shared, commits=3)
    ContributionFactory(candidate=ada, repository=RepositoryFactory(full_name="adaquux/engine"), commits=90)
    EducationFactory(candidate=ada, school="Quux University")
    PositionFactory(candidate=ada, company="Analytical Ltd")
    SpokenLanguageFactory(candidate=ada, name="French", code="fr", raw="French (Ada's mother tongue)")
    CandidateIdentifier.objects.create(candidate=ada, kind="github", value="adaquux")
    _add(Shortlist.objects.create(owner=owner, name="Old list"), ada, owner)
    services.shortlist_entry_note(entry=ShortlistEntry.objects.get(candidate=ada), text="Ada said not now", user=owner)
    ShortlistEntryEvent.objects.filter(entry__candidate=ada).update(at=LONG_AGO)
    ada.headline = "Engineer of engines"
    services.candidate_save_by_hand(candidate=ada, user=owner, reason="Edited")
    SourceFileFactory(candidate=ada, content=b"Ada Quux\nada.quux@example.com\n")
    SourceFile.objects.filter(candidate=ada).update(created_at=LONG_AGO, processed_at=LONG_AGO)
    return _aged(ada)


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="anonymise")
def test_anonymise_keeps_skills_and_contribution_stats_without_anything_that_names_the_person(idle_person):
    ada = idle_person
    file_ids = list(SourceFile.objects.filter(candidate=ada).values_list("pk", flat=True))

    report = retention.retention_apply(now=NOW)

    assert report.counts["anonymised"] == 1
    kept = Candidate.objects.get(pk=ada.pk)
    assert kept.name == retention.ANONYMISED_NAME
    assert (kept.country_code, kept.years_coding, kept.years_employed) == ("DE", 8, 6)
    assert (kept.email, kept.website, kept.headline, kept.company, kept.city, kept.summary) == ("",) * 6
    assert list(CandidateSkill.objects.filter(candidate=ada).values_list("skill__slug", "score")) == [("python", 9)]
    # A public project's contribution keeps its numbers, not its words; their own repository goes.
    assert list(Contribution.objects.filter(candidate=ada).values_list("repository__full_name", "commits", "role")) == [
        ("python/cpython", 41, "")
    ]
    assert not Repository.objects.filter(full_name="adaquux/engine").exists()
    assert list(SpokenLanguage.objects.filter(candidate=ada).values_list("code", "raw")) == [("fr", "")]
    for model in (CandidateIdentifier, Education, Position, ShortlistEntry, SourcingRecord):
        assert not model.objects.filter(candidate=ada).exists(), model
    assert not Candidate.history.filter(id=ada.pk).exists()
    assert file_ids
    assert list(SourceFile.objects.filter(pk__in=file_ids).values_list("size", "candidate")) == [(0, None)]
    text = json.dumps(subject_access_document(candidate_id=ada.pk))
    for needle in ("Ada", "Quux", "quux", "adaquux", "ada.example.org", "Analytical"):
        assert needle not in text, needle
    assert not Suppression.objects.exists()  # the person may be sourced again, as a new candidate
    assert PrivacyEvent.objects.get(kind=PrivacyEvent.Kind.RETENTION).counts["anonymised"] == 1


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="anonymise")
def test_an_anonymised_candidate_is_not_expired_again(idle_person):
    retention.retention_apply(now=NOW)
    _aged(idle_person)

    assert not retention.expired_candidates(now=NOW).exists()
    assert retention.retention_apply(now=NOW).counts["anonymised"] == 0


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="anonymise")
def test_the_dry_run_says_what_the_action_is_and_changes_nothing(idle_person, capsys):
    call_command("retention", "--dry-run")

    out = capsys.readouterr().out
    assert f"{idle_person.pk}\tAda Quux" in out
    assert "1 candidate would be anonymised" in out
    assert Candidate.objects.get(pk=idle_person.pk).name == "Ada Quux"
    assert not PrivacyEvent.objects.exists()


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_the_beat_task_runs_the_retention_and_queues_itself_again_while_more_are_left(people, monkeypatch):
    queued = []
    monkeypatch.setattr(tasks.retention_run, "delay", lambda: queued.append(True))
    monkeypatch.setattr(retention, "BATCH_SIZE", 2)

    tasks.retention_run()

    assert queued == [True]
    assert retention.expired_candidates().count() == 1


@override_settings(RETENTION_DAYS=DAYS)
def test_the_sourcing_records_list_shows_a_privacy_officer_who_the_next_run_retires(people, client, officer):
    for candidate in people.values():
        SourcingRecord.objects.get_or_create(candidate=candidate, defaults={"notice_due_at": LONG_AGO})
    client.force_login(officer)

    html = client.get("/admin/privacy/sourcingrecord/", {"retention": "expired"}).content.decode()

    assert [name for name in ("Ivy Idle", "Cleo Closed", "Pia Plain") if name in html] == [
        "Ivy Idle",
        "Cleo Closed",
        "Pia Plain",
    ]
    assert not [name for name in ("Olga Open", "Eve Edited", "Ian Imported", "Max Moved") if name in html]


# --- A retention run beside imports (review of issue 18) ------------------------------------------------------------


def _raise_from_the_server(sqlstate: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DO $$ BEGIN RAISE EXCEPTION 'raised for the test' USING ERRCODE = '{sqlstate}'; END $$")


def _failing_for(monkeypatch, candidate, sqlstate: str) -> None:
    real = retention.candidate_erase

    def erase(*, candidate: Candidate, **kwargs):
        if candidate.pk == unlucky_pk:
            _raise_from_the_server(sqlstate)
        return real(candidate=candidate, **kwargs)

    unlucky_pk = candidate.pk
    monkeypatch.setattr(retention, "candidate_erase", erase)


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_a_candidate_whose_erasure_meets_a_transient_database_error_is_skipped_and_the_run_goes_on(people, monkeypatch):
    """A serialization failure or a deadlock with a concurrent import of one person rolls back that person alone: the
    run erases the others, reports the one skipped, and the next run tries them again."""
    _failing_for(monkeypatch, people["idle_in_closed_job"], "40001")

    report = retention.retention_apply(now=NOW)

    assert _names(retention.expired_candidates(now=NOW)) == ["Cleo Closed"]
    assert sorted(report.candidate_ids) == sorted([people["idle"].pk, people["idle_on_plain_shortlist"].pk])
    assert (report.counts["expired"], report.counts["erased"], report.counts["skipped"]) == (3, 2, 1)
    assert PrivacyEvent.objects.get(kind=PrivacyEvent.Kind.RETENTION).counts == report.counts
    assert PrivacyEvent.objects.filter(kind=PrivacyEvent.Kind.ERASURE).count() == 2


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="anonymise")
def test_an_anonymisation_that_meets_a_deadlock_is_skipped_too(people, monkeypatch):
    real = retention.candidate_anonymise
    unlucky = people["idle"]

    def anonymise(*, candidate: Candidate, **kwargs):
        if candidate.pk == unlucky.pk:
            _raise_from_the_server("40P01")
        return real(candidate=candidate, **kwargs)

    monkeypatch.setattr(retention, "candidate_anonymise", anonymise)

    report = retention.retention_apply(now=NOW)

    assert (report.counts["anonymised"], report.counts["skipped"]) == (2, 1)
    assert Candidate.objects.get(pk=unlucky.pk).name == "Ivy Idle"


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_an_error_that_is_not_transient_still_stops_the_run(people, monkeypatch):
    from django.db import DataError

    _failing_for(monkeypatch, people["idle_in_closed_job"], "22001")

    with pytest.raises(DataError):
        retention.retention_apply(now=NOW)


def _retention_in_a_thread(candidate_ids: list[int]):
    """Retention of these candidates started in a thread of its own (its own connection): the thread, and the dict it
    leaves its report (or error) in."""
    outcome: dict = {}

    def run():
        try:
            outcome["report"] = retention.retention_apply(now=NOW, candidate_ids=candidate_ids)
        except Exception as exc:  # handed to the test, which asserts on it
            outcome["error"] = exc
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    return worker, outcome


def _until_waiting(other, locktype: str) -> None:
    """Until some session waits for a lock of ``locktype`` (at most 10 s)."""
    for _ in range(200):
        waiting = other.execute("SELECT count(*) FROM pg_locks WHERE locktype = %s AND NOT granted", [locktype])
        if waiting.fetchone()[0]:
            return
        time.sleep(0.05)


@pytest.mark.django_db(transaction=True)
@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_retention_locks_the_persons_identity_keys_before_their_row_as_the_loader_does():
    """The loader locks a person's identity keys (``db.locks.lock_keys``), then their candidate row. A
    retention run that took the row first and then the keys (``candidate_erase`` takes them) would deadlock with an
    import of the person; taking the keys first, it waits for the import and then erases."""
    import psycopg

    ada = _aged(CandidateFactory(name="Ada Quux"))
    CandidateIdentifier.objects.create(candidate=ada, kind="github", value="adaquux")
    with psycopg.connect(**connection.get_connection_params()) as importer:
        importer.execute("SELECT pg_advisory_xact_lock(hashtextextended('github:adaquux', 0))")
        worker, outcome = _retention_in_a_thread([ada.pk])
        _until_waiting(importer, "advisory")  # the run waits for the import's key lock
        importer.execute("SET LOCAL lock_timeout = '5s'")
        importer.execute("SELECT id FROM profiles_candidate WHERE id = %s FOR UPDATE", [ada.pk])  # then the row
    worker.join(timeout=30)

    assert "error" not in outcome, outcome.get("error")
    assert outcome["report"].counts["erased"] == 1
    assert not Candidate.objects.filter(pk=ada.pk).exists()


@pytest.mark.django_db(transaction=True)
@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_a_candidate_put_in_an_open_pipeline_while_retention_waits_for_their_row_is_kept():
    """Retention waits for the candidate's row (an edit holds it); meanwhile a recruiter's pipeline entry commits. A
    selection that waited inside its own statement (``NOT EXISTS ... FOR UPDATE``) would test the pipeline against
    its old snapshot and erase the person with the entry; the test made after the lock sees it."""
    import psycopg

    owner = UserFactory(username="rita")
    job = _job(owner)
    ada = _aged(CandidateFactory(name="Ada Quux"))
    with psycopg.connect(**connection.get_connection_params()) as editor:
        # An edit's lock: it conflicts with retention's FOR UPDATE, not with the pipeline entry's key-share check.
        editor.execute("SELECT id FROM profiles_candidate WHERE id = %s FOR NO KEY UPDATE", [ada.pk])
        worker, outcome = _retention_in_a_thread([ada.pk])
        _until_waiting(editor, "transactionid")  # the run waits for the edit's row lock
        services.shortlist_add_candidates(shortlist=job.pipeline, candidate_ids=[ada.pk], user=owner)  # commits
    worker.join(timeout=30)

    assert "error" not in outcome, outcome.get("error")
    assert outcome["report"].counts["erased"] == 0
    assert Candidate.objects.filter(pk=ada.pk).exists()
    assert ShortlistEntry.objects.filter(shortlist=job.pipeline, candidate=ada).exists()


# --- What a retention erasure leaves says so (review of issue 18) ---------------------------------------------------


@override_settings(RETENTION_DAYS=DAYS, RETENTION_ACTION="erase")
def test_a_file_of_a_person_retention_erased_is_refused_without_saying_they_asked(db):
    from tests.ingestion.imports import import_all, import_file, receive
    from tests.privacy.people import TOVE_FILE, tove_changed

    tove = _aged(import_file(TOVE_FILE))
    first = SourceFile.objects.get(candidate=tove)
    SourceFile.objects.filter(pk=first.pk).update(created_at=LONG_AGO, processed_at=LONG_AGO)

    retention.retention_apply(now=NOW)

    day = timezone.localdate()
    assert set(Suppression.objects.values_list("reason", flat=True)) == {Suppression.Reason.RETENTION}
    first.refresh_from_db()
    assert first.error == f"Erased on {day:%Y-%m-%d} under the retention policy; the file's content was deleted."
    batch = receive(("tove-again.json", tove_changed(summary="Back on the market.")))
    import_all(batch)
    refused = SourceFile.objects.get(batch=batch)
    assert refused.status == SourceFile.Status.FAILED
    assert refused.error == (
        f"This person's data was erased on {day:%Y-%m-%d} under the retention policy; the file was not imported"
    )
    assert bytes(refused.content) == b""
    assert not Candidate.objects.exists()


# --- Each kind of activity, done the way the product does it (issue 18: an import, an edit, a pipeline change) --------


def _tove_long_idle():
    """Tove imported, then every trace of it backdated past the period: expired, until something happens."""
    from tests.ingestion.imports import import_file
    from tests.privacy.people import TOVE_FILE

    tove = _aged(import_file(TOVE_FILE))
    SourceFile.objects.filter(candidate=tove).update(created_at=LONG_AGO, processed_at=LONG_AGO)
    SourcingRecord.objects.filter(candidate=tove).update(sourced_at=LONG_AGO, notice_due_at=LONG_AGO)
    assert list(retention.expired_candidates().values_list("pk", flat=True)) == [tove.pk]
    return tove


@override_settings(RETENTION_DAYS=DAYS)
def test_a_new_import_of_the_person_is_activity():
    from tests.ingestion.imports import import_all, receive
    from tests.privacy.people import tove_changed

    tove = _tove_long_idle()

    import_all(receive(("tove-2.json", tove_changed(summary="Now leads the platform team."))))

    assert SourceFile.objects.filter(candidate=tove).count() == 2
    assert not retention.expired_candidates().exists()


@override_settings(RETENTION_DAYS=DAYS)
def test_an_import_that_changes_nothing_of_theirs_is_activity_too():
    """A file of the same person with other bytes and the same content: nothing of theirs changes, yet the import
    found them again (its file is theirs, received now)."""
    import json

    from tests.ingestion.imports import import_all, receive
    from tests.privacy.people import TOVE_FILE

    tove = _tove_long_idle()
    same_content = json.dumps(json.loads(TOVE_FILE.read_text()), indent=4).encode()

    import_all(receive(("tove-reformatted.json", same_content)))

    assert Candidate.objects.get(pk=tove.pk).updated_at < retention.retention_cutoff()
    assert not retention.expired_candidates().exists()


@override_settings(RETENTION_DAYS=DAYS)
def test_an_edit_by_hand_is_activity():
    tove = _tove_long_idle()
    tove.headline = "Keeps services boring"

    services.candidate_save_by_hand(candidate=tove, user=UserFactory(username="rita"), reason="Phoned")

    assert not retention.expired_candidates().exists()


@override_settings(RETENTION_DAYS=DAYS)
@pytest.mark.parametrize("change", ["added", "moved", "noted"])
def test_a_pipeline_change_is_activity(change):
    owner = UserFactory(username="rita")
    tove = _tove_long_idle()
    closed = _job(owner, status=Job.Status.CLOSED, name="Closed")  # no open job keeps her: only the date does
    if change != "added":
        _add(closed.pipeline, tove, owner)
        assert retention.expired_candidates().exists()
    entry_of = lambda: ShortlistEntry.objects.get(candidate=tove)  # noqa: E731

    if change == "added":
        services.shortlist_add_candidates(shortlist=closed.pipeline, candidate_ids=[tove.pk], user=owner)
    elif change == "moved":
        services.shortlist_entry_move(entry=entry_of(), status="contacted", user=owner)
    else:
        services.shortlist_entry_note(entry=entry_of(), text="Call back in May", user=owner)

    assert not retention.expired_candidates().exists()
