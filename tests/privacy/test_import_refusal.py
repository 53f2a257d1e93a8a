"""A file about an erased person is refused (issue 18): the same file, a changed file of hers, and a file that
only her name and town give away; a different person, a namesake elsewhere among them, imports as before."""

import pytest
from django.utils import timezone

from ingestion.models import SourceFile
from privacy.models import PrivacyEvent, SourcingRecord
from privacy.services import candidate_erase
from profiles.models import Candidate
from tests.ingestion.imports import import_all, import_file, receive
from tests.privacy.people import OTHER_FILE, TOVE_FILE, tove_bytes, tove_changed

pytestmark = pytest.mark.django_db


@pytest.fixture
def erased(officer):
    tove = import_file(TOVE_FILE)
    candidate_erase(candidate=tove, user=officer)
    return timezone.localdate()


def _import(name: str, data: bytes) -> SourceFile:
    batch = receive((name, data))
    import_all(batch)
    return SourceFile.objects.get(batch=batch)


def _assert_refused(source: SourceFile, day) -> None:
    assert source.status == SourceFile.Status.FAILED
    assert source.error == f"This person asked to be erased on {day:%Y-%m-%d}; the file was not imported"
    assert bytes(source.content) == b""
    assert source.size == 0
    assert "tove" not in source.original_name.lower()
    assert source.candidate_id is None
    assert source.warnings == []


def test_the_same_file_again_is_refused_and_keeps_no_bytes(erased):
    source = _import("tove-lindqvist.json", tove_bytes())

    _assert_refused(source, erased)
    assert not Candidate.objects.exists()
    assert PrivacyEvent.objects.filter(kind=PrivacyEvent.Kind.IMPORT_REFUSED, counts={"files": 1}).exists()


def test_a_changed_file_of_the_same_person_is_refused(erased):
    source = _import("tove-2.json", tove_changed(summary="Now leads the platform team."))

    _assert_refused(source, erased)
    assert not Candidate.objects.exists()


def test_her_file_under_another_email_is_refused_by_the_accounts_it_shares(erased):
    source = _import("tove-3.json", tove_changed(email="tove@new-employer.example"))

    _assert_refused(source, erased)


def test_her_name_and_town_alone_refuse_a_file_that_names_no_account(erased):
    source = _import("tove-4.json", tove_changed(email="", url="", profiles=[]))

    _assert_refused(source, erased)


def test_a_namesake_in_the_same_town_with_accounts_of_their_own_imports(erased):
    namesake = tove_changed(
        email="tove.l@another.example",
        url="",
        profiles=[{"network": "GitHub", "username": "tove-other", "url": "https://github.com/tove-other"}],
    )
    source = _import("namesake.json", namesake)

    assert source.status == SourceFile.Status.IMPORTED, source.error
    assert source.candidate.name == "Tove Lindqvist"


def test_a_different_person_imports_as_before(erased):
    source = _import(OTHER_FILE.name, OTHER_FILE.read_bytes())

    assert source.status == SourceFile.Status.IMPORTED, source.error
    assert bytes(source.content) == OTHER_FILE.read_bytes()


def test_in_one_chunk_only_the_erased_persons_file_is_refused(erased):
    batch = receive(("tove.json", tove_bytes()), (OTHER_FILE.name, OTHER_FILE.read_bytes()))

    import_all(batch)

    files = {source.status: source for source in batch.files.all()}
    assert set(files) == {SourceFile.Status.FAILED, SourceFile.Status.IMPORTED}
    _assert_refused(files[SourceFile.Status.FAILED], erased)
    assert files[SourceFile.Status.IMPORTED].candidate.name == "Noor Rahimi"


def test_the_refused_bytes_sent_again_are_already_stored_and_stay_refused(erased):
    first = _import("tove.json", tove_bytes())
    batch = receive(("tove-again.json", tove_bytes()))

    assert batch.duplicates == 1
    first.refresh_from_db()
    _assert_refused(first, erased)


def test_the_check_costs_one_query_per_chunk(erased, django_assert_max_num_queries):
    from privacy.selectors import suppressed_documents

    keys = [[("email", f"person{n}@example.org"), ("name", f"person {n}|berlin|de")] for n in range(200)]
    with django_assert_max_num_queries(1):
        assert suppressed_documents(keys_by_doc=keys) == [None] * 200


def test_an_import_records_the_candidates_first_sourcing(db):
    tove = import_file(TOVE_FILE)
    source = SourceFile.objects.get(candidate=tove)

    record = SourcingRecord.objects.get(candidate=tove)
    assert record.source_file_id == source.pk
    assert record.source_batch_id == source.batch_id
    assert record.lawful_basis == SourcingRecord.LawfulBasis.LEGITIMATE_INTEREST
    assert record.notified_at is None
    assert record.notice_due_at.date() > record.sourced_at.date()
    assert (record.notice_due_at - record.sourced_at).days in range(28, 32)

    _import("tove-2.json", tove_changed())  # a later file of hers: the record stays the first one's
    assert SourcingRecord.objects.get(candidate=tove).source_file_id == source.pk


def test_sending_a_refused_or_erased_file_through_the_import_again_leaves_its_message(erased):
    from ingestion.services import source_files_requeue

    source = _import("tove.json", tove_bytes())
    erased_file = SourceFile.objects.exclude(pk=source.pk).get()

    assert source_files_requeue(file_ids=[source.pk, erased_file.pk]) == 0

    source.refresh_from_db()
    _assert_refused(source, erased)
    erased_file.refresh_from_db()
    assert erased_file.error.startswith(f"Erased on {erased:%Y-%m-%d} at the person's request")
