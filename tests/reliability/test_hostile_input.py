"""Hostile input: ≥ 200 malformed and adversarial files through the real receive and import services.

Zero crashes, a clear message for every failure, no partial candidate, every file stored byte for byte.
"""

import hashlib
from collections import Counter

import pytest

from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from ingestion.services import importing
from profiles.models import Candidate, CandidateSkill, Contribution, Education
from tests.reliability.hostile import XSS, hostile_files

pytestmark = pytest.mark.django_db

INTERNAL_ERROR = "internal error"


@pytest.fixture(scope="module")
def corpus():
    return hostile_files()


def _import(files) -> tuple[ImportBatch, services.ImportSummary]:
    batch = services.batch_create(origin=ImportBatch.Origin.FOLDER, label="hostile corpus")
    services.batch_receive(batch=batch, files=(services.IncomingFile(f.name, f.data) for f in files), enqueue=False)
    file_ids = list(batch.files.order_by("pk").values_list("pk", flat=True))
    summary = services.ImportSummary()
    for start in range(0, len(file_ids), 50):  # the chunks a worker would get
        summary.add(services.source_files_import(file_ids=file_ids[start : start + 50], token="hostile"))
    batch.refresh_from_db()
    return batch, summary


def test_the_corpus_is_large_and_covers_every_kind_of_attack(corpus):
    categories = Counter(f.category for f in corpus)
    assert len(corpus) >= 200
    assert set(categories) >= {
        "truncated",
        "random-bytes",
        "huge",
        "deep-json",
        "encoding",
        "score-overflow",
        "control-chars",
        "html-js",
        "sql",
        "formula",
        "path-name",
        "json-shape",
    }


def test_hostile_files_are_stored_and_imported_or_failed_with_a_clear_message(corpus):
    batch, summary = _import(corpus)

    # Every file stored: one row per distinct content, byte for byte; identical bytes counted as duplicates.
    by_sha = {hashlib.sha256(f.data).hexdigest(): f.data for f in corpus}
    stored = dict(SourceFile.objects.values_list("sha256", "content"))
    assert set(stored) == set(by_sha)
    assert all(bytes(stored[sha]) == data for sha, data in by_sha.items())
    assert sum(SourceFile.objects.values_list("size", flat=True)) == sum(len(d) for d in by_sha.values())
    assert batch.total_files == len(corpus)
    assert batch.duplicates == len(corpus) - len(by_sha)

    # Nothing left half-way; every failure says why, in words, without internals.
    statuses = Counter(SourceFile.objects.values_list("status", flat=True))
    assert set(statuses) <= {"imported", "unchanged", "failed"}, statuses
    failures = list(SourceFile.objects.filter(status="failed").values_list("original_name", "error"))
    for name, error in failures:
        assert error.strip(), f"{name!r} failed without a message"
        assert INTERNAL_ERROR not in error, f"the parser crashed on {name!r}: {error}"
        assert "Traceback" not in error, f"{name!r}: {error!r}"
        assert len(error) < 500, f"{name!r}: {error!r}"
    assert batch.finished_at is not None

    # No partial candidate: every candidate and every child row belongs to a file that was imported.
    imported = SourceFile.objects.filter(status__in=["imported", "unchanged"])
    owners = set(imported.exclude(candidate=None).values_list("candidate_id", flat=True))
    assert set(Candidate.objects.values_list("pk", flat=True)) == owners
    assert not SourceFile.objects.filter(status="failed").exclude(candidate=None).exists()
    for model in (CandidateSkill, Contribution, Education):
        assert set(model.objects.values_list("candidate_id", flat=True)) <= owners, model.__name__
    assert not imported.filter(candidate=None).exists()

    print(
        f"\nhostile input: {len(corpus)} files sent, {len(by_sha)} stored ({sum(map(len, by_sha.values()))} bytes),"
        f" {statuses['imported'] + statuses['unchanged']} imported, {statuses['failed']} failed with a message,"
        f" crashes = 0, partial candidates = 0 ({summary.line()})"
    )


def test_markup_and_sql_are_stored_verbatim_as_data(corpus):
    _import([f for f in corpus if f.category in {"html-js", "sql"}])

    assert Candidate.objects.filter(name__startswith=XSS).exists()
    assert Candidate.objects.filter(name__contains="DROP TABLE profiles_candidate").exists()
    assert Candidate.objects.count() >= 10  # the tables the SQL-looking strings name are all still there


def test_path_like_names_are_kept_as_labels_never_as_paths(corpus, tmp_path):
    _import([f for f in corpus if f.category == "path-name"])

    names = list(SourceFile.objects.values_list("original_name", flat=True))
    assert names
    for name in names:
        assert "/" not in name
        assert "\\" not in name
        assert name.strip(".")
        assert not any(ord(ch) < 32 for ch in name)
        assert 0 < len(name) <= 500
    assert "passwd" in names
    assert "shadow" in names
    assert "unnamed" in names  # "", ".." and "/" name no file
    assert "gnp.exe" in names  # the right-to-left override that displayed it as "exe.png" is gone


def test_a_document_the_database_cannot_encode_fails_alone(monkeypatch):
    """A parser bug that lets an unpaired surrogate through fails that file, not the chunk around it."""
    from ingestion import parsers

    real_parse = parsers.parse

    def leaky_parse(data, *, vocabulary=frozenset()):
        document = real_parse(data, vocabulary=vocabulary)
        if b"Leaky" in data:
            document.name = "Leaky \ud800 Parser"
        return document

    monkeypatch.setattr(importing, "parse", leaky_parse)
    files = [f for f in hostile_files() if f.category == "path-name"][:4]
    leaky = services.IncomingFile("leaky.json", b'{"basics": {"name": "Leaky Parser"}}')
    _, summary = _import([*files, type(files[0])("leaky", leaky.name, leaky.data)])

    assert summary.failed == 1
    failed = SourceFile.objects.get(status="failed")
    assert failed.original_name == "leaky.json"
    assert failed.error.startswith("The profile could not be saved")
    assert SourceFile.objects.filter(status="imported").count() == 4
