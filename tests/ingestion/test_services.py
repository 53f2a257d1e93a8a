import hashlib
import json

import pytest
from django.contrib.postgres.search import SearchQuery
from django.db import transaction

from ingestion import services
from ingestion.documents import SkillEntry
from ingestion.models import ImportBatch, SourceFile
from ingestion.services import importing, shared_rows
from profiles.models import Candidate, CandidateSkill, Contribution
from tests.fixtures import PROGAI_DIR
from tests.ingestion.imports import import_all, receive
from tests.ingestion.resumes import project, random_words, resume

pytestmark = pytest.mark.django_db


@pytest.fixture
def seed_bytes() -> bytes:
    """The fictional Prog.AI reference profile."""
    return (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()


def test_every_received_file_is_stored_with_its_bytes_before_parsing(seed_bytes):
    batch = receive(("ingrid-valtonen.txt", seed_bytes), ("broken.json", b"{not json"))

    stored = {f.original_name: f for f in SourceFile.objects.filter(batch=batch)}
    assert bytes(stored["ingrid-valtonen.txt"].content) == seed_bytes
    assert stored["ingrid-valtonen.txt"].sha256 == hashlib.sha256(seed_bytes).hexdigest()
    assert stored["ingrid-valtonen.txt"].format == SourceFile.Format.PROGAI
    assert stored["broken.json"].size == 9
    assert {f.status for f in stored.values()} == {SourceFile.Status.PENDING}
    assert batch.total_files == 2


def test_the_seed_profile_imports_with_its_expected_parts(seed_bytes):
    expected = json.loads((PROGAI_DIR / "ingrid-valtonen.expected.json").read_text(encoding="utf-8"))
    batch = receive(("ingrid-valtonen.txt", seed_bytes))

    summary = import_all(batch)

    assert summary.line() == "imported 1, updated 0, unchanged 0, failed 0"
    source = SourceFile.objects.get(batch=batch)
    assert source.status == SourceFile.Status.IMPORTED
    candidate = source.candidate
    assert candidate.name == expected["name"]
    assert candidate.skills_declared == 18
    # 12 labels: c-language and cprogramming-language are one skill, C; compiler-design and compiler one, Compiler
    # (a phrase naming one skill, "design" being no skill on its own inside one).
    assert CandidateSkill.objects.filter(candidate=candidate).count() == 10
    assert candidate.skills.get(skill__slug="c").score == 10
    assert sorted(Contribution.objects.filter(candidate=candidate).values_list("repository__full_name", flat=True)) == [
        "kestrel-db/kestrel",
        "lumen-format/lumen",
    ]


def test_identical_bytes_again_are_counted_unchanged_and_write_nothing_else(seed_bytes):
    import_all(receive(("a.txt", seed_bytes)))

    again = receive(("copy-of-a.txt", seed_bytes))

    assert SourceFile.objects.count() == 1
    assert again.duplicates == 1
    assert services.batch_summary(batch=again).line() == "imported 0, updated 0, unchanged 1, failed 0"
    assert services.batch_progress(batch=again)["percent"] == 100


def test_known_broken_bytes_uploaded_again_are_reported_as_failed_with_the_stored_error(seed_bytes):
    """Re-uploading two broken files reported "0 failed, 2 unchanged"."""
    first = receive(("a.txt", seed_bytes), ("broken.json", b'{"basics": {"name": "A"'), ("empty.txt", b""))
    import_all(first)

    again = receive(("a.txt", seed_bytes), ("broken-again.json", b'{"basics": {"name": "A"'), ("empty.txt", b""))

    assert SourceFile.objects.count() == 3  # nothing stored twice, nothing queued again
    assert (again.total_files, again.duplicates, again.duplicates_failed) == (3, 3, 2)
    summary = services.batch_summary(batch=again)
    assert summary.line() == "imported 0, updated 0, unchanged 1, failed 2"
    stored = dict(SourceFile.objects.filter(status=SourceFile.Status.FAILED).values_list("original_name", "error"))
    # Named as the stored copy is (the name they came under is kept nowhere: an erasure withholds the stored one's).
    assert summary.errors == [("broken.json", stored["broken.json"]), ("empty.txt", stored["empty.txt"])]
    progress = services.batch_progress(batch=again)
    assert (progress["unchanged"], progress["failed"], progress["percent"]) == (1, 2, 100)


def test_bytes_still_waiting_for_their_import_are_not_known_to_be_broken():
    receive(("broken.json", b"{not json"))

    again = receive(("broken.json", b"{not json"))

    assert (again.duplicates, again.duplicates_failed) == (1, 0)


def test_a_reworded_file_of_the_same_person_updates_the_candidate(seed_bytes):
    import_all(receive(("v1.txt", seed_bytes)))
    newer = seed_bytes.replace(b"Principal Compiler Engineer at Lumivaara", b"Principal Engineer at Lumivaara", 1)

    summary = import_all(receive(("v2.txt", newer)))

    assert summary.line() == "imported 0, updated 1, unchanged 0, failed 0"
    assert Candidate.objects.get().title == "Principal Engineer"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("empty.txt", b"", "empty"),
        ("binary.bin", bytes(range(256)) * 8, "not a PDF, a Word document (DOCX) or a text file"),
        ("invalid.json", b'{"basics": {"name": "A"', "JSON"),
        ("array.json", b"[1, 2, 3]", "not a résumé object"),
        ("random.txt", b"just some words\nthat are not a profile\n", "no profile TalentDB reads"),
    ],
)
def test_bad_files_fail_with_a_message_and_keep_their_bytes(name, data, message):
    batch = receive((name, data))

    summary = import_all(batch)

    source = SourceFile.objects.get(batch=batch)
    assert summary.failed == 1
    assert source.status == SourceFile.Status.FAILED
    assert message.lower() in source.error.lower()
    assert bytes(source.content) == data
    assert not Candidate.objects.exists()


def test_a_resume_of_another_format_fails_saying_what_to_do_and_is_not_called_json_resume():
    """The import detail showed such a file's format as "jsonresume", and its message gave no next step."""
    batch = receive(("cv.json", json.dumps({"profile": {"name": "Ada Quill"}}).encode()))

    import_all(batch)

    source = SourceFile.objects.get(batch=batch)
    assert (source.status, source.format) == (SourceFile.Status.FAILED, SourceFile.Format.UNKNOWN)
    assert source.error == (
        "This is not a JSON Resume file: it has profile.name (expected basics.name). "
        "Export it as JSON Resume (jsonresume.org) or as a Prog.AI text profile."
    )


def test_a_file_over_the_size_limit_is_stored_and_failed(settings, seed_bytes):
    settings.INGEST_MAX_FILE_BYTES = 1000
    batch = receive(("big.txt", seed_bytes))

    import_all(batch)

    source = SourceFile.objects.get(batch=batch)
    assert source.status == SourceFile.Status.FAILED
    assert source.error == f"The file is {len(seed_bytes) / 1024:.1f} KiB; files up to 1000 bytes are accepted."
    assert source.size == len(seed_bytes)


def test_one_bad_profile_in_a_chunk_fails_alone_and_leaves_no_partial_rows(seed_bytes, monkeypatch):
    from ingestion.loaders import candidates

    good = seed_bytes
    other = seed_bytes.replace(b"Ingrid Valtonen", b"Ada Quill")
    batch = receive(("good.txt", good), ("other.txt", other))
    original = candidates.write_children

    def explode_for_ada(doc_by_candidate):
        original(doc_by_candidate)
        if any(profile.values["name"] == "Ada Quill" for profile in doc_by_candidate.values()):
            from django.db import IntegrityError

            raise IntegrityError("simulated constraint violation for Ada")

    monkeypatch.setattr(candidates, "write_children", explode_for_ada)

    summary = import_all(batch)

    assert summary.created == 1
    assert summary.failed == 1
    assert list(Candidate.objects.values_list("name", flat=True)) == ["Ingrid Valtonen"]
    failed = SourceFile.objects.get(original_name="other.txt")
    assert failed.status == SourceFile.Status.FAILED
    assert "simulated constraint violation" in failed.error
    assert not CandidateSkill.objects.exclude(candidate__name="Ingrid Valtonen").exists()


def test_a_profile_the_database_refuses_fails_alone_with_its_message(seed_bytes, monkeypatch):
    other = seed_bytes.replace(b"Ingrid Valtonen", b"Ada Quill")
    batch = receive(("good.txt", seed_bytes), ("other.txt", other))
    real_parse = importing.parse

    def parse_with_an_impossible_score(data, **kwargs):
        doc = real_parse(data, **kwargs)
        if doc.name == "Ada Quill":
            doc.skills = [*doc.skills, SkillEntry("zig", 11)]  # the database allows scores 0-10
        return doc

    monkeypatch.setattr(importing, "parse", parse_with_an_impossible_score)

    summary = import_all(batch)

    assert summary.line() == "imported 1, updated 0, unchanged 0, failed 1"
    failed = SourceFile.objects.get(original_name="other.txt")
    assert failed.status == SourceFile.Status.FAILED
    assert "candidateskill_score_0_10" in failed.error
    assert list(Candidate.objects.values_list("name", flat=True)) == ["Ingrid Valtonen"]
    assert not CandidateSkill.objects.exclude(candidate__name="Ingrid Valtonen").exists()
    assert SourceFile.objects.get(original_name="good.txt").status == SourceFile.Status.IMPORTED


def test_identical_files_in_one_upload_are_stored_once_and_counted(seed_bytes):
    batch = receive(("a.txt", seed_bytes), ("b.txt", seed_bytes), ("c.txt", b"{not json"))

    assert SourceFile.objects.filter(batch=batch).count() == 2
    assert (batch.total_files, batch.duplicates) == (3, 1)


def test_a_failed_file_keeps_the_warnings_it_had(seed_bytes):
    batch = receive(("broken.json", b"{not json"))
    SourceFile.objects.update(warnings=["An earlier warning."])

    import_all(batch)

    source = SourceFile.objects.get()
    assert (source.status, source.warnings) == (SourceFile.Status.FAILED, ["An earlier warning."])


def test_a_claimed_file_is_not_imported_twice_by_another_task(seed_bytes):
    batch = receive(("a.txt", seed_bytes))
    ids = list(batch.files.values_list("pk", flat=True))

    assert services.source_files_claim(file_ids=ids, token="first") == ids
    assert services.source_files_claim(file_ids=ids, token="second") == []
    # The same task (a retry, or a re-delivery after its worker died) takes its own files back.
    assert services.source_files_claim(file_ids=ids, token="first") == ids


def test_the_sweeper_requeues_files_left_behind_by_a_dead_worker(
    seed_bytes, settings, django_capture_on_commit_callbacks
):
    settings.INGEST_STALE_AFTER_SECONDS = 0
    batch = receive(("a.txt", seed_bytes))
    ids = list(batch.files.values_list("pk", flat=True))
    services.source_files_claim(file_ids=ids, token="dead-worker")

    with django_capture_on_commit_callbacks() as callbacks:
        requeued = services.source_files_sweep()

    assert requeued == 1
    assert len(callbacks) == 1
    source = SourceFile.objects.get()
    assert (source.status, source.claimed_by) == (SourceFile.Status.PENDING, "")
    summary = services.source_files_import(file_ids=ids, token="new-worker")
    assert summary.created == 1


def test_the_sweeper_gives_up_on_a_file_that_keeps_killing_workers(seed_bytes, settings):
    settings.INGEST_STALE_AFTER_SECONDS = 0
    batch = receive(("a.txt", seed_bytes))
    SourceFile.objects.update(
        status=SourceFile.Status.PROCESSING,
        attempts=services.MAX_ATTEMPTS,
        claimed_by="x",
        claimed_at="2020-01-01T00:00:00Z",
    )

    with transaction.atomic():
        services.source_files_sweep()

    source = SourceFile.objects.get()
    assert source.status == SourceFile.Status.FAILED
    assert "interrupted" in source.error
    batch.refresh_from_db()
    assert batch.finished_at is not None


def test_the_inbox_scan_turns_new_files_into_a_batch_and_moves_them(tmp_path, seed_bytes):
    (tmp_path / "one.txt").write_bytes(seed_bytes)
    (tmp_path / ".hidden").write_bytes(b"ignored")

    batch = services.inbox_scan(inbox=tmp_path)

    assert batch.origin == ImportBatch.Origin.INBOX
    assert list(batch.files.values_list("original_name", flat=True)) == ["one.txt"]
    assert not (tmp_path / "one.txt").exists()
    assert len(list((tmp_path / ".imported").rglob("one.txt"))) == 1
    assert services.inbox_scan(inbox=tmp_path) is None


def test_received_names_never_become_paths():
    assert services.safe_file_name("../../etc/passwd") == "passwd"
    assert services.safe_file_name("C:\\temp\\evil\x00.txt") == "evil.txt"
    assert services.safe_file_name("") == "unnamed"


def test_an_import_that_writes_candidates_makes_the_sidebar_offer_their_country_at_once(
    django_capture_on_commit_callbacks,
):
    from profiles.selectors import candidate_filter_choices
    from tests.fixtures import PROGAI_DIR

    assert candidate_filter_choices().countries == []  # cached, as every changelist page reads it
    batch = receive(("ingrid.txt", (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()))

    with django_capture_on_commit_callbacks(execute=True):  # the choices are forgotten when the import commits
        import_all(batch)

    country = Candidate.objects.get().country_code
    assert country
    assert candidate_filter_choices().countries == [country]


def test_a_normaliser_crash_fails_that_file_alone_and_keeps_its_bytes(monkeypatch):
    from tests.fixtures import PROGAI_DIR

    good = (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()
    bad = good.replace(b"Ingrid Valtonen", b"Crash Person")
    batch = receive(("good.txt", good), ("bad.txt", bad))
    real = importing.normalise

    def crashing(document, vocabulary):
        if document.name == "Crash Person":
            raise KeyError("a bug")
        return real(document, vocabulary)

    monkeypatch.setattr(importing, "normalise", crashing)

    summary = import_all(batch)

    assert (summary.created, summary.failed) == (1, 1)
    failed = SourceFile.objects.get(original_name="bad.txt")
    assert failed.status == SourceFile.Status.FAILED
    assert failed.error == "The importer hit an internal error on this file; it is kept for re-importing after a fix."
    assert bytes(failed.content) == bad
    assert list(Candidate.objects.values_list("name", flat=True)) == ["Ingrid Valtonen"]


def test_labels_one_file_cannot_store_leave_the_other_files_skills_and_topics_created(monkeypatch):
    from django.db import DataError

    from ingestion import loaders
    from profiles.models import Skill
    from tests.fixtures import PROGAI_DIR

    good = (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes().replace(b"rustquery-engine", b"rustbrandnewtopicq")
    other = good.replace(b"Ingrid Valtonen", b"Storage Trouble")
    batch = receive(("good.txt", good), ("other.txt", other))
    real = loaders.skill_labels_resolve
    calls = []

    def refusing_two_files(*, skill_keys, topic_keys):
        calls.append(len(skill_keys | topic_keys))
        if len(calls) == 1:  # the whole chunk's labels, as if one of them could not be stored
            raise DataError("value too long for type character varying(200)")
        return real(skill_keys=skill_keys, topic_keys=topic_keys)

    monkeypatch.setattr(shared_rows, "skill_labels_resolve", refusing_two_files)

    summary = import_all(batch)

    assert len(calls) == 3  # the chunk, then each file on its own
    assert (summary.created, summary.failed) == (2, 0)
    assert Skill.objects.filter(slug="brandnewtopicq", kind=Skill.Kind.TOPIC).exists()


# --- Issue 15, holes 3 and 9: what one file can do to its chunk and to the shared rows --------------------------


def test_a_file_whose_search_text_is_too_big_imports_with_a_warning_beside_a_good_file(seed_bytes):
    """Issue 15, hole 3: a 1.2 MB JSON Resume whose summary holds 150,000 random words failed its whole chunk
    ("string is too long for tsvector", treated as transient and retried until the sweeper gave up)."""
    big = resume("Vera Lexicon", summary=random_words(150_000))
    assert len(big) > 1_100_000
    batch = receive(("good.txt", seed_bytes), ("big.json", big))

    summary = import_all(batch)

    assert summary.line() == "imported 2, updated 0, unchanged 0, failed 0"
    source = SourceFile.objects.get(original_name="big.json")
    assert source.status == SourceFile.Status.IMPORTED
    assert any("searched" in warning for warning in source.warnings), source.warnings
    candidate = source.candidate
    assert len(candidate.summary) == 100_000  # INGEST_MAX_TEXT_CHARS: the rest was cut, with a warning
    assert any("cut to 100,000" in warning for warning in source.warnings), source.warnings
    assert Candidate.objects.filter(search_vector=SearchQuery(candidate.summary.split()[0], config="english")).exists()


def test_the_search_text_is_capped_even_when_the_stored_text_is_not(seed_bytes, settings):
    """Issue 15, hole 3: the cap of the text fed to the search vector holds on its own (here no text cap cuts the
    summary first)."""
    settings.INGEST_MAX_TEXT_CHARS = 2_000_000
    words = random_words(150_000)
    batch = receive(("good.txt", seed_bytes), ("big.json", resume("Vera Lexicon", summary=words)))

    summary = import_all(batch)

    assert (summary.created, summary.failed) == (2, 0)
    source = SourceFile.objects.get(original_name="big.json")
    assert source.candidate.summary == words
    assert any("only its first 50,000 characters are searched" in warning for warning in source.warnings)


def test_a_database_error_that_is_not_transient_fails_that_file_alone(seed_bytes, refusing_trigger):
    """Issue 15, hole 3: only connection, serialization and deadlock errors are transient. Any other database error
    (here 54000, program_limit_exceeded, the class of "string is too long for tsvector") belongs to the file: it fails
    alone, with a message in words, and its neighbours import (the task has nothing to retry)."""
    bad = resume("Tomas Refused", projects=[project("tomas", "kiln", summary="refuse:54000")])
    batch = receive(("good.txt", seed_bytes), ("bad.json", bad))

    summary = import_all(batch)

    assert summary.line() == "imported 1, updated 0, unchanged 0, failed 1"
    failed = SourceFile.objects.get(original_name="bad.json")
    assert failed.status == SourceFile.Status.FAILED
    assert (
        failed.error
        == "The profile could not be saved: it is too large for the database (refused by the test trigger)."
    )
    assert SourceFile.objects.get(original_name="good.txt").status == SourceFile.Status.IMPORTED
    assert list(Candidate.objects.values_list("name", flat=True)) == ["Ingrid Valtonen"]


@pytest.mark.parametrize("sqlstate", ["40P01", "40001", "08006"])
def test_a_transient_database_error_propagates_for_the_task_to_retry(seed_bytes, refusing_trigger, sqlstate):
    """Issue 15, hole 3: a deadlock, a serialization failure or a lost connection is not the file's fault: the import
    raises (the task retries the chunk) and no file is failed for it."""
    from django.db import OperationalError

    bad = resume("Tomas Unlucky", projects=[project("tomas", "kiln", summary=f"refuse:{sqlstate}")])
    batch = receive(("good.txt", seed_bytes), ("unlucky.json", bad))

    with pytest.raises(OperationalError):
        import_all(batch)

    assert set(SourceFile.objects.values_list("status", flat=True)) == {SourceFile.Status.PROCESSING}
    assert not Candidate.objects.exists()


def _shared_rows() -> tuple[set, set, set]:
    from profiles.models import Repository, Skill, SkillAlias

    return (
        set(Skill.objects.values_list("slug", flat=True)),
        set(SkillAlias.objects.values_list("label", flat=True)),
        set(Repository.objects.values_list("full_name", flat=True)),
    )


@pytest.mark.parametrize(
    ("what", "data", "message"),
    [
        (
            "keywords",
            resume("Kay Wordsworth", keywords=[f"zqkeyword{i}" for i in range(20_000)]),
            # the keywords and their group's name, "Python": a group named after a known skill is that skill too
            "The profile names 20,001 different skills, programming languages and topics; "
            "at most 1,000 are accepted per file.",
        ),
        (
            "projects",
            resume("Pat Projector", projects=[project("pat", f"zq-project-{i}") for i in range(5_000)]),
            "The profile lists 5,000 repositories; at most 1,000 are accepted per file.",
        ),
    ],
)
def test_a_file_past_a_cap_fails_and_writes_no_shared_row(seed_bytes, what, data, message):
    """Issue 15, hole 9: two files with 20,000 keywords and 5,000 projects created 45,001 skills and 5,000
    repositories, which stayed although both files failed."""
    before = _shared_rows()
    batch = receive(("good.txt", seed_bytes), (f"{what}.json", data))

    summary = import_all(batch)

    assert summary.line() == "imported 1, updated 0, unchanged 0, failed 1"
    failed = SourceFile.objects.get(original_name=f"{what}.json")
    assert (failed.status, failed.error) == (SourceFile.Status.FAILED, message)
    skills, aliases, repositories = _shared_rows()
    assert not {s for s in skills - before[0] if s.startswith("zq")}
    assert not {a for a in aliases - before[1] if a.startswith("zq")}
    assert repositories - before[2] == {"kestrel-db/kestrel", "lumen-format/lumen"}  # the good file's


def test_a_file_that_fails_leaves_none_of_the_shared_rows_it_introduced(seed_bytes, refusing_trigger):
    """Issue 15, hole 9: skills, aliases and repositories a failed file introduced are gone afterwards, unless a file
    that imported references them too."""
    before = _shared_rows()
    good = resume("Gita Good", keywords=["zq-shared-skill"], projects=[project("zq-shared", "repo", "zq-shared-topic")])
    bad = resume(
        "Bodo Bad",
        keywords=["zq-shared-skill", "zq-bad-skill"],
        projects=[
            project("zq-shared", "repo", "zq-shared-topic"),
            project("zq-bad", "repo", "zq-bad-topic"),
            project("zq-bad", "refused", summary="refuse:23514"),  # check_violation: the database refuses the file
        ],
    )
    batch = receive(("good.json", good), ("bad.json", bad))

    summary = import_all(batch)

    assert summary.line() == "imported 1, updated 0, unchanged 0, failed 1"
    skills, aliases, repositories = _shared_rows()
    assert skills - before[0] == {"zq-shared-skill", "zq-shared-topic"}
    assert aliases - before[1] == {"zq-shared-skill", "zq-shared-topic"}
    assert repositories - before[2] == {"zq-shared/repo"}


def _refuse_every_marked_contribution_as(sqlstate: str) -> None:
    """From now on, ``refusing_trigger`` refuses a ``refuse:...`` contribution with this SQLSTATE, whatever it says."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            CREATE OR REPLACE FUNCTION test_refuse_contribution() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.summary LIKE 'refuse:%' THEN
                    RAISE EXCEPTION 'refused by the test trigger' USING ERRCODE = '{sqlstate}';
                END IF;
                RETURN NEW;
            END $$;
            """
        )


def test_a_failed_file_leaves_an_existing_repository_as_it_was(seed_bytes, refusing_trigger):
    """Issue 15, hole 9 (review): a failed file rewrote an existing repository's description and topics before the
    chunk's transaction, and those topics then kept the topic skills the failed file had created."""
    from profiles.models import Repository

    first = resume("Olga Older", projects=[project("zq-old", "repo", "zq-old-topic")])
    import_all(receive(("first.json", first)))
    before = _shared_rows()
    stored = Repository.objects.values_list("description", "topics", "topic_slugs", "topics_raw").get(
        full_name="zq-old/repo"
    )
    bad = resume(
        "Bodo Bad",
        projects=[
            {**project("zq-old", "repo", "zq-new-topic"), "description": "Rewritten by a file that fails"},
            project("zq-bad", "refused", summary="refuse:23514"),
        ],
    )

    summary = import_all(receive(("good.txt", seed_bytes), ("bad.json", bad)))

    assert summary.line() == "imported 1, updated 0, unchanged 0, failed 1"
    assert (
        Repository.objects.values_list("description", "topics", "topic_slugs", "topics_raw").get(
            full_name="zq-old/repo"
        )
        == stored
    )
    skills, aliases, repositories = _shared_rows()
    assert not {s for s in skills - before[0] if s.startswith("zq")}
    assert not {a for a in aliases - before[1] if a.startswith("zq")}
    assert repositories - before[2] == {"kestrel-db/kestrel", "lumen-format/lumen"}  # the good file's


def test_an_existing_repository_is_refreshed_by_a_file_that_imports(refusing_trigger):
    """The refresh moved into the chunk's transaction (issue 15, hole 9, review): it still happens, also when the
    chunk is loaded file by file after another file failed."""
    from profiles.models import Repository

    import_all(receive(("first.json", resume("Olga Older", projects=[project("zq-old", "repo", "zq-old-topic")]))))
    newer = resume(
        "Olga Older",
        summary="Newer",
        projects=[{**project("zq-old", "repo", "zq-new-topic"), "description": "A newer description"}],
    )
    bad = resume("Bodo Bad", projects=[project("zq-bad", "refused", summary="refuse:23514")])

    summary = import_all(receive(("newer.json", newer), ("bad.json", bad)))

    assert summary.line() == "imported 0, updated 1, unchanged 0, failed 1"
    repository = Repository.objects.get(full_name="zq-old/repo")
    assert (repository.description, repository.topic_slugs) == ("A newer description", ["zq-new-topic"])


def _bad_and_good_files() -> ImportBatch:
    good = resume("Gita Good", keywords=["zq-shared-skill"], projects=[project("zq-shared", "repo", "zq-shared-topic")])
    bad = resume(
        "Bodo Bad",
        keywords=["zq-shared-skill", "zq-bad-skill"],
        projects=[
            project("zq-shared", "repo", "zq-shared-topic"),
            project("zq-bad", "repo", "zq-bad-topic"),
            project("zq-bad", "refused", summary="refuse:40P01"),  # a deadlock first: the task retries
        ],
    )
    return receive(("good.json", good), ("bad.json", bad))


def test_a_retry_takes_back_the_shared_rows_its_first_attempt_created(refusing_trigger):
    """Issue 15, hole 9 (review): the first attempt created the skills, aliases and repositories and then hit a
    deadlock; the retry found them there, created nothing, and so took nothing back when the file then failed."""
    from django.db import OperationalError

    from ingestion.models import SharedRowCreated

    before = _shared_rows()
    batch = _bad_and_good_files()
    with pytest.raises(OperationalError):
        import_all(batch)
    assert SharedRowCreated.objects.exists()  # what the first attempt created is on record, committed
    _refuse_every_marked_contribution_as("23514")  # the retry: now the file fails for good

    summary = import_all(batch)

    assert summary.line() == "imported 1, updated 0, unchanged 0, failed 1"
    skills, aliases, repositories = _shared_rows()
    assert skills - before[0] == {"zq-shared-skill", "zq-shared-topic"}
    assert aliases - before[1] == {"zq-shared-skill", "zq-shared-topic"}
    assert repositories - before[2] == {"zq-shared/repo"}
    assert not SharedRowCreated.objects.exists()  # dropped for the file that imported, used for the one that failed


def test_the_sweepers_final_failure_takes_back_the_shared_rows_the_file_created(refusing_trigger, settings):
    """Issue 15, hole 9 (review): a file whose imports never finished (here: deadlocks, then the worker lost) is
    failed by the sweeper, which never ran its import; the rows its attempts created go with it."""
    from django.db import OperationalError

    from ingestion.models import SharedRowCreated

    before = _shared_rows()
    batch = _bad_and_good_files()
    with pytest.raises(OperationalError):
        import_all(batch)
    settings.INGEST_STALE_AFTER_SECONDS = 0
    SourceFile.objects.update(attempts=services.MAX_ATTEMPTS, claimed_at="2020-01-01T00:00:00Z")

    services.source_files_sweep()

    assert set(SourceFile.objects.values_list("status", flat=True)) == {SourceFile.Status.FAILED}
    assert _shared_rows() == before
    assert not SharedRowCreated.objects.exists()


def test_a_take_back_that_fails_is_logged_with_its_files_and_left_to_the_sweeper(refusing_trigger, monkeypatch, caplog):
    """Issue 15, hole 9 (review): the take-back swallowed every database error silently. Now it says which files'
    rows stay, with the traceback, and keeps their record: the next sweep takes them back."""
    from django.db import OperationalError

    from ingestion.models import SharedRowCreated

    _refuse_every_marked_contribution_as("23514")
    before = _shared_rows()
    batch = _bad_and_good_files()
    bad_id = batch.files.get(original_name="bad.json").pk
    real = shared_rows.shared_rows_delete_unused

    def out_of_reach(**kwargs):
        raise OperationalError("the server closed the connection unexpectedly")

    monkeypatch.setattr(shared_rows, "shared_rows_delete_unused", out_of_reach)
    with caplog.at_level("WARNING", logger="ingestion.services"):
        summary = import_all(batch)

    assert summary.line() == "imported 1, updated 0, unchanged 0, failed 1"
    [record] = [r for r in caplog.records if "shared rows" in r.getMessage()]
    assert record.levelname in {"WARNING", "ERROR"}
    assert record.exc_info is not None
    assert str(bad_id) in record.getMessage()
    assert set(SharedRowCreated.objects.values_list("source_file_id", flat=True)) == {bad_id}

    monkeypatch.setattr(shared_rows, "shared_rows_delete_unused", real)
    services.source_files_sweep()

    skills, _, repositories = _shared_rows()
    assert skills - before[0] == {"zq-shared-skill", "zq-shared-topic"}
    assert repositories - before[2] == {"zq-shared/repo"}
    assert not SharedRowCreated.objects.exists()
