"""Issue 14, reparse: ``manage.py reparse --all`` rebuilds every candidate from its stored files, so that a database
loaded by the code before the whole-candidate tables gains its jobs, spoken languages and study dates.

Such a database is simulated by importing fixtures, then deleting their Position and SpokenLanguage rows and the
education dates: the candidates keep the fingerprint (``document_sha256``) of the same parser output, which is what
an import would compare with, so only a rebuild that writes regardless of it brings the rows back.
"""

import io

import pytest
from django.core.management import call_command

from ingestion import services
from ingestion.documents import ParseError
from ingestion.models import SourceFile
from ingestion.services import importing
from profiles.models import Candidate, CandidateIdentifier, Education, Position, SpokenLanguage
from tests.factories import UserFactory
from tests.fixtures import JSONRESUME_DIR, PROGAI_DIR
from tests.ingestion.imports import import_all, receive

pytestmark = pytest.mark.django_db

ILSE = JSONRESUME_DIR / "ilse-marchetti.work-history.json"  # five jobs
RUTH = JSONRESUME_DIR / "ruth-okonkwo.skill-groups-and-languages.json"  # nine languages
TOVE = JSONRESUME_DIR / "tove-lindqvist.complete.json"  # education with dates
INGRID = PROGAI_DIR / "ingrid-valtonen.txt"


def reparse(*args) -> tuple[list[str], int]:
    out = io.StringIO()
    try:
        call_command("reparse", *args, stdout=out, stderr=io.StringIO())
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return out.getvalue().strip().splitlines(), code


def import_files(*files: tuple[str, bytes]) -> None:
    for name, data in files:  # one batch each: the order they were received in
        batch = receive((name, data))
        import_all(batch)
        source = SourceFile.objects.get(batch=batch)
        assert source.status == SourceFile.Status.IMPORTED, source.error


def as_if_loaded_by_the_code_before() -> None:
    Position.objects.all().delete()
    SpokenLanguage.objects.all().delete()
    Education.objects.update(start=None, end=None)


def state() -> dict:
    """What a recruiter reads of every candidate and what the files say of their import."""
    return {
        "candidates": list(Candidate.objects.order_by("pk").values()),
        "positions": list(
            Position.objects.order_by("candidate", "order").values_list(
                "candidate", "order", "company", "title", "start", "end", "is_current"
            )
        ),
        "languages": list(
            SpokenLanguage.objects.order_by("candidate", "position").values_list("candidate", "code", "fluency")
        ),
        "education": list(
            Education.objects.order_by("candidate", "position").values_list("candidate", "school", "start", "end")
        ),
        "identifiers": sorted(CandidateIdentifier.objects.values_list("candidate", "kind", "value")),
        "files": list(SourceFile.objects.order_by("pk").values_list("pk", "status", "candidate", "error")),
    }


def without_timestamps(snapshot: dict) -> dict:
    return {
        **snapshot,
        "candidates": [{k: v for k, v in c.items() if k != "updated_at"} for c in snapshot["candidates"]],
    }


def test_reparse_all_gives_candidates_loaded_before_the_new_tables_their_jobs_languages_and_study_dates():
    import_files(*((path.name, path.read_bytes()) for path in (ILSE, RUTH, TOVE, INGRID)))
    complete = state()
    assert complete["positions"]
    assert complete["languages"]
    assert any(start for _, _, start, _ in complete["education"])
    as_if_loaded_by_the_code_before()
    fingerprints = list(Candidate.objects.order_by("pk").values_list("document_sha256", flat=True))

    lines, code = reparse("--all", "--sync")

    assert code == 0
    assert lines[-1] == "imported 0, updated 4, unchanged 0, failed 0"
    assert without_timestamps(state()) == without_timestamps(complete)
    assert list(Candidate.objects.order_by("pk").values_list("document_sha256", flat=True)) == fingerprints


def test_reparse_all_prints_its_progress():
    import_files((ILSE.name, ILSE.read_bytes()), (RUTH.name, RUTH.read_bytes()))

    lines, _ = reparse("--all", "--sync")

    assert lines[0] == "Rebuilding 2 candidates from 2 stored files."
    assert "2 of 2 files" in lines[-2]


def test_a_candidate_with_two_files_keeps_the_newer_files_values():
    newer = ILSE.read_text(encoding="utf-8").replace('"Intern"', '"Summer Intern"')
    newer = newer.replace("Site Reliability Engineer at Northwind Labs", "Staff SRE at Northwind Labs")
    import_files((ILSE.name, ILSE.read_bytes()), ("ilse-newer.json", newer.encode()))
    complete = state()
    as_if_loaded_by_the_code_before()

    lines, _ = reparse("--all", "--sync")

    candidate = Candidate.objects.get()
    assert candidate.positions.get(order=4).title == "Summer Intern"
    assert without_timestamps(state()) == without_timestamps(complete)
    assert set(SourceFile.objects.values_list("candidate", flat=True)) == {candidate.pk}
    assert lines[-1] == "imported 0, updated 2, unchanged 0, failed 0"


def test_a_protected_field_stays_as_edited():
    import_files((ILSE.name, ILSE.read_bytes()))
    Candidate.objects.update(title="Head of Reliability", protected_fields=["title"])
    as_if_loaded_by_the_code_before()

    reparse("--all", "--sync")

    candidate = Candidate.objects.get()
    assert candidate.title == "Head of Reliability"
    assert candidate.protected_fields == ["title"]
    assert candidate.positions.count() == 5


def failing_on(monkeypatch, marker: bytes) -> None:
    """The parser now refuses files holding ``marker`` (a stricter rule, say)."""
    parse = importing.parse

    def stricter(data, *, vocabulary):
        if marker in data:
            raise ParseError("This file is refused by the stricter parser.")
        return parse(data, vocabulary=vocabulary)

    monkeypatch.setattr(importing, "parse", stricter)


def test_a_file_that_fails_on_reparse_keeps_its_candidate_as_it_was_and_gets_a_message(monkeypatch):
    import_files((ILSE.name, ILSE.read_bytes()), (RUTH.name, RUTH.read_bytes()))
    as_if_loaded_by_the_code_before()
    before = state()
    failing_on(monkeypatch, b"Ilse Marchetti")

    lines, code = reparse("--all", "--sync")

    assert code == 1
    assert lines[-1] == "imported 0, updated 1, unchanged 0, failed 1"
    ilse = SourceFile.objects.get(original_name=ILSE.name)
    assert ilse.status == SourceFile.Status.FAILED
    assert ilse.error == "This file is refused by the stricter parser."
    assert bytes(ilse.content) == ILSE.read_bytes()
    assert ilse.candidate_id is not None  # still the file the candidate was built from
    after = state()
    ilse_row = next(c for c in before["candidates"] if c["id"] == ilse.candidate_id)
    assert next(c for c in after["candidates"] if c["id"] == ilse.candidate_id) == ilse_row
    assert not Position.objects.filter(candidate=ilse.candidate_id).exists()  # no partial rows
    assert SpokenLanguage.objects.exclude(candidate=ilse.candidate_id).exists()  # Ruth's were rebuilt

    # After the fix, the next run rebuilds her too.
    monkeypatch.undo()
    lines, code = reparse("--all", "--sync")
    assert (lines[-1], code) == ("imported 0, updated 2, unchanged 0, failed 0", 0)
    assert Position.objects.filter(candidate=ilse.candidate_id).count() == 5


def test_when_the_newer_file_of_a_candidate_fails_the_older_one_does_not_overwrite_it(monkeypatch):
    newer = ILSE.read_text(encoding="utf-8").replace('"Intern"', '"Summer Intern"').replace('"Bologna"', '"Modena"')
    import_files((ILSE.name, ILSE.read_bytes()), ("ilse-newer.json", newer.encode()))
    as_if_loaded_by_the_code_before()
    before = state()
    failing_on(monkeypatch, b"Modena")

    lines, _ = reparse("--all", "--sync")

    assert lines[-1] == "imported 0, updated 0, unchanged 1, failed 1"
    after = state()
    assert after["candidates"] == before["candidates"]
    assert not Position.objects.exists()
    statuses = dict(SourceFile.objects.values_list("original_name", "status"))
    assert statuses == {ILSE.name: SourceFile.Status.IMPORTED, "ilse-newer.json": SourceFile.Status.FAILED}


def test_running_it_twice_rewrites_the_same_rows():
    """Idempotent: the second run rewrites every candidate (a rebuild does not trust the fingerprint) and leaves the
    database as the first left it."""
    import_files(*((path.name, path.read_bytes()) for path in (ILSE, RUTH, TOVE, INGRID)))
    as_if_loaded_by_the_code_before()
    reparse("--all", "--sync")
    first = state()

    lines, code = reparse("--all", "--sync")

    assert (lines[-1], code) == ("imported 0, updated 4, unchanged 0, failed 0", 0)
    assert without_timestamps(state()) == without_timestamps(first)


def test_a_candidate_a_newer_import_wrote_meanwhile_is_left_to_it():
    """Alongside normal imports: a chunk's files were chosen, then a newer file of the same person was imported
    (with today's code) before the chunk loaded: the older files must not overwrite what the newer one wrote."""
    import_files((ILSE.name, ILSE.read_bytes()))
    chosen = list(services.rebuild_chunks(size=200))
    newer = ILSE.read_text(encoding="utf-8").replace('"Intern"', '"Summer Intern"')
    import_files(("ilse-newer.json", newer.encode()))

    summary = services.source_files_rebuild(file_ids=chosen[0], token="rebuild")

    assert summary.line() == "imported 0, updated 0, unchanged 1, failed 0"
    assert Candidate.objects.get().positions.get(order=4).title == "Summer Intern"
    assert SourceFile.objects.get(original_name=ILSE.name).status == SourceFile.Status.IMPORTED


def test_reparse_all_queues_whole_candidates_to_the_workers(monkeypatch, settings, django_capture_on_commit_callbacks):
    newer = ILSE.read_text(encoding="utf-8").replace('"Intern"', '"Summer Intern"')
    import_files((ILSE.name, ILSE.read_bytes()), ("ilse-newer.json", newer.encode()), (RUTH.name, RUTH.read_bytes()))
    from ingestion import tasks

    sent = []
    monkeypatch.setattr(tasks.rebuild_files, "delay", sent.append)
    settings.INGEST_CHUNK_SIZE = 1  # files a task takes, but one candidate's files always go together

    with django_capture_on_commit_callbacks(execute=True):
        lines, _ = reparse("--all")

    ilse = sorted(SourceFile.objects.exclude(original_name=RUTH.name).values_list("pk", flat=True))
    ruth = SourceFile.objects.get(original_name=RUTH.name).pk
    assert sorted(sent) == sorted([ilse, [ruth]])
    assert lines[-1] == "Queued 3 files of 2 candidates for rebuilding, in 2 tasks."


def test_reparse_all_refuses_ids_beside_it():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--all"):
        call_command("reparse", "--all", "3")


# --- What a rebuild must not undo (review of issue 14's reparse) ----------------------------------------------------


def test_merged_and_hand_edited_candidates_are_kept_as_they_are_and_counted():
    """A rebuild writes a candidate from its newest file alone: it would undo a merge (the others' jobs and skills)
    and rows a recruiter edited in the admin. Those candidates are kept, and the command says how many."""
    from profiles import services as profile_services

    import_files((ILSE.name, ILSE.read_bytes()), (RUTH.name, RUTH.read_bytes()), (TOVE.name, TOVE.read_bytes()))
    ilse, ruth, tove = (SourceFile.objects.get(original_name=p.name).candidate for p in (ILSE, RUTH, TOVE))
    profile_services.candidates_merge(survivor=ilse, others=[ruth], user=None)
    hand = Candidate.objects.get(pk=tove.pk)
    hand._history_user = UserFactory()
    hand.summary = "Edited by a recruiter"
    hand.save()
    merged_jobs = sorted(Position.objects.filter(candidate=ilse).values_list("company", flat=True))
    as_if_loaded_by_the_code_before()

    lines, code = reparse("--all", "--sync")

    assert code == 0
    assert lines[0] == (
        "Rebuilding 0 candidates from 0 stored files; 2 candidates merged or edited by hand are kept as they are."
    )
    assert not Position.objects.exists()  # neither was rebuilt: what the merge and the edit did stays
    assert merged_jobs  # (the merge had moved them; a rebuild from Ilse's file alone would have dropped Ruth's)


def test_a_rebuild_a_worker_died_in_leaves_its_files_as_they_were_for_the_sweeper():
    """The sweeper must not finish a rebuild's files as a normal import (no whole-candidate grouping there): they get
    their status back and the next reparse --all does them."""
    import datetime as dt

    from django.utils import timezone

    import_files((ILSE.name, ILSE.read_bytes()))
    source = SourceFile.objects.get()
    SourceFile.objects.filter(pk=source.pk).update(
        status=SourceFile.Status.PROCESSING,
        claimed_by=services.REBUILD_TOKEN_PREFIX + "dead-worker",
        claimed_at=timezone.now() - dt.timedelta(days=1),
    )

    assert services.source_files_sweep() == 0

    source.refresh_from_db()
    assert (source.status, source.claimed_by, source.candidate_id) == (
        SourceFile.Status.IMPORTED,
        "",
        source.candidate_id,
    )
    assert source.candidate_id is not None


def test_a_file_whose_candidate_was_deleted_before_its_rebuild_ran_creates_nobody():
    import_files((ILSE.name, ILSE.read_bytes()))
    [chunk] = list(services.rebuild_chunks(size=10))
    Candidate.objects.all().delete()  # an erasure, between queueing and the task

    summary = services.source_files_rebuild(file_ids=chunk, token="t")

    assert not Candidate.objects.exists()
    assert (summary.created, summary.updated) == (0, 0)


def test_a_file_that_now_leads_to_another_candidate_is_held_not_loaded_into_them():
    """The parser now reads identifiers it missed (a GitHub username in basics.website): a rebuild of Noor's file
    would match another candidate holding that username and overwrite them with Noor. Held, and said."""
    from tests.factories import CandidateFactory

    noor_file = JSONRESUME_DIR / "noor-rahimi.identifiers.json"
    import_files((noor_file.name, noor_file.read_bytes()))
    noor = SourceFile.objects.get().candidate
    CandidateIdentifier.objects.filter(candidate=noor, kind=CandidateIdentifier.Kind.GITHUB).delete()
    other = CandidateFactory(name="Someone Else")
    CandidateIdentifier.objects.create(candidate=other, kind=CandidateIdentifier.Kind.GITHUB, value="noor-rahimi")

    _, code = reparse("--all", "--sync")

    other.refresh_from_db()
    assert other.name == "Someone Else"
    assert not other.positions.exists()
    assert SourceFile.objects.get().candidate_id == noor.pk
    assert SourceFile.objects.get().status == SourceFile.Status.IMPORTED
    assert code == 0


def test_a_file_that_fails_again_in_a_plain_reparse_keeps_its_candidate_for_the_next_rebuild(monkeypatch):
    """Review of issue 14: `reparse` (the failed files) cleared a failed file's candidate, and the next `--all` then
    rebuilt the candidate from its older files only."""
    import_files((ILSE.name, ILSE.read_bytes()))
    source = SourceFile.objects.get()
    SourceFile.objects.filter(pk=source.pk).update(status=SourceFile.Status.FAILED, error="Broken since.")
    monkeypatch.setattr(importing, "parse", _refusing_parse)

    reparse(str(source.pk), "--sync")

    source.refresh_from_db()
    assert source.status == SourceFile.Status.FAILED
    assert source.candidate_id is not None


def _refusing_parse(*args, **kwargs):
    raise ParseError("Now refused.")
