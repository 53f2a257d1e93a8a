"""One file must not stall the workers: a file that is slow to read fails alone, within its time budget
(``INGEST_MAX_FILE_SECONDS``), with a message, and the other files of its chunk import."""

import json
import signal
import time

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from ingestion import services
from ingestion.models import SourceFile
from ingestion.services import importing
from profiles.models import CandidateSkill
from tests.ingestion.imports import receive
from tests.ingestion.resumes import resume, skill_label_bomb
from tests.ingestion.test_commands import run

pytestmark = pytest.mark.django_db

SLOW_NAME = "Sam Slowfile"


def import_chunk(*files: tuple[str, bytes]) -> dict[str, SourceFile]:
    """Receive the files in one batch and import them as one chunk, as a worker does; their rows by name."""
    batch = receive(*files)
    services.source_files_import(file_ids=list(batch.files.order_by("pk").values_list("pk", flat=True)), token="t")
    return {source.original_name: source for source in SourceFile.objects.filter(batch=batch)}


def busy(seconds: float) -> None:
    """Work the CPU for ``seconds`` (bounded: a budget that did not stop it fails the test instead of hanging it)."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        pass


@pytest.fixture
def good_files() -> list[tuple[str, bytes]]:
    return [
        ("before.json", resume("Ada Before", keywords=["Python", "Django"])),
        ("after.json", resume("Bo After", keywords=["Go"])),
    ]


def test_a_skill_name_of_60000_pieces_imports_cut_and_its_neighbours_import(good_files):
    before, after = good_files
    files = import_chunk(before, ("bomb.json", skill_label_bomb("Hal Bomb")), after)

    assert {name: f.status for name, f in files.items()} == {
        "before.json": "imported",
        "bomb.json": "imported",
        "after.json": "imported",
    }
    bomb = files["bomb.json"]
    assert list(CandidateSkill.objects.filter(candidate=bomb.candidate).values_list("skill__slug", flat=True)) == [
        "html"
    ]
    assert "One skill name was longer than 1,000 characters; only the first 1,000 of each were read." in bomb.warnings
    assert "One skill name lists more than 50 skills; the first 50 of each were kept." in bomb.warnings
    assert bytes(bomb.content) == skill_label_bomb("Hal Bomb")


def test_ingest_dry_run_reads_the_bomb_alone_and_reports_the_cut(tmp_path):
    (tmp_path / "bomb.json").write_bytes(skill_label_bomb("Hal Bomb"))

    out, code = run("ingest", "--dry-run", str(tmp_path))

    document = json.loads(out.strip().splitlines()[0])
    assert [skill["label"] for skill in document["skills"]] == ["html"]
    assert any("longer than 1,000 characters" in warning for warning in document["warnings"])
    assert out.strip().splitlines()[-1] == "imported 1, updated 0, unchanged 0, failed 0"
    assert code == 0


@pytest.fixture
def slow_stage(monkeypatch, settings, request):
    """The parser or the normaliser (``request.param``) spends 30 s on the file of SLOW_NAME; the budget is 0.5 s."""
    settings.INGEST_MAX_FILE_SECONDS = 0.5
    stage = request.param
    real = getattr(importing, stage)

    def slow(value, *args, **kwargs):
        named = value if stage == "parse" else value.name.encode()
        if SLOW_NAME.encode() in named:
            busy(30)
        return real(value, *args, **kwargs)

    monkeypatch.setattr(importing, stage, slow)
    return stage


@pytest.mark.parametrize("slow_stage", ["parse", "normalise"], indirect=True)
def test_a_file_past_its_time_budget_fails_alone_with_a_message_and_its_neighbours_import(slow_stage, good_files):
    handler_before = signal.getsignal(signal.SIGALRM)
    before, after = good_files
    slow_bytes = resume(SLOW_NAME)
    started = time.monotonic()

    files = import_chunk(before, ("slow.json", slow_bytes), after)

    assert time.monotonic() - started < 20, "the budget did not stop the slow file"
    slow = files["slow.json"]
    assert slow.status == "failed"
    assert slow.error.startswith("Reading this file took longer than 0.5 seconds, the limit for one file")
    assert "shorten it and upload the file again" in slow.error
    assert bytes(slow.content) == slow_bytes  # kept, to look at or re-import
    assert slow.candidate is None
    assert files["before.json"].status == files["after.json"].status == "imported"
    # The timer and the handler are those of before: nothing is left to interrupt later work.
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is handler_before


@pytest.mark.parametrize("slow_stage", ["parse"], indirect=True)
def test_a_file_past_its_budget_stays_failed_when_its_chunk_is_interrupted_later(slow_stage, good_files, monkeypatch):
    """Recorded at once: the chunk's next attempt (a retry, the sweeper's) does not spend the same time on it again."""

    def time_is_up(*args, **kwargs):
        raise SoftTimeLimitExceeded

    monkeypatch.setattr(importing, "load_profiles", time_is_up)
    before, after = good_files
    batch = receive(before, ("slow.json", resume(SLOW_NAME)), after)

    with pytest.raises(SoftTimeLimitExceeded):
        services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="t")

    statuses = dict(batch.files.values_list("original_name", "status"))
    assert statuses == {"before.json": "processing", "slow.json": "failed", "after.json": "processing"}
    assert services.source_files_claim(file_ids=list(batch.files.values_list("pk", flat=True)), token="t") == sorted(
        batch.files.exclude(original_name="slow.json").values_list("pk", flat=True)
    )


@pytest.mark.parametrize("slow_stage", ["parse"], indirect=True)
def test_ingest_dry_run_fails_a_file_past_its_budget_with_the_same_message(slow_stage, tmp_path):
    (tmp_path / "slow.json").write_bytes(resume(SLOW_NAME))

    out, code = run("ingest", "--dry-run", str(tmp_path))

    failure = json.loads(out.strip().splitlines()[0])
    assert failure["error"].startswith("Reading this file took longer than 0.5 seconds")
    assert out.strip().splitlines()[-1] == "imported 0, updated 0, unchanged 0, failed 1"
    assert code == 1


def test_without_a_budget_a_slow_file_is_not_interrupted(settings, monkeypatch):
    settings.INGEST_MAX_FILE_SECONDS = 0
    real = importing.parse

    def slow(data, *args, **kwargs):
        busy(0.3)
        return real(data, *args, **kwargs)

    monkeypatch.setattr(importing, "parse", slow)
    files = import_chunk(("slow.json", resume(SLOW_NAME)))

    assert files["slow.json"].status == "imported"
