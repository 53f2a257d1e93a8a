"""Erasure (issue 18): the person goes from every table, suppression records stay, and the audit row says only that
it happened."""

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from exports import services as export_services
from exports.models import Export
from ingestion import services as ingestion_services
from ingestion.models import ImportBatch, SourceFile
from privacy.access import subject_access_document
from privacy.hashing import identifier_digest
from privacy.models import ErasureRequest, PrivacyEvent, SourcingRecord, Suppression
from privacy.services import candidate_erase, erasure_request_create
from profiles import services as profile_services
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    MergeRecord,
    Repository,
    SavedSearch,
    Shortlist,
    ShortlistEntry,
)
from tests.factories import CandidateFactory, ContributionFactory, SourceFileFactory
from tests.ingestion.imports import import_file, receive
from tests.privacy.people import OTHER_FILE, TOVE_FILE, TOVE_NEEDLES, tove_bytes, tove_changed
from tests.privacy.scan import found_in_database

pytestmark = pytest.mark.django_db


def _tove_everywhere(officer, recruiter, export_storage):
    """Tove imported, and then everything a team does with a candidate: an edit (history), a shortlist with a note, an
    admin log entry, a merge of a duplicate of her, an export file, a failed file of hers linked to no candidate, an
    erasure request, a colleague's commits to a repository of her account (it stays, under no name of hers)."""
    tove = import_file(TOVE_FILE)
    # The batch labels ``manage.py ingest`` and the admin's upload write by default: the paths, the file names.
    ImportBatch.objects.filter(files__candidate=tove).update(label=f"inbox/sre/{TOVE_FILE.name}")
    ContributionFactory(repository=Repository.objects.get(full_name="tovelq/lighthouse-probe"), commits=3)
    tove.headline = "Keeps services boring"
    profile_services.candidate_save_by_hand(candidate=tove, user=recruiter, reason="edited by hand")

    shortlist = Shortlist.objects.create(name="SRE hires", owner=recruiter)
    profile_services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[tove.pk], user=recruiter)
    entry = ShortlistEntry.objects.get(shortlist=shortlist, candidate=tove)
    profile_services.shortlist_entry_note(entry=entry, text="Tove Lindqvist replied on LinkedIn", user=recruiter)
    LogEntry.objects.create(
        user=recruiter,
        content_type=ContentType.objects.get_for_model(Candidate),
        object_id=str(tove.pk),
        object_repr=str(tove),
        action_flag=CHANGE,
        change_message="[]",
    )
    LogEntry.objects.create(
        user=recruiter,
        content_type=ContentType.objects.get_for_model(Shortlist),
        object_id=str(shortlist.pk),
        object_repr=str(shortlist),
        action_flag=CHANGE,
        change_message=f'[{{"changed": {{"name": "shortlist entry", "object": "{tove} in SRE hires"}}}}]',
    )

    duplicate = CandidateFactory(name="Tove Lindqvist", email="tove.lindqvist@example.org", city="Göteborg")
    profile_services.candidates_merge(survivor=tove, others=[duplicate], user=recruiter)

    SavedSearch.objects.create(name="The SRE", owner=recruiter, query="q=Tove+Lindqvist")  # found decoded
    SavedSearch.objects.create(name="Her account", owner=recruiter, query="q=tovelq&country=SE")
    SavedSearch.objects.create(name="Go people", owner=recruiter, query="skill=go:5")
    Export.objects.create(owner=recruiter, format="csv", query="q=tovelq", row_url="/c/{pk}")
    export = export_services.export_create(owner=recruiter, format="jsonl", query="", row_url="/c/{pk}")
    export_services.export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == Export.Status.DONE
    assert b"tovelq" in (export_storage / export.file_name).read_bytes()

    upload = ingestion_services.batch_create(
        origin=ImportBatch.Origin.ADMIN, label="tove-lindqvist.json, tove_lindqvist_cv.json", user=recruiter
    )
    stray = SourceFileFactory(
        batch=upload,
        content=tove_changed(label="Draft"),
        status=SourceFile.Status.FAILED,
        error="The database refused it",
    )
    erasure_request_create(candidates=[tove], user=recruiter, reason="Asked by e-mail on 1 December")
    tove.refresh_from_db()
    return tove, export, stray


def test_erasure_leaves_the_person_in_no_column_of_any_table(
    officer, recruiter, export_storage, django_capture_on_commit_callbacks
):
    tove, export, stray = _tove_everywhere(officer, recruiter, export_storage)
    found_before = {table for table, _, _ in found_in_database(TOVE_NEEDLES)}
    assert {  # the scan sees her wherever the team's work put her
        "profiles_candidate",
        "profiles_candidateidentifier",
        "profiles_historicalcandidate",
        "profiles_mergerecord",
        "profiles_repository",
        "profiles_shortlistentryevent",
        "ingestion_sourcefile",
        "django_admin_log",
        "profiles_savedsearch",
        "exports_export",
        "ingestion_importbatch",
    } <= found_before

    with django_capture_on_commit_callbacks(execute=True):  # files are deleted once the erasure commits
        event = candidate_erase(candidate=tove, user=officer)

    assert found_in_database(TOVE_NEEDLES) == []
    assert not Candidate.objects.filter(pk=tove.pk).exists()
    assert not Candidate.history.model.objects.filter(id=tove.pk).exists()
    assert not MergeRecord.objects.exists()
    export.refresh_from_db()
    assert export.status == Export.Status.EXPIRED
    assert list(export_storage.rglob("*.jsonl")) == []
    stray.refresh_from_db()
    assert bytes(stray.content) == b""
    assert stray.status == SourceFile.Status.FAILED
    assert event.counts["source_files"] == 2  # her imported file and the stray one
    assert ErasureRequest.objects.get().status == ErasureRequest.Status.DONE
    assert list(SavedSearch.objects.values_list("name", flat=True)) == ["Go people"]
    assert Export.objects.get(format="csv").status == Export.Status.FAILED


def test_suppression_rows_are_keyed_hashes_of_her_identifiers(officer, recruiter):
    tove = import_file(TOVE_FILE)
    keys = set(CandidateIdentifier.objects.filter(candidate=tove).values_list("kind", "value"))

    candidate_erase(candidate=tove, user=officer)

    stored = set(Suppression.objects.values_list("kind", "digest"))
    assert {(kind, identifier_digest(kind, value)) for kind, value in keys} <= stored
    assert (CandidateIdentifier.Kind.EMAIL, identifier_digest("email", "tove.lindqvist@example.org")) in stored
    assert all(len(digest) == 64 for _, digest in stored)
    assert set(Suppression.objects.values_list("erased_by", flat=True)) == {officer.pk}


def test_the_audit_row_records_the_erasure_with_counts_and_no_personal_data(officer):
    tove = import_file(TOVE_FILE)

    event = candidate_erase(candidate=tove, user=officer)

    event.refresh_from_db()
    assert event.kind == PrivacyEvent.Kind.ERASURE
    assert event.by == officer
    assert event.counts["candidates"] == 1
    assert event.counts["suppressions"] >= 4
    assert all(isinstance(value, int) for value in event.counts.values())
    assert not any(needle.lower() in str(event.counts).lower() for needle in TOVE_NEEDLES)


def test_repositories_only_she_contributed_to_go_and_shared_ones_stay(officer):
    tove = import_file(TOVE_FILE)
    own = list(Repository.objects.filter(contributions__candidate=tove).values_list("full_name", flat=True))
    assert any(name.startswith("tovelq/") for name in own)

    candidate_erase(candidate=tove, user=officer)

    assert not Repository.objects.filter(full_name__in=own).exists()


def test_a_different_person_is_left_as_they_were(officer):
    tove = import_file(TOVE_FILE)
    noor = import_file(OTHER_FILE)
    noor_file = SourceFile.objects.get(candidate=noor)

    candidate_erase(candidate=tove, user=officer)

    assert Candidate.objects.filter(pk=noor.pk).exists()
    assert SourcingRecord.objects.filter(candidate=noor).exists()
    noor_file.refresh_from_db()
    assert bytes(noor_file.content) == OTHER_FILE.read_bytes()


def test_an_erasure_that_fails_changes_nothing(officer, monkeypatch):
    tove = import_file(TOVE_FILE)

    def broken(context):
        raise RuntimeError("step failed")

    monkeypatch.setattr("privacy.services.erasure.erasure_steps", lambda: {"broken": broken})
    with pytest.raises(RuntimeError):
        candidate_erase(candidate=tove, user=officer)

    assert Candidate.objects.filter(pk=tove.pk).exists()
    assert not Suppression.objects.exists()
    assert not PrivacyEvent.objects.exists()


def test_an_unlinked_file_of_a_namesake_elsewhere_keeps_its_bytes(officer):
    tove = import_file(TOVE_FILE)
    namesake = tove_changed(email="tove@elsewhere.example", profiles=[], url="", location={"city": "Malmö"})
    batch = receive(("namesake.json", namesake))
    source = batch.files.get()
    SourceFile.objects.filter(pk=source.pk).update(status=SourceFile.Status.FAILED, error="The database refused it")

    candidate_erase(candidate=tove, user=officer)

    source.refresh_from_db()
    assert bytes(source.content) == namesake


def test_an_unlinked_file_naming_her_with_other_case_is_emptied_too(officer):
    tove = import_file(TOVE_FILE)
    shouted = tove_changed(email="Tove.Lindqvist@EXAMPLE.org", name="TOVE LINDQVIST")
    stray = SourceFileFactory(content=shouted, status=SourceFile.Status.FAILED, error="The database refused it")

    candidate_erase(candidate=tove, user=officer)

    stray.refresh_from_db()
    assert bytes(stray.content) == b""
    assert stray.original_name == "(withheld: an erased person)"


def test_an_erasure_waits_for_an_import_holding_the_persons_identity_keys(officer):
    """The loader locks each identity key ("kind:value", ``db.locks.lock_keys``); the erasure takes the same
    locks, so a load of the person in progress commits first and is erased with the rest."""
    import psycopg
    from django.db import OperationalError, connection

    # Made by hand, not imported: an import in this test's transaction would hold the locks itself until the end.
    tove = CandidateFactory(name="Tove Lindqvist")
    CandidateIdentifier.objects.create(candidate=tove, kind="github", value="tovelq")
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as importer:
        importer.execute("SELECT pg_advisory_lock(hashtextextended('github:tovelq', 0))")
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '200ms'")
        with pytest.raises(OperationalError, match="lock timeout"):
            candidate_erase(candidate=tove, user=officer)


def test_the_reasons_of_every_request_about_her_are_emptied_closed_ones_too(officer, recruiter):
    tove = import_file(TOVE_FILE)
    noor = import_file(OTHER_FILE)
    (rejected,) = erasure_request_create(candidates=[tove], user=recruiter, reason="Tove Lindqvist phoned, +46 31")
    ErasureRequest.objects.filter(pk=rejected.pk).update(
        status=ErasureRequest.Status.REJECTED, decided_at=tove.created_at
    )
    (open_one,) = erasure_request_create(candidates=[tove], user=recruiter, reason="tove.lindqvist@example.org wrote")
    (about_noor,) = erasure_request_create(candidates=[noor], user=recruiter, reason="Noor asked on 2 December")

    candidate_erase(candidate=tove, user=officer)

    assert set(ErasureRequest.objects.filter(pk__in=[rejected.pk, open_one.pk]).values_list("reason", flat=True)) == {
        "(erased)"
    }
    assert ErasureRequest.objects.get(pk=rejected.pk).status == ErasureRequest.Status.REJECTED
    assert ErasureRequest.objects.get(pk=open_one.pk).status == ErasureRequest.Status.DONE
    assert ErasureRequest.objects.get(pk=about_noor.pk).reason == "Noor asked on 2 December"


def test_shared_rows_on_record_for_a_file_of_hers_are_taken_back_once_the_erasure_commits(
    officer, django_capture_on_commit_callbacks
):
    """A file of hers that failed (or whose import is under way) still has on record the shared rows created for it
    before its load; emptied by the erasure, it is a failed file whose rows are taken back, not forgotten."""
    from ingestion.models import SharedRowCreated
    from profiles.models import Skill
    from tests.factories import SkillFactory

    tove = import_file(TOVE_FILE)
    stray = SourceFileFactory(content=tove_changed(), status=SourceFile.Status.FAILED, error="The worker died")
    SkillFactory(slug="tovelq-tooling", name="tovelq tooling")
    SharedRowCreated.objects.create(source_file=stray, kind=SharedRowCreated.Kind.SKILL, key="tovelq-tooling")

    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=tove, user=officer)

    assert not Skill.objects.filter(slug="tovelq-tooling").exists()
    assert not SharedRowCreated.objects.exists()


def test_an_unlinked_file_naming_her_in_utf8_with_accents_is_emptied(officer):
    """The scan of unlinked files reads their bytes as ``encode(..., 'escape')`` writes them: a name with accents is
    found as its UTF-8 bytes, and an ASCII needle without case (a backslash in a needle is a backslash)."""
    import json

    from tests.ingestion.imports import import_all

    def written(**basics) -> bytes:
        document = json.loads(TOVE_FILE.read_text())
        document["basics"].update(basics)
        return json.dumps(document, ensure_ascii=False).encode()

    batch = receive(("zoe.json", written(name="Zoë Ångström", email="", url="", profiles=[])))
    import_all(batch)
    zoe = SourceFile.objects.get(batch=batch).candidate
    stray = SourceFileFactory(
        content=written(name="Zoë Ångström", email="", url="", profiles=[], summary="C:\\path"),
        status=SourceFile.Status.FAILED,
        error="The database refused it",
    )
    other = SourceFileFactory(
        content=written(name="Zoe Angstrom", email="", url="", profiles=[], location={"city": "Lund"}),
        status=SourceFile.Status.FAILED,
        error="The database refused it",
    )

    candidate_erase(candidate=zoe, user=officer)

    stray.refresh_from_db()
    other.refresh_from_db()
    assert bytes(stray.content) == b""
    assert bytes(other.content) != b""


def test_the_filter_choices_cache_is_forgotten_once_the_erasure_commits(officer, django_capture_on_commit_callbacks):
    from django.core.cache import cache

    from profiles.selectors import FILTER_CHOICES_KEY, candidate_filter_choices

    tove = import_file(TOVE_FILE)
    candidate_filter_choices()
    assert cache.get(FILTER_CHOICES_KEY) is not None

    with django_capture_on_commit_callbacks(execute=True):
        candidate_erase(candidate=tove, user=officer)

    assert cache.get(FILTER_CHOICES_KEY) is None


def _truncated(data: bytes, *, through: bytes) -> bytes:
    """The file cut just after ``through``: JSON no parser reads, as an interrupted upload leaves it."""
    return data[: data.index(through) + len(through)]


def test_a_failed_file_no_parser_reads_holding_her_email_and_account_url_is_emptied(officer, client):
    tove = import_file(TOVE_FILE)
    truncated = _truncated(tove_bytes(), through=b'"url": "https://github.com/tovelq"')
    batch = receive(("upload-7.json", truncated))
    ingestion_services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="test")
    stray = batch.files.get()
    assert stray.status == SourceFile.Status.FAILED
    document = subject_access_document(candidate_id=tove.pk)
    assert [row["id"] for row in document["source_files_not_linked"]] == [stray.pk]

    event = candidate_erase(candidate=tove, user=officer)

    stray.refresh_from_db()
    assert (bytes(stray.content), stray.original_name) == (b"", "(withheld: an erased person)")
    assert stray.error.startswith("Erased on ")
    assert event.counts["source_files"] == 2
    assert found_in_database(TOVE_NEEDLES) == []
    client.force_login(officer)
    page = client.get(reverse("admin:ingestion_sourcefile_text", args=[stray.pk])).content.decode()
    assert "tovelq" not in page


@pytest.mark.parametrize(
    "variant",
    [
        b'{"basics": {"email": "TOVE.LINDQVIST@example.ORG", "summary": "cut',
        b'{"basics": {"profiles": [{"url": "http://www.GitHub.com/ToveLQ/"}, {"url": "https://gitl',
        b"Contact: mailto:tove.lindqvist@example.org\n\x00\xff",
    ],
    ids=["email-in-other-case", "account-url-spelt-otherwise", "not-json-at-all"],
)
def test_a_failed_file_holding_her_email_or_account_url_in_another_spelling_is_emptied(officer, variant):
    tove = import_file(TOVE_FILE)
    stray = SourceFileFactory(content=variant, status=SourceFile.Status.FAILED, error="Not a profile file")

    candidate_erase(candidate=tove, user=officer)

    stray.refresh_from_db()
    assert bytes(stray.content) == b""


def test_a_failed_file_naming_her_only_by_name_stays_and_is_listed_for_the_privacy_officer(officer):
    """A name is not an identifier: "Tove Lindqvist" in a file no parser reads may be a namesake's. The erasure does
    not guess; it lists the file on its audit row for a privacy officer to look at."""
    tove = import_file(TOVE_FILE)
    by_name = SourceFileFactory(
        content=b'{"basics": {"name": "Tove Lindqvist", "label": "SRE", "loc',
        status=SourceFile.Status.FAILED,
        error="Not a profile file",
    )
    by_account_word = SourceFileFactory(
        content=b"tovelq wrote this runbook\n\x00", status=SourceFile.Status.FAILED, error="Not a profile file"
    )
    elsewhere = SourceFileFactory(
        content=b'{"basics": {"name": "Noor Rahimi", "em', status=SourceFile.Status.FAILED, error="Not a profile file"
    )

    event = candidate_erase(candidate=tove, user=officer)

    for source in (by_name, by_account_word, elsewhere):
        before = bytes(source.content)
        source.refresh_from_db()
        assert bytes(source.content) == before
    assert event.to_review == {"source_files": [by_name.pk, by_account_word.pk]}
    assert event.counts["source_files_to_review"] == 2


@pytest.mark.parametrize(
    "variant",
    [
        b'{"projects": [{"url": "https://github.com/tovelq"}, {"na',
        b'{"projects": [{"url": "https:\\/\\/github.com\\/tovelq\\/"}, {"na',
        b"See github.com/tovelq?tab=repositories and \x00",
        b"See (https://github.com/tovelq#readme) and \x00",
        b"Her page: https://www.github.com/ToveLQ/",
    ],
    ids=["json", "json-escaped-slashes", "query", "fragment-in-brackets", "end-of-text"],
)
def test_a_failed_file_holding_her_account_url_wherever_it_ends_is_emptied(officer, variant):
    tove = import_file(TOVE_FILE)
    stray = SourceFileFactory(content=variant, status=SourceFile.Status.FAILED, error="Not a profile file")

    candidate_erase(candidate=tove, user=officer)

    stray.refresh_from_db()
    assert bytes(stray.content) == b""


@pytest.mark.parametrize(
    "link",
    [b"https://github.com/tovelq/runbooks", b"https:\\/\\/github.com\\/tovelq\\/runbooks\\/"],
    ids=["url", "json-escaped-slashes"],
)
def test_a_failed_file_linking_a_repository_of_hers_is_listed_for_review_not_emptied(officer, link):
    """Someone else's CV may link a project of hers (``github.com/tovelq/runbooks``): the account is not the end of
    the URL, so it is not her profile's address, and the file is a privacy officer's to look at."""
    tove = import_file(TOVE_FILE)
    content = b'{"basics": {"name": "Noor Rahimi"}, "projects": [{"url": "' + link + b'"}, {"na'
    theirs = SourceFileFactory(content=content, status=SourceFile.Status.FAILED, error="Not a profile file")

    event = candidate_erase(candidate=tove, user=officer)

    theirs.refresh_from_db()
    assert bytes(theirs.content) == content
    assert event.to_review == {"source_files": [theirs.pk]}


def test_the_failed_files_to_review_are_linked_from_the_erasure_in_the_admin(officer, client):
    tove = import_file(TOVE_FILE)
    by_name = SourceFileFactory(content=b"Tove Lindqvist\n\x00", status=SourceFile.Status.FAILED, error="Unreadable")
    event = candidate_erase(candidate=tove, user=officer)
    client.force_login(officer)

    page = client.get(reverse("admin:privacy_privacyevent_change", args=[event.pk])).content.decode()

    assert reverse("admin:ingestion_sourcefile_change", args=[by_name.pk]) in page


def test_the_search_for_files_naming_her_reads_only_files_linked_to_no_one(officer, monkeypatch):
    """Every candidate's own files are left unread, however many name her (a colleague's CV that mentions her): the
    scan reads the bytes of unlinked files only, and parses only those that hold one of her names or identifiers."""
    from ingestion import privacy as ingestion_privacy

    tove = import_file(TOVE_FILE)
    colleagues = [
        SourceFileFactory(candidate=CandidateFactory(), content=f"Worked with Tove Lindqvist ({n})".encode())
        for n in range(3)
    ]
    naming_her = SourceFileFactory(content=b"Tove Lindqvist\n\x00", status=SourceFile.Status.FAILED, error="Unread")
    SourceFileFactory(content=b"Someone else entirely\n", status=SourceFile.Status.FAILED, error="Unread")
    read = []
    parse = ingestion_privacy._document_or_none
    monkeypatch.setattr(ingestion_privacy, "_document_or_none", lambda pk, data: read.append(pk) or parse(pk, data))

    candidate_erase(candidate=tove, user=officer)

    assert read == [naming_her.pk]
    for source in colleagues:
        source.refresh_from_db()
        assert bytes(source.content).startswith(b"Worked with Tove Lindqvist")
