import io
import json
import logging
import os
import shutil
import stat

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ingestion.models import ImportBatch, SourceFile
from profiles.models import Candidate
from tests.fixtures import CORPUS_DIR, JSONRESUME_DIR, PROGAI_DIR
from tests.helpers import assert_contains

pytestmark = pytest.mark.django_db


def run(*args) -> tuple[str, int]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return out.getvalue(), code


@pytest.mark.parametrize(
    "folder",
    [JSONRESUME_DIR, pytest.param(CORPUS_DIR / "jsonresume", marks=pytest.mark.corpus)],
    ids=["fixtures", "corpus"],
)
def test_ingest_sync_imports_every_json_resume_of_a_folder(folder):
    valid = sorted(p.name for p in folder.glob("*.json"))

    out, code = run("ingest", "--sync", "--no-progress", str(folder))

    stored = SourceFile.objects.all()
    assert set(stored.filter(original_name__in=valid).values_list("status", flat=True)) == {"imported"}
    assert stored.filter(original_name__in=valid).count() == len(valid)
    # invalid/ is not JSON: a clear error. schema_invalid/ breaks the schema: an error, or an import with warnings.
    for source in stored.exclude(original_name__in=valid):
        assert (source.status == "failed" and source.error) or (source.status == "imported" and source.warnings)
    failed = stored.filter(status="failed").count()
    assert failed >= 1
    assert code == 1
    assert out.strip().splitlines()[-1].endswith(f"failed {failed}")
    assert Candidate.objects.count() == stored.filter(outcome="created").count()


def test_ingest_sync_twice_is_idempotent(tmp_path):
    shutil.copy(PROGAI_DIR / "ingrid-valtonen.txt", tmp_path / "ingrid-valtonen.txt")

    first, _ = run("ingest", "--sync", "--no-progress", str(tmp_path))
    second, _ = run("ingest", "--sync", "--no-progress", str(tmp_path))

    assert first.strip().splitlines()[-1] == "imported 1, updated 0, unchanged 0, failed 0"
    assert second.strip().splitlines()[-1] == "imported 0, updated 0, unchanged 1, failed 0"
    assert Candidate.objects.count() == 1
    assert SourceFile.objects.count() == 1


def test_dry_run_fails_a_file_past_a_cap_as_the_import_would(tmp_path, settings):
    """A dry run applies the per-file caps (issue 15, hole 9): a file the import would fail is reported failed."""
    settings.INGEST_MAX_SKILLS = 2
    shutil.copy(PROGAI_DIR / "ingrid-valtonen.txt", tmp_path / "a.txt")

    out, code = run("ingest", "--dry-run", str(tmp_path))

    lines = out.strip().splitlines()
    assert "at most 2 are accepted per file" in json.loads(lines[0])["error"]
    assert lines[-1] == "imported 0, updated 0, unchanged 0, failed 1"
    assert code == 1


def test_dry_run_prints_the_expected_document_and_writes_nothing(tmp_path):
    shutil.copy(PROGAI_DIR / "ingrid-valtonen.txt", tmp_path / "a.txt")
    (tmp_path / "b.json").write_text("[]")
    expected = json.loads((PROGAI_DIR / "ingrid-valtonen.expected.json").read_text(encoding="utf-8"))

    out, code = run("ingest", "--dry-run", str(tmp_path))

    lines = out.strip().splitlines()
    document, failure = json.loads(lines[0]), json.loads(lines[1])
    assert_contains(expected, document)
    assert failure["file"] == "b.json"
    assert failure["error"]
    assert lines[-1] == "imported 1, updated 0, unchanged 0, failed 1"
    assert code == 1
    assert not SourceFile.objects.exists()
    assert not Candidate.objects.exists()


def test_ingest_refuses_a_missing_path():
    with pytest.raises(CommandError, match="No such file or folder"):
        call_command("ingest", "/nonexistent/folder")


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_ingest_refuses_a_file_argument_that_is_not_a_regular_file(tmp_path, kind):
    """Issue 15, hole 2: ``ingest PATH`` opened whatever it was given; a FIFO blocked it for good."""
    path = tmp_path / "special.txt"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))

    with pytest.raises(CommandError, match="Not a regular file"):
        call_command("ingest", "--sync", "--no-progress", str(path))
    assert not ImportBatch.objects.exists()


@pytest.mark.parametrize("target", ["file", "folder"])
def test_ingest_refuses_a_link_given_as_an_argument(tmp_path, target):
    """Issue 15, hole 2: ``ingest $INGEST_INBOX/*`` hands the shell's expansion over as arguments, so a link planted
    in the inbox (to /proc/self/environ, or to a folder such as /etc) would be read; a link is not a regular file."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(b"SECRET_KEY=not-for-the-database\n")
    link = tmp_path / "link.txt"
    link.symlink_to(outside / "secret.txt" if target == "file" else outside, target_is_directory=target == "folder")

    with pytest.raises(CommandError, match="A link, not a regular file or a folder"):
        call_command("ingest", "--sync", "--no-progress", str(link))
    assert not ImportBatch.objects.exists()


def test_ingest_reads_only_the_regular_files_inside_a_folder(tmp_path, caplog):
    """Issue 15, hole 2: links in a folder were followed (to /etc/passwd, or to a folder outside); FIFOs blocked."""
    folder, outside = tmp_path / "folder", tmp_path / "outside"
    (folder / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_bytes(b"SECRET_KEY=not-for-the-database\n")
    shutil.copy(PROGAI_DIR / "ingrid-valtonen.txt", folder / "sub" / "ingrid-valtonen.txt")
    (folder / "passwd.txt").symlink_to("/etc/passwd")
    (folder / "secret.txt").symlink_to(outside / "secret.txt")
    (folder / "linked").symlink_to(outside, target_is_directory=True)
    os.mkfifo(folder / "pipe.txt")

    with caplog.at_level(logging.WARNING, logger="ingestion.services"):
        out, _ = run("ingest", "--sync", "--no-progress", str(folder))

    assert out.strip().splitlines()[-1] == "imported 1, updated 0, unchanged 0, failed 0"
    assert list(SourceFile.objects.values_list("original_name", flat=True)) == ["ingrid-valtonen.txt"]
    for name in ["passwd.txt", "secret.txt", "linked", "pipe.txt"]:
        assert f"folder/{name}: it is " in caplog.text


def test_reparse_sync_retries_failed_files_after_a_fix(tmp_path, monkeypatch):
    shutil.copy(PROGAI_DIR / "ingrid-valtonen.txt", tmp_path / "a.txt")
    from ingestion.services import importing

    def broken_parse(data, *, vocabulary):
        raise RuntimeError("parser bug")

    monkeypatch.setattr(importing, "parse", broken_parse)
    run("ingest", "--sync", "--no-progress", str(tmp_path))
    assert SourceFile.objects.get().status == "failed"
    monkeypatch.undo()

    out, _ = run("reparse", "--sync")

    assert out.strip() == "imported 1, updated 0, unchanged 0, failed 0"
    assert SourceFile.objects.get().status == "imported"
