"""A file about an erased person is refused (issue 18): the same file, a changed file of hers, and a file that
only her name and town give away; a different person, a namesake elsewhere among them, imports as before."""

import pytest
from django.utils import timezone

from ingestion.models import SourceFile
from ingestion.services import importing, rebuilding
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


# --- An erasure that commits while an import of the person is under way (review of issue 18) -----------------------
# The check before the load is the fast path; the load checks again once it holds the person's identity-key locks,
# which the erasure takes too, so an erasure that commits between the two is still seen. In these tests the erasure
# runs in the import's own session, at the point where another worker's erasure could commit.


def _erase_tove_during(monkeypatch, module, name, officer):
    """Erase her (every candidate of hers) the first time ``module.name`` is called, then call the real one."""
    real = getattr(module, name)
    done = []

    def erasing_first(*args, **kwargs):
        if not done:
            done.append(True)
            for candidate in Candidate.objects.filter(name="Tove Lindqvist"):
                candidate_erase(candidate=candidate, user=officer)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, erasing_first)


def test_an_erasure_that_commits_after_the_check_and_before_the_load_still_refuses_the_file(
    officer, monkeypatch, django_capture_on_commit_callbacks
):
    from tests.privacy.people import TOVE_NEEDLES
    from tests.privacy.scan import found_in_database

    import_file(TOVE_FILE)
    batch = receive(("tove-new.json", tove_changed(summary="Now leads the platform team.")))
    _erase_tove_during(monkeypatch, importing, "_normalise_one", officer)

    with django_capture_on_commit_callbacks(execute=True):
        summary = import_all(batch)

    _assert_refused(SourceFile.objects.get(batch=batch), timezone.localdate())
    assert not Candidate.objects.exists()
    assert (summary.created, summary.updated, summary.failed) == (0, 0, 1)
    assert PrivacyEvent.objects.filter(kind=PrivacyEvent.Kind.IMPORT_REFUSED, counts={"files": 1}).exists()
    # Her repository, created again by the import before its load, is taken back with the refused file.
    assert found_in_database(TOVE_NEEDLES) == []


def test_in_one_chunk_the_file_of_a_person_erased_meanwhile_is_refused_and_the_others_import(officer, monkeypatch):

    import_file(TOVE_FILE)
    batch = receive(("tove-new.json", tove_changed()), (OTHER_FILE.name, OTHER_FILE.read_bytes()))
    _erase_tove_during(monkeypatch, importing, "_normalise_one", officer)

    import_all(batch)

    _assert_refused(batch.files.get(original_name__startswith="(withheld"), timezone.localdate())
    other = batch.files.get(original_name=OTHER_FILE.name)
    assert other.status == SourceFile.Status.IMPORTED, other.error
    assert list(Candidate.objects.values_list("name", flat=True)) == ["Noor Rahimi"]


def test_the_one_by_one_load_after_a_failed_chunk_checks_again_too(officer, monkeypatch):
    """A chunk whose set-based load fails is loaded a file at a time; each of those loads checks again."""
    from django.db import IntegrityError

    from ingestion.loaders import candidates

    import_file(TOVE_FILE)
    batch = receive(("tove-new.json", tove_changed()), (OTHER_FILE.name, OTHER_FILE.read_bytes()))
    real_write_children = candidates.write_children

    def refusing_noor(profile_by_candidate):
        real_write_children(profile_by_candidate)
        if any(profile.values["name"] == "Noor Rahimi" for profile in profile_by_candidate.values()):
            raise IntegrityError("simulated constraint violation for Noor")

    monkeypatch.setattr(candidates, "write_children", refusing_noor)
    _erase_tove_during(monkeypatch, importing, "_normalise_one", officer)

    summary = import_all(batch)

    _assert_refused(batch.files.get(original_name__startswith="(withheld"), timezone.localdate())
    other = batch.files.get(original_name=OTHER_FILE.name)
    assert other.status == SourceFile.Status.FAILED
    assert "simulated constraint violation" in other.error
    assert not Candidate.objects.exists()
    assert (summary.created, summary.failed) == (0, 2)
    assert PrivacyEvent.objects.filter(kind=PrivacyEvent.Kind.IMPORT_REFUSED, counts={"files": 1}).count() == 1


def test_a_rebuild_of_a_person_erased_after_its_files_were_chosen_refuses_them(officer, monkeypatch):
    """``reparse --all``: the files were chosen and claimed, then she was erased before their load."""
    from ingestion import services

    import_file(TOVE_FILE)
    import_file(OTHER_FILE)
    chosen = list(services.rebuild_chunks(size=200))
    _erase_tove_during(monkeypatch, rebuilding, "_rebuild_transaction", officer)

    summary = services.source_files_rebuild(file_ids=chosen[0], token="rebuild")

    tove_file = SourceFile.objects.exclude(original_name=OTHER_FILE.name).get()
    _assert_refused(tove_file, timezone.localdate())
    assert list(Candidate.objects.values_list("name", flat=True)) == ["Noor Rahimi"]
    assert summary.line() == "imported 0, updated 1, unchanged 0, failed 1"


def test_an_erasure_by_hand_is_recorded_as_the_persons_request(erased):
    from privacy.models import Suppression

    assert set(Suppression.objects.values_list("reason", flat=True)) == {Suppression.Reason.REQUEST}


def test_the_shared_rows_an_import_created_for_her_file_before_an_erasure_emptied_it_are_taken_back(
    officer, monkeypatch, django_capture_on_commit_callbacks
):
    """The import creates a file's new repositories and skills in short transactions of their own, before its load,
    and records them against the file (``SharedRowCreated``). An erasure that empties the file in between takes them
    back as a failed import does: a repository or skill named after her, no one else's, is not left behind."""
    import json

    from profiles.models import Repository, Skill
    from tests.privacy.people import TOVE_NEEDLES
    from tests.privacy.scan import found_in_database

    import_file(TOVE_FILE)
    document = json.loads(TOVE_FILE.read_text())
    document["projects"].append(
        {
            "name": "tovelq-dotfiles",
            "description": "Tove Lindqvist's dotfiles",
            "keywords": ["tovelq-tooling"],
            "url": "https://github.com/tovelq/tovelq-dotfiles",
        }
    )
    batch = receive(("tove-new.json", json.dumps(document).encode()))
    _erase_tove_during(monkeypatch, importing, "refuse_erased_meanwhile", officer)

    with django_capture_on_commit_callbacks(execute=True):
        import_all(batch)

    _assert_refused(SourceFile.objects.get(batch=batch), timezone.localdate())
    assert not Repository.objects.filter(full_name__icontains="dotfiles").exists()
    assert list(Skill.objects.filter(slug__icontains="tooling").values_list("slug", "name")) == []
    assert list(Repository.objects.filter(contributions__isnull=True).values_list("full_name", flat=True)) == []
    assert found_in_database(TOVE_NEEDLES) == []
