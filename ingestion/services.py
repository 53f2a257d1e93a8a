"""Writes of the ingestion pipeline: receive files, claim them, parse, load, sweep, re-parse.

State machine of a SourceFile: PENDING → PROCESSING → IMPORTED | UNCHANGED | FAILED. Workers claim files with a
compare-and-set UPDATE, so re-delivered or duplicated task messages never import a file twice.
"""

from __future__ import annotations

import errno
import hashlib
import itertools
import logging
import os
import re
import stat
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from psycopg.types.json import Jsonb

from core.text import human_size_against
from db.errors import is_transient, sqlstate_of
from ingestion.documents import ParseError, ProfileDocument
from ingestion.file_budget import FileBudget, FileTooSlow, file_budget
from ingestion.loaders import (
    LoadResult,
    ResolvedLabels,
    _lock_keys,
    bound_cursor,
    load_profiles,
    repositories_upsert,
    shared_rows_delete_unused,
    skill_labels_resolve,
)
from ingestion.models import ImportBatch, SharedRowCreated, SourceFile
from ingestion.normalise import (
    Limits,
    NormalisedProfile,
    apply_limits,
    document_label_keys,
    identity_keys,
    normalise,
)
from ingestion.parsers import ReadFile, detect_format, extracted_text, parse
from ingestion.privacy import WITHHELD_NAME, documents_refused, identity_keys_refused, source_files_withhold
from ingestion.selectors import batch_failed_duplicates, may_view_every_batch, progress_from_counts
from ingestion.texts import source_file_texts_keep
from privacy.services import import_refusals_record, sourcing_records_add
from profiles.models import Candidate, MergeRecord
from profiles.selectors import candidate_filter_choices_forget, skill_vocabulary
from profiles.skill_resolver import Resolution
from profiles.vocabulary import SkillVocabulary, skill_slug

logger = logging.getLogger(__name__)

RECEIVE_GROUP_SIZE = 200
MAX_ATTEMPTS = 5
# Errors saving a document can raise. Those ``db.errors.is_transient`` names (the connection, a serialization
# failure, a deadlock) propagate, for the task to retry the chunk; any other is the document's: it fails that file
# alone, never the whole chunk (text the database cannot encode, such as an unpaired surrogate, is refused by the
# driver before it reaches the server; "string is too long for tsvector" is an OperationalError, and no less final).
SAVE_ERRORS = (DatabaseError, UnicodeEncodeError)
# Control characters, and the bidirectional overrides that make "gnp.exe" display as "exe.png".
_UNSAFE_NAME_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True, slots=True)
class IncomingFile:
    name: str
    data: bytes
    path: Path | None = None  # where it was read, for files from a folder (the inbox moves them once stored)


class NotARegularFile(Exception):
    """A folder entry that is not read: a link, a FIFO, a socket or a device (the message says which)."""


@dataclass(frozen=True, slots=True)
class ClaimedFile:
    """What an import reads of a file it claimed (it never needs the whole row)."""

    pk: int
    batch_id: int | None
    original_name: str
    content: bytes
    size: int


@dataclass(slots=True)
class ImportSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: int = 0
    errors: list[tuple[str, str]] = field(default_factory=list)

    def add(self, other: ImportSummary) -> None:
        self.created += other.created
        self.updated += other.updated
        self.unchanged += other.unchanged
        self.failed += other.failed
        self.errors.extend(other.errors)

    def line(self) -> str:
        return f"imported {self.created}, updated {self.updated}, unchanged {self.unchanged}, failed {self.failed}"


def safe_file_name(name: str) -> str:
    """The last path component of a received name, without control characters: a label, never a path.

    An undecodable byte that reached the name as a lone surrogate (how Python spells file names that are not UTF-8)
    becomes U+FFFD: the database stores only text, and one such name must not fail the files received beside it."""
    name = (name or "").encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    base = _UNSAFE_NAME_CHARS.sub("", re.split(r"[\\/]", name)[-1]).strip()[:500]
    return "unnamed" if base.strip(".") == "" else base  # "." and ".." name directories, not files


# --- Receiving -----------------------------------------------------------------------------------------------------


class NamedSize(Protocol):
    """What the upload limits read of a file: Django's uploaded files have both."""

    name: str
    size: int


def upload_refusals(*, files: Sequence[NamedSize]) -> list[str]:
    """Why an upload must be refused before anything of it is stored, in words for the uploader; empty when it may go.

    The one statement of the upload limits, for every surface that takes uploads (the API's serializer, the admin's
    upload form), so that they cannot drift apart. Files that arrive another way (the inbox, the command line) are
    stored whatever their size and failed with ``_parse_one``'s message, which keeps their bytes for a look.
    """
    max_files, max_bytes = settings.INGEST_MAX_FILES_PER_UPLOAD, settings.INGEST_MAX_FILE_BYTES
    if len(files) > max_files:
        return [f"{len(files)} files sent; at most {max_files} per upload."]
    return [
        "{} is {}; files up to {} are accepted.".format(safe_file_name(f.name), *human_size_against(f.size, max_bytes))
        for f in files
        if f.size > max_bytes
    ]


def batch_create(*, origin: str, label: str = "", user=None) -> ImportBatch:
    """A batch; without a label, ``batch_receive`` gives it ``batch_default_label`` once it counted the files."""
    return ImportBatch.objects.create(origin=origin, label=label[:500], created_by=user)


_DEFAULT_LABEL_SOURCES = {ImportBatch.Origin.INBOX: "Inbox scan", ImportBatch.Origin.CLI: "Command-line import"}


def batch_default_label(*, origin: str, files: int, at) -> str:
    """Where a batch came from, how many files and when ("Upload of 3 files, 2 Dec 10:42"), in the site's time zone:
    never the files' names or paths, which are often the people's, and which an access report or a label left after
    an erasure would show to whoever reads the batch."""
    local = timezone.localtime(at)
    source = _DEFAULT_LABEL_SOURCES.get(origin, "Upload")
    return f"{source} of {files} file{'' if files == 1 else 's'}, {local.day} {local:%b %H:%M}"


def batch_receive(*, batch: ImportBatch, files: Iterable[IncomingFile], enqueue: bool = True) -> ImportBatch:
    """Store every file (bytes and hash) before anything parses it, in groups, and queue the new ones.

    Files whose bytes are already stored in the batch's scope (``dedup_scope``) are counted as duplicates and write
    nothing else. Memory stays flat: the iterable is consumed group by group.
    """
    scope = dedup_scope_of(batch)
    group: list[IncomingFile] = []
    for incoming in files:
        group.append(incoming)
        if len(group) >= RECEIVE_GROUP_SIZE:
            _receive_group(batch, group, enqueue, scope)
            group = []
    if group:
        _receive_group(batch, group, enqueue, scope)
    batch.refresh_from_db()
    if not batch.label:
        batch.label = batch_default_label(origin=batch.origin, files=batch.total_files, at=batch.created_at)
        ImportBatch.objects.filter(pk=batch.pk, label="").update(label=batch.label)
    batch_finish_if_done(batch_id=batch.pk)
    return batch


def dedup_scope_of(batch: ImportBatch) -> int:
    """Which stored files a batch's files are compared with (``SourceFile.dedup_scope``).

    "Already stored" may be said only of a copy in a batch the uploader may view. Who may view every batch, and the
    command line and the inbox (no user), share one store (scope 0); an uploader who may view only their own batches
    has a scope of their own, so their upload of bytes somebody else sent is stored and imported as a new file for
    them, and only their own earlier copy makes a duplicate.
    """
    user = batch.created_by
    return 0 if user is None or may_view_every_batch(user) else user.pk


@transaction.atomic
def _receive_group(batch: ImportBatch, group: list[IncomingFile], enqueue: bool, scope: int) -> None:
    rows: dict[str, IncomingFile] = {}
    received_shas = [hashlib.sha256(incoming.data).hexdigest() for incoming in group]
    for sha, incoming in zip(received_shas, group, strict=True):
        rows.setdefault(sha, incoming)
    shas = list(rows)
    now = timezone.now()
    with bound_cursor() as cursor:
        # The bytes travel as binary parameters (quoting them into the SQL text cost more than storing them); the
        # batch's counters are updated in the same statement.
        cursor.execute(
            """
            WITH new AS (
                INSERT INTO ingestion_sourcefile (batch_id, original_name, content, sha256, dedup_scope, size, format,
                    status, outcome, error, warnings, attempts, claimed_by, created_at, queued_at)
                SELECT %(batch)s, n, c, s, %(scope)s, z, f, 'pending', '', '', '[]'::jsonb, 0, '', %(now)s, %(queued)s
                FROM unnest(%(names)b::varchar[], %(contents)b::bytea[], %(shas)b::varchar[], %(sizes)b::bigint[],
                    %(formats)b::varchar[]) AS t(n, c, s, z, f)
                ON CONFLICT (sha256, dedup_scope) DO NOTHING
                RETURNING id
            ),
            -- received files whose bytes were stored before and failed (the statement's snapshot does not see the
            -- rows it inserts, so these are duplicates): bytes known to be broken, reported as failed again. Only
            -- the stored copy's id is kept: the name they came under would outlive an erasure of the person.
            failed_before AS (
                SELECT r.i, f.id
                FROM unnest(%(received_shas)b::varchar[]) WITH ORDINALITY AS r(s, i)
                JOIN ingestion_sourcefile f ON f.sha256 = r.s AND f.dedup_scope = %(scope)s AND f.status = %(failed)s
            ),
            counted AS (
                UPDATE ingestion_importbatch SET total_files = total_files + %(received)s,
                    duplicates = duplicates + %(received)s - (SELECT count(*) FROM new),
                    duplicates_failed = duplicates_failed + (SELECT count(*) FROM failed_before),
                    duplicates_failed_ids = duplicates_failed_ids
                        || (SELECT coalesce(array_agg(id ORDER BY i), '{}') FROM failed_before)
                WHERE id = %(batch)s
            )
            SELECT id FROM new
            """,
            {
                "batch": batch.pk,
                "scope": scope,
                "now": now,
                "queued": now if enqueue else None,
                "names": [safe_file_name(rows[s].name) for s in shas],
                "contents": [rows[s].data for s in shas],
                "shas": shas,
                "sizes": [len(rows[s].data) for s in shas],
                "formats": [detect_format(rows[s].data) for s in shas],
                "received": len(group),
                "received_shas": received_shas,
                "failed": SourceFile.Status.FAILED,
            },
        )
        new_ids = sorted(row[0] for row in cursor.fetchall())
    if enqueue and new_ids:
        _enqueue_on_commit(new_ids)


def _enqueue_on_commit(file_ids: list[int]) -> None:
    from ingestion import tasks  # tasks import services; keep the cycle one-way at import time

    size = settings.INGEST_CHUNK_SIZE
    chunks = [file_ids[i : i + size] for i in range(0, len(file_ids), size)]
    transaction.on_commit(lambda: [tasks.import_files.delay(chunk) for chunk in chunks])


# Read-only, never following a link in the last component, never waiting for a FIFO's writer, never taking a terminal.
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def regular_file_read(path: str | Path, *, dir_fd: int | None = None) -> bytes:
    """The bytes of a regular file; ``NotARegularFile`` for anything else.

    The test is made on the opened descriptor (``O_NOFOLLOW``, then ``fstat``), so that a file swapped for a link or
    a FIFO between a listing and this read is still refused: no window between the check and the use.
    """
    try:
        fd = os.open(path, _READ_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # what O_NOFOLLOW answers for a link
            raise NotARegularFile("it is a symbolic link") from exc
        raise
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(file.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(_not_regular(mode))
        return file.read()


def _not_regular(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "it is a symbolic link"
    if stat.S_ISDIR(mode):
        return "it is a folder"
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    return f"it is not a regular file ({kind})"


def _name_problem(name: str) -> str | None:
    try:
        os.fsencode(name).decode("utf-8")
    except UnicodeDecodeError:
        return "its name is not valid UTF-8"
    return None


def _entry_problem(name: str, dir_fd: int) -> str | None:
    """Why this entry of a folder is not taken, from its own inode (a link is never followed), or None."""
    try:
        mode = os.lstat(name, dir_fd=dir_fd).st_mode
    except OSError as exc:  # gone since it was listed, or not ours to look at
        return str(exc)
    return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else _not_regular(mode)


def printable_path(path: str | Path) -> str:
    """A path as a log line shows it: bytes that are not UTF-8 escaped (``bad\\xffname.txt``), never an error."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _skip(path: Path, reason: str, skipped: list[Path] | None) -> None:
    logger.warning("Skipped %s: %s.", printable_path(path), reason)
    if skipped is not None:
        skipped.append(path)


def iter_folder(
    paths: Iterable[Path], *, recursive: bool = True, skipped: list[Path] | None = None
) -> Iterator[IncomingFile]:
    """Files under the given files or folders (sorted, hidden entries skipped), read one at a time.

    Only regular files whose real path lies inside the folder given are read: links (to files or folders) are not
    followed, and FIFOs, sockets and devices are not opened. These, names that are not UTF-8 and files that cannot be
    read are skipped with a log line (and added to ``skipped``), so one of them never stops the others. A folder is
    walked through directory descriptors (``os.fwalk``), so a folder swapped for a link mid-walk is not followed
    either. A path given that is itself a link is skipped too (a shell's ``inbox/*`` hands planted links over as
    paths); the folders above it are taken as they resolve.
    """
    for given in paths:
        if Path(given).is_symlink():
            _skip(Path(given), "a link, not a regular file or a folder", skipped)
            continue
        top = Path(given).resolve()
        if not top.is_dir():
            data = _read_or_skip(top, None, skipped)
            if data is not None:
                yield IncomingFile(top.name, data, path=top)
            continue
        for root, dirs, names, root_fd in os.fwalk(top, follow_symlinks=False):
            kept = []
            for name in sorted(d for d in dirs if not d.startswith(".")):
                problem = _name_problem(name) or _entry_problem(name, root_fd)  # a link to a folder is listed here
                if problem is not None:
                    _skip(Path(root) / name, problem, skipped)
                elif recursive:
                    kept.append(name)
            dirs[:] = kept  # fwalk walks these next, each opened through the descriptor of its parent
            for name in sorted(n for n in names if not n.startswith(".")):
                path = Path(root) / name
                problem = _name_problem(name) or _entry_problem(name, root_fd)
                if problem is not None:
                    _skip(path, problem, skipped)
                    continue
                data = _read_or_skip(path, root_fd, skipped)
                if data is not None:
                    yield IncomingFile(name, data, path=path)


def _read_or_skip(path: Path, dir_fd: int | None, skipped: list[Path] | None) -> bytes | None:
    try:
        return regular_file_read(path.name if dir_fd is not None else path, dir_fd=dir_fd)
    except (NotARegularFile, OSError) as exc:  # OSError: gone since it was listed, or not ours to read
        _skip(path, str(exc), skipped)
        return None


# --- Importing -----------------------------------------------------------------------------------------------------


_CLAIM_SQL = """
UPDATE ingestion_sourcefile
SET status = 'processing', claimed_at = now(), claimed_by = %(token)s, attempts = attempts + 1
WHERE id = ANY(%(ids)b::bigint[]) AND (status = 'pending'
    OR (status = 'processing' AND (claimed_by = %(token)s OR claimed_at < %(stale_before)s)))
RETURNING {columns}
"""


def _claim(file_ids: list[int], token: str, columns: str) -> list[tuple]:
    stale_before = timezone.now() - timezone.timedelta(seconds=settings.INGEST_STALE_AFTER_SECONDS)
    with bound_cursor() as cursor:
        cursor.execute(
            _CLAIM_SQL.format(columns=columns),
            {"token": token, "ids": list(file_ids), "stale_before": stale_before},
            binary=True,  # the content comes back as bytes, not as hex to decode
        )
        return sorted(cursor.fetchall(), key=lambda row: row[0])


def source_files_claim(*, file_ids: list[int], token: str) -> list[int]:
    """Compare-and-set claim: take files that are pending, or held by this same task (a retry or a re-delivery),
    or whose claim went stale (a dead worker). Returns the ids this caller now owns."""
    return [row[0] for row in _claim(file_ids, token, "id")]


def _claim_for_import(file_ids: list[int], token: str) -> list[ClaimedFile]:
    """``source_files_claim``, reading what the import needs of each claimed file in the same statement."""
    return [ClaimedFile(*row) for row in _claim(file_ids, token, "id, batch_id, original_name, content, size")]


def document_parse(data: bytes, vocabulary: SkillVocabulary, *, budget: FileBudget | None = None) -> ProfileDocument:
    """The file's document fitted to the per-file caps, as an import reads it (``ingest --dry-run`` too), or
    ``ParseError`` with the message a recruiter reads about why it cannot be imported; parsed on ``budget``, when
    given (``FileTooSlow`` past it)."""
    limit = settings.INGEST_MAX_FILE_BYTES
    if len(data) > limit:
        raise ParseError("The file is {}; files up to {} are accepted.".format(*human_size_against(len(data), limit)))
    try:
        with budget.spending() if budget else nullcontext():
            return apply_limits(parse(data, vocabulary=vocabulary.words), _limits())
    except RecursionError:
        raise ParseError("The file is nested too deeply to read.") from None


def document_read(data: bytes, vocabulary: SkillVocabulary, *, budget: FileBudget | None = None) -> ReadFile:
    """``document_parse``, and the text the parser read out of a binary file (its own reading, not a second one)."""
    document = document_parse(data, vocabulary, budget=budget)
    with budget.spending() if budget else nullcontext():
        return ReadFile(document=document, extracted_text=extracted_text(data))


def document_normalise(
    document: ProfileDocument, vocabulary: SkillVocabulary, *, budget: FileBudget | None = None
) -> NormalisedProfile:
    """``normalise``, on what is left of the file's ``budget`` when given (``FileTooSlow`` past it)."""
    with budget.spending() if budget else nullcontext():
        return normalise(document, vocabulary)


def _parse_one(source: ClaimedFile, vocabulary: SkillVocabulary, budget: FileBudget) -> ReadFile | str:
    """The parsed document, or the message a recruiter reads about why this file could not be imported."""
    try:
        return document_read(bytes(source.content), vocabulary, budget=budget)
    except FileTooSlow as exc:
        return _too_slow(source.pk, str(exc))
    except ParseError as exc:  # the file holds no profile, is too big, or is past a cap
        return str(exc)
    except SoftTimeLimitExceeded:  # the task's time is up, not the file's fault: it stays claimed for the sweeper
        raise
    except Exception:  # a parser bug must fail this one file, not the batch; the row keeps the bytes to re-parse
        logger.exception("Parser crashed on source file %s", source.pk)
        return "The parser hit an internal error on this file; it is kept for re-parsing after a fix."


@contextmanager
def _import_transaction() -> Iterator[None]:
    """The transactions of an import after the claim: the shared rows', then the one that loads documents and records
    the files' outcome.

    They commit without waiting for the WAL flush (``synchronous_commit = off``): the files' statuses commit with the
    rows, so a commit that a server crash loses leaves those files claimed (``processing``) as if the worker had died,
    and the sweeper queues them again once the claim is stale. Nothing is lost; a file may be loaded twice, which
    identity keys and ``document_sha256`` make harmless, and lost shared rows are created again by that load. The
    claim itself commits durably, before parsing.
    """
    with transaction.atomic():
        with bound_cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit = off")
        yield


def source_files_import(*, file_ids: list[int], token: str, rebuild: bool = False) -> ImportSummary:
    """Claim, parse, normalise and load these files. Database outages, serialization failures and deadlocks
    propagate (the task retries); anything wrong with a file's content, any other database error included, fails that
    file alone, with its message, and no partial rows: neither its own nor the shared ones it introduced.

    With ``rebuild``, the files are their candidates' stored files, whole candidates at a time, loaded as
    ``source_files_rebuild`` says."""
    sources = _claim_for_import(file_ids, token)
    summary = ImportSummary()
    if not sources:
        return summary
    vocabulary = skill_vocabulary()
    parsed: list[tuple[ClaimedFile, ProfileDocument]] = []
    failures: list[tuple[ClaimedFile, str]] = []
    texts: dict[int, str] = {}
    budgets = {source.pk: file_budget() for source in sources}
    for source in sources:
        outcome = _parse_one(source, vocabulary, budgets[source.pk])
        if isinstance(outcome, str):
            failures.append((source, outcome))
        else:
            parsed.append((source, outcome.document))
            if outcome.extracted_text is not None:
                texts[source.pk] = outcome.extracted_text
    parsed = _refuse_erased(parsed, summary)
    source_file_texts_keep(texts={source.pk: texts[source.pk] for source, _ in parsed if source.pk in texts})
    if parsed:
        vocabulary = _chunk_vocabulary([doc for _, doc in parsed], vocabulary, [source.pk for source, _ in parsed])
    normalised: list[tuple[ClaimedFile, NormalisedProfile]] = []
    for source, document in parsed:
        outcome = _normalise_one(source.pk, document, vocabulary, budgets[source.pk])
        if isinstance(outcome, str):
            failures.append((source, outcome))
        else:
            normalised.append((source, outcome))
    profiles = [profile for _, profile in normalised]
    _repositories_first(profiles, [source.pk for source, _ in normalised])
    failed = {source.pk for source, _ in failures}
    if rebuild:
        failed |= _rebuild_load(normalised, failures, summary)
    else:
        try:
            with _import_transaction():
                loading, refused = _refuse_erased_meanwhile(normalised, summary)
                results = load_profiles([profile for _, profile in loading]) if loading else []
                _finish_files(_result_rows(loading, results, summary) + _failure_rows(failures, summary))
                _sourcing_record(loading, results)
            failed |= refused
        except SAVE_ERRORS as exc:
            if is_transient(exc):
                raise
            # One bad profile spoils the set-based load: load each on its own to find and fail just that one.
            logger.warning("Bulk load of %s files failed (%s); loading one by one", len(normalised), exc)
            summary = ImportSummary()
            with _import_transaction():
                _finish_files(_failure_rows(failures, summary))
            for source, profile in normalised:
                try:
                    with _import_transaction():
                        loading, refused = _refuse_erased_meanwhile([(source, profile)], summary)
                        single = load_profiles([profile]) if loading else []
                        _finish_files(_result_rows(loading, single, summary))
                        _sourcing_record(loading, single)
                    failed |= refused
                except SAVE_ERRORS as single_exc:
                    if is_transient(single_exc):
                        raise
                    logger.warning("Source file %s could not be saved: %s", source.pk, single_exc)
                    failed.add(source.pk)
                    with _import_transaction():
                        _finish_files(_failure_rows([(source, _database_message(single_exc))], summary))
    if failed:
        _failed_files_take_back(
            sorted(failed), kept=[document for source, document in parsed if source.pk not in failed]
        )
    if summary.created or summary.updated:
        # A new country or badge is offered at once; a cache that cannot be reached only delays that (robust: logged).
        transaction.on_commit(candidate_filter_choices_forget, robust=True)
    for batch_id in {s.batch_id for s in sources if s.batch_id}:
        batch_finish_if_done(batch_id=batch_id)
    return summary


def _refuse_erased(
    parsed: list[tuple[ClaimedFile, ProfileDocument]], summary: ImportSummary
) -> list[tuple[ClaimedFile, ProfileDocument]]:
    """Fail the files that name an erased person (issue 18), before anything of theirs is written, and empty them of
    the person's data; returns the others. One query for the chunk (``ingestion.privacy.documents_refused``)."""
    if not parsed:
        return parsed
    messages = documents_refused([document for _, document in parsed])
    refused = [(source, message) for (source, _), message in zip(parsed, messages, strict=True) if message]
    if not refused:
        return parsed
    with _import_transaction():
        _finish_files(_failure_rows(refused, summary))
        source_files_withhold(file_ids=[source.pk for source, _ in refused])
        pairs = zip(parsed, messages, strict=True)
        import_refusals_record(
            files=len(refused), keys_by_doc=[identity_keys(document) for (_, document), message in pairs if message]
        )
    return [pair for pair, message in zip(parsed, messages, strict=True) if not message]


def _refuse_erased_meanwhile(
    loaded: list[tuple[ClaimedFile, NormalisedProfile]], summary: ImportSummary
) -> tuple[list[tuple[ClaimedFile, NormalisedProfile]], set[int]]:
    """In the load's transaction, before it writes: take the loader's locks on these profiles' identity keys (which
    an erasure takes too, ``privacy.services.candidate_erase``) and fail the files of people erased since
    ``_refuse_erased`` looked, as it fails them. An erasure that committed in between is seen here; one still under
    way commits first, as this waits for its locks. Returns the files to load and the ids of those refused.

    The load locks the same keys again (held already: no wait, and no other order). The refused files' record of
    the shared rows their chunk created for them stays, for ``shared_rows_take_back`` once this commits: a repository
    named after the person's account is taken back with them."""
    if not loaded:
        return loaded, set()
    _lock_keys([key for _, profile in loaded for key in profile.identity_keys])
    messages = identity_keys_refused([profile.identity_keys for _, profile in loaded])
    refused = [(source, message) for (source, _), message in zip(loaded, messages, strict=True) if message]
    if not refused:
        return loaded, set()
    refused_ids = [source.pk for source, _ in refused]
    _finish_files(_failure_rows(refused, summary))
    source_files_withhold(file_ids=refused_ids, take_back_later=True)
    import_refusals_record(
        files=len(refused),
        keys_by_doc=[profile.identity_keys for (_, profile), message in zip(loaded, messages, strict=True) if message],
    )
    return [pair for pair, message in zip(loaded, messages, strict=True) if not message], set(refused_ids)


def _sourcing_record(loaded: list[tuple[ClaimedFile, NormalisedProfile]], results: list[LoadResult]) -> None:
    """The sourcing record of each candidate these files wrote who has none yet (their first import), in the load's
    transaction: one statement."""
    pairs = zip(loaded, results, strict=True)
    sourcing_records_add(rows=[(result.candidate_id, source.batch_id, source.pk) for (source, _), result in pairs])


def _limits() -> Limits:
    return Limits(
        skills=settings.INGEST_MAX_SKILLS,
        contributions=settings.INGEST_MAX_CONTRIBUTIONS,
        entries=settings.INGEST_MAX_LIST_ENTRIES,
        text_chars=settings.INGEST_MAX_TEXT_CHARS,
    )


def _shared_rows_record(rows: list[tuple[int, str, str]]) -> None:
    """Record (file id, kind, key) rows: the shared rows an import created for each file (``SharedRowCreated``), in
    the transaction that created them, so that no crash leaves a row created and not on record."""
    if not rows:
        return
    with bound_cursor() as cursor:
        cursor.execute(
            "INSERT INTO ingestion_sharedrowcreated (source_file_id, kind, key) "
            "SELECT * FROM unnest(%b::bigint[], %b::varchar[], %b::varchar[]) ON CONFLICT DO NOTHING",
            [list(column) for column in zip(*rows, strict=True)],
        )


# Records taken back per transaction: a sweep after a long outage may find many, and holds the skill locks meanwhile.
_TAKE_BACK_BATCH = 20_000


def shared_rows_take_back(*, file_ids: Sequence[int] | None = None, kept: Sequence[ProfileDocument] = ()) -> int:
    """Delete the shared rows imports created for files that then failed (issue 15, hole 9), those of ``file_ids``
    or, without it, of every failed file still on record; returns how many records it used. A row a profile uses
    stays (``shared_rows_delete_unused``), and so do the aliases of the labels of ``kept``, the documents of files
    that imported beside them.

    The records are deleted in the same transaction as the rows: if it fails, they stay for the next try (the
    sweeper's, ``source_files_sweep``)."""
    used = 0
    while True:
        with _import_transaction():
            with bound_cursor() as cursor:
                cursor.execute(
                    """
                    DELETE FROM ingestion_sharedrowcreated WHERE id IN (
                        SELECT r.id FROM ingestion_sharedrowcreated r
                        JOIN ingestion_sourcefile f ON f.id = r.source_file_id
                        WHERE f.status = 'failed' AND (%(every)s OR f.id = ANY(%(ids)b::bigint[]))
                        LIMIT %(batch)s
                        FOR UPDATE OF r SKIP LOCKED
                    )
                    RETURNING kind, key
                    """,
                    {"every": file_ids is None, "ids": list(file_ids or []), "batch": _TAKE_BACK_BATCH},
                )
                records = cursor.fetchall()
            if not records:
                return used
            keys: dict[str, set[str]] = {kind: set() for kind in SharedRowCreated.Kind.values}
            for kind, key in records:
                keys[kind].add(key)
            if keys[SharedRowCreated.Kind.ALIAS] and kept:
                skill_keys, topic_keys = document_label_keys(list(kept))
                keys[SharedRowCreated.Kind.ALIAS] -= skill_keys | topic_keys
            shared_rows_delete_unused(
                skill_slugs=keys[SharedRowCreated.Kind.SKILL],
                alias_labels=keys[SharedRowCreated.Kind.ALIAS],
                repository_names=keys[SharedRowCreated.Kind.REPOSITORY],
            )
        used += len(records)
        if len(records) < _TAKE_BACK_BATCH:
            return used


def _failed_files_take_back(file_ids: list[int], *, kept: list[ProfileDocument]) -> None:
    """``shared_rows_take_back`` after the files' outcomes are committed. A failure here is not the files': their
    outcome stands, the records stay, and the next sweep takes the rows back; it is logged with the files' ids."""
    try:
        shared_rows_take_back(file_ids=file_ids, kept=kept)
    except DatabaseError as exc:
        log = logger.warning if is_transient(exc) else logger.error
        log(
            "Taking back the shared rows created for failed source files %s failed; they stay on record until the "
            "sweeper takes them back",
            ", ".join(map(str, file_ids)),
            exc_info=True,
        )


def _chunk_vocabulary(
    documents: list[ProfileDocument], fallback: SkillVocabulary, source_ids: list[int] | None = None
) -> SkillVocabulary:
    """The database's vocabulary of these documents' labels, creating the skills it lacks, in a short transaction
    of its own that commits before the chunk's (see ``ingestion.loaders.skill_labels_resolve``); what it creates is
    recorded in the same transaction against the files (``source_ids``, one per document) whose labels needed it.

    When one document's labels cannot be stored, the others' are resolved one document at a time, so that only
    that document is left with the process's copy of the vocabulary (and fails alone when it is loaded)."""
    resolved: dict[str, Resolution] = {}  # each label read once: normalise is answered from here
    try:
        return _resolve_vocabulary(documents, source_ids, fallback, resolved).vocabulary.within(fallback, resolved)
    except SAVE_ERRORS as exc:
        if is_transient(exc):
            raise
        logger.warning("Creating the skills of %s files failed (%s); creating them file by file", len(documents), exc)
    slugs = dict(fallback.slugs)
    for index, document in enumerate(documents):
        try:
            resolved = _resolve_vocabulary([document], None if source_ids is None else [source_ids[index]], fallback)
        except SAVE_ERRORS as exc:
            if is_transient(exc):
                raise
            continue
        slugs.update(resolved.vocabulary.slugs)
    return SkillVocabulary(slugs=slugs, words=fallback.words, base=fallback)


def _resolve_vocabulary(
    documents: list[ProfileDocument],
    source_ids: list[int] | None,
    vocabulary: SkillVocabulary,
    resolved: dict[str, Resolution] | None = None,
) -> ResolvedLabels:
    """Resolves the documents' labels through ``vocabulary``'s resolver first (``document_label_keys``, which puts
    each label's resolution in ``resolved``): only a label that names no known skill and is a technology creates a
    skill."""
    skill_keys, topic_keys = document_label_keys(documents, vocabulary, resolved)
    with _import_transaction():
        resolved = skill_labels_resolve(skill_keys=skill_keys, topic_keys=topic_keys)
        if source_ids and (resolved.created_skills or resolved.created_aliases):
            _shared_rows_record(_skills_created_by_file(resolved, documents, source_ids))
        return resolved


def _skills_created_by_file(
    resolved: ResolvedLabels, documents: list[ProfileDocument], source_ids: list[int]
) -> list[tuple[int, str, str]]:
    """(file id, kind, key) of each skill and alias ``resolved`` created, against every file whose labels name it."""
    rows = []
    for pk, document in zip(source_ids, documents, strict=True):
        skill_keys, topic_keys = document_label_keys([document])
        labels = skill_keys | topic_keys
        rows += [(pk, SharedRowCreated.Kind.ALIAS, label) for label in labels & resolved.created_aliases]
        slugs = {skill_slug(label) for label in labels} & resolved.created_skills
        rows += [(pk, SharedRowCreated.Kind.SKILL, slug) for slug in slugs]
    return rows


def _normalise_one(source_pk: int, document: ProfileDocument, vocabulary: SkillVocabulary, budget: FileBudget):
    """The normalised profile, or the message a recruiter reads about why this file could not be imported."""
    try:
        return document_normalise(document, vocabulary, budget=budget)
    except FileTooSlow as exc:
        return _too_slow(source_pk, str(exc))
    except SoftTimeLimitExceeded:  # the task's time is up, not the file's fault: it stays claimed for the sweeper
        raise
    except Exception:  # a normaliser bug must fail this one file, not the batch; the row keeps the bytes
        logger.exception("Normalising source file %s failed", source_pk)
        return "The importer hit an internal error on this file; it is kept for re-importing after a fix."


def _too_slow(source_pk: int, message: str) -> str:
    """Record at once that this file ran past its time budget (its outcome is written again with the chunk's): a chunk
    that is interrupted later, by its task's time limit or a lost worker, then does not hand it to the next attempt,
    which would spend the same time on it again, as often as the sweeper retries, holding its neighbours back."""
    logger.warning("Source file %s ran past its time budget and fails alone", source_pk)
    with _import_transaction():
        _finish_files([(source_pk, SourceFile.Status.FAILED, "", message, None, None)])
    return message


def _repositories_first(profiles: list[NormalisedProfile], source_ids: list[int] | None = None) -> None:
    """Create the profiles' new repositories in a short transaction before the chunk's (stored ones are refreshed in
    the chunk's); those it creates are recorded in the same transaction against the files (``source_ids``, one per
    profile) that name them."""
    if not profiles:
        return
    try:
        with _import_transaction():
            names = repositories_upsert(profiles)
            if source_ids and names:
                _shared_rows_record(
                    [
                        (pk, SharedRowCreated.Kind.REPOSITORY, name)
                        for pk, profile in zip(source_ids, profiles, strict=True)
                        for name in {c.repository for c in profile.contributions} & names
                    ]
                )
    except SAVE_ERRORS as exc:
        if is_transient(exc):
            raise
        logger.warning("Creating the repositories of %s files failed (%s)", len(profiles), exc)  # the load meets it
        # again, and fails just the file at fault


def documents_load(*, documents: list[ProfileDocument]) -> list[LoadResult]:
    """Normalise and load parsed documents in this process, outside any source file: the pipeline's last two stages,
    for tools and tests that start from documents. Raises on any database error, and ``ParseError`` for a document
    past a cap (``INGEST_MAX_*``)."""
    documents = [apply_limits(document, _limits()) for document in documents]
    vocabulary = _chunk_vocabulary(documents, skill_vocabulary()) if documents else SkillVocabulary()
    profiles = [normalise(document, vocabulary) for document in documents]
    _repositories_first(profiles)
    with _import_transaction():
        results = load_profiles(profiles)
        sourcing_records_add(rows=[(result.candidate_id, None, None) for result in results])
    transaction.on_commit(candidate_filter_choices_forget, robust=True)
    return results


def _database_message(exc: DatabaseError | UnicodeEncodeError) -> str:
    """What a recruiter reads about a profile the database refused: the kind of refusal in words (by its SQLSTATE
    class), then the database's own first line, for whoever looks into it."""
    text = str(exc).strip()
    detail = text.splitlines()[0][:200] if text else exc.__class__.__name__
    if isinstance(exc, UnicodeEncodeError):
        return f"The profile could not be saved: it holds characters that cannot be stored ({detail})."
    reason = {
        "54": "it is too large for the database",  # program_limit_exceeded: a search vector over 1 MB, ...
        "23": "it breaks a rule of the database",  # integrity constraints
        "22": "a value in it is not one the database accepts",  # data exceptions
    }.get((sqlstate_of(exc) or "")[:2], "the database refused it")
    return f"The profile could not be saved: {reason} ({detail})."


def _result_rows(
    loaded: list[tuple[ClaimedFile, NormalisedProfile]], results: list[LoadResult], summary: ImportSummary
) -> list[tuple]:
    rows = []
    for (source, _), result in zip(loaded, results, strict=True):
        status = (
            SourceFile.Status.UNCHANGED
            if result.outcome == SourceFile.Outcome.UNCHANGED
            else SourceFile.Status.IMPORTED
        )
        rows.append((source.pk, status, result.outcome, "", Jsonb(result.warnings), result.candidate_id))
        setattr(summary, result.outcome, getattr(summary, result.outcome) + 1)
    return rows


def _failure_rows(failures: list[tuple[ClaimedFile, str]], summary: ImportSummary) -> list[tuple]:
    rows = []
    for source, message in failures:
        rows.append((source.pk, SourceFile.Status.FAILED, "", message, None, None))  # the file keeps its warnings
        summary.failed += 1
        summary.errors.append((source.original_name, message))
    return rows


def _finish_files(rows: list[tuple]) -> None:
    """One UPDATE for the outcome of many files: (id, status, outcome, error, warnings or None to keep the stored
    ones, candidate id or None to keep the stored one: a file that fails again still names the candidate it built,
    which ``reparse --all`` reads). A file that did not fail no longer needs the record of the shared rows created
    for it: it is dropped in the same statement (a failed file's is used by ``shared_rows_take_back``)."""
    if not rows:
        return
    arrays = [list(column) for column in zip(*rows, strict=True)]
    with bound_cursor() as cursor:
        cursor.execute(
            """
            WITH u AS (
                SELECT * FROM unnest(%b::bigint[], %b::varchar[], %b::varchar[], %b::text[], %b::jsonb[], %b::bigint[])
                    AS u(id, status, outcome, error, warnings, candidate_id)
            ),
            done AS (
                DELETE FROM ingestion_sharedrowcreated r USING u WHERE r.source_file_id = u.id AND u.status <> 'failed'
            )
            UPDATE ingestion_sourcefile AS f
            SET status = u.status, outcome = u.outcome, error = u.error, warnings = coalesce(u.warnings, f.warnings),
                candidate_id = coalesce(u.candidate_id, f.candidate_id), processed_at = now()
            FROM u
            WHERE f.id = u.id
            """,
            arrays,
        )


def batch_finish_if_done(*, batch_id: int) -> bool:
    """Stamp ``finished_at`` once no file of the batch is pending or processing (compare-and-set)."""
    unfinished = SourceFile.objects.filter(
        batch_id=batch_id, status__in=[SourceFile.Status.PENDING, SourceFile.Status.PROCESSING]
    )
    if unfinished.exists():
        return False
    return bool(ImportBatch.objects.filter(pk=batch_id, finished_at__isnull=True).update(finished_at=timezone.now()))


def batch_progress(*, batch: ImportBatch) -> dict:
    """Totals and counts by status: what progress bars and the API show."""
    counts = dict(batch.files.values_list("status").annotate(n=Count("id")).values_list("status", "n"))
    return progress_from_counts(batch, counts)


def batch_summary(*, batch: ImportBatch) -> ImportSummary:
    """The one-line outcome of a batch: created, updated, unchanged (including identical bytes) and failed."""
    outcomes = Counter(dict(batch.files.values_list("outcome").annotate(n=Count("id")).values_list("outcome", "n")))
    failed = batch.files.filter(status=SourceFile.Status.FAILED)
    return ImportSummary(
        created=outcomes[SourceFile.Outcome.CREATED],
        updated=outcomes[SourceFile.Outcome.UPDATED],
        unchanged=outcomes[SourceFile.Outcome.UNCHANGED] + batch.duplicates - batch.duplicates_failed,
        failed=failed.count() + batch.duplicates_failed,
        errors=list(failed.values_list("original_name", "error"))
        + [(f.original_name, f.error) for f in batch_failed_duplicates(batch=batch)],
    )


# --- Recovery ------------------------------------------------------------------------------------------------------


def source_files_sweep() -> int:
    """Re-queue files a lost message or a dead worker left pending or processing; give up after MAX_ATTEMPTS.

    Returns how many files were re-queued. Safe to run any time: claims are compare-and-set.
    """
    stale_before = timezone.now() - timezone.timedelta(seconds=settings.INGEST_STALE_AFTER_SECONDS)
    stuck = SourceFile.objects.filter(
        Q(status=SourceFile.Status.PENDING, queued_at__lt=stale_before)
        | Q(status=SourceFile.Status.PENDING, queued_at__isnull=True)
        | Q(status=SourceFile.Status.PROCESSING, claimed_at__lt=stale_before)
    )
    with transaction.atomic():
        # A rebuild's files get their status back (the next reparse --all does them): imported one by one, an older
        # file of a candidate could overwrite what the newer one wrote.
        rebuilt = list(stuck.filter(claimed_by__startswith=REBUILD_TOKEN_PREFIX).values_list("pk", flat=True))
        if rebuilt:
            logger.warning("%s files of an interrupted rebuild were left as they were", len(rebuilt))
            _files_leave_as_they_were(rebuilt)
        stuck = stuck.exclude(pk__in=rebuilt)
        exhausted = list(stuck.filter(attempts__gte=MAX_ATTEMPTS).values_list("pk", "batch_id"))
        SourceFile.objects.filter(pk__in=[pk for pk, _ in exhausted]).update(
            status=SourceFile.Status.FAILED,
            processed_at=timezone.now(),
            error=f"Import was interrupted {MAX_ATTEMPTS} times (worker lost); re-import it from the admin.",
        )
        ids = sorted(stuck.filter(attempts__lt=MAX_ATTEMPTS).values_list("pk", flat=True))
        SourceFile.objects.filter(pk__in=ids).update(
            status=SourceFile.Status.PENDING, claimed_by="", queued_at=timezone.now()
        )
        if ids:
            _enqueue_on_commit(ids)
    # A worker that died, or lost its database connection, after committing its chunk but before stamping the batch
    # leaves a batch with every file done and no finished_at (its retry claims nothing, so stamps nothing): stamp it.
    unstamped = (
        ImportBatch.objects.filter(finished_at__isnull=True, created_at__lt=stale_before)
        .exclude(files__status__in=[SourceFile.Status.PENDING, SourceFile.Status.PROCESSING])
        .values_list("pk", flat=True)
    )
    for batch_id in {b for _, b in exhausted if b} | set(unstamped):
        batch_finish_if_done(batch_id=batch_id)
    # The shared rows created for the files just given up on, which never finished an import to take them back, and
    # for failed files whose import could not take them back (logged then): issue 15, hole 9.
    shared_rows_take_back()
    return len(ids)


def source_files_requeue(*, file_ids: Iterable[int]) -> int:
    """Send stored files through the parser and loader again (after a parser fix, or by a recruiter's request)."""
    ids = sorted(file_ids)
    with transaction.atomic():
        updated = (
            SourceFile.objects.filter(pk__in=ids)
            .exclude(status=SourceFile.Status.PROCESSING)
            # An erased or refused file (ingestion.privacy) has no bytes to parse, and its message says why.
            .exclude(size=0, original_name=WITHHELD_NAME)
            .update(status=SourceFile.Status.PENDING, error="", claimed_by="", attempts=0, queued_at=timezone.now())
        )
        ImportBatch.objects.filter(files__pk__in=ids).update(finished_at=None)
        _enqueue_on_commit(ids)
    return updated


# --- Rebuilding (manage.py reparse --all) --------------------------------------------------------------------------

# Files a rebuild reads: every file a candidate was built from, and those that failed since (a failed file keeps the
# link to the candidate it built, so that the next run tries it again in its place). Pending and processing files are
# left to the import that holds them.
_REBUILT_STATUSES = (SourceFile.Status.IMPORTED, SourceFile.Status.UNCHANGED, SourceFile.Status.FAILED)


# The claims of a rebuild's files: the sweeper gives such files their status back rather than import them as any
# file (a rebuild loads a candidate's files together, which a plain import does not).
REBUILD_TOKEN_PREFIX = "rebuild:"  # noqa: S105 - a claim marker, no secret


def _kept_by_hand() -> Q:
    """Candidates a rebuild leaves as they are: those a merge united or a person edited (a history record with a
    user). Rebuilt from the newest file alone, they would lose the other files' rows, or the edited ones."""
    edited = Candidate.history.filter(id=OuterRef("pk"), history_user__isnull=False)
    return Q(Exists(MergeRecord.objects.filter(survivor=OuterRef("pk")))) | Q(Exists(edited))


def rebuild_totals() -> tuple[int, int, int]:
    """(candidates, files) a rebuild of every candidate reads, and how many candidates it keeps as they are."""
    kept = Candidate.objects.filter(_kept_by_hand())
    files = SourceFile.objects.filter(candidate__isnull=False, status__in=_REBUILT_STATUSES).exclude(candidate__in=kept)
    return files.values("candidate").distinct().count(), files.count(), kept.count()


def rebuild_chunks(*, size: int) -> Iterator[list[int]]:
    """The ids of the files to rebuild every candidate from, ``size`` candidates at a time in id order, each
    candidate's files together and in the order they were received (ids): the newest file is loaded last and wins,
    as it did when the files were imported. Pages by candidate id (``id > last``), so memory stays flat and
    candidates created meanwhile are met too.

    Each step walks an index (the candidates' primary key, then their files' ``sourcefile_candidate_idx``); the
    statuses are read, not filtered in SQL: a status filter made the planner scan every file of that status a chunk
    (statuses change under a rebuild faster than its statistics)."""
    last = 0
    while True:
        page = list(
            Candidate.objects.filter(pk__gt=last)
            .annotate(kept=_kept_by_hand())
            .order_by("pk")
            .values_list("pk", "kept")[:size]
        )
        if not page:
            return
        last = page[-1][0]
        candidate_ids = [pk for pk, kept in page if not kept]
        with bound_cursor() as cursor:
            cursor.execute(
                "SELECT f.id, f.status FROM unnest(%b::bigint[]) AS c(id) "
                "JOIN ingestion_sourcefile f ON f.candidate_id = c.id",
                [candidate_ids],
            )
            file_ids = sorted(pk for pk, status in cursor.fetchall() if status in _REBUILT_STATUSES)
        if file_ids:
            yield file_ids


def source_files_rebuild(*, file_ids: list[int], token: str) -> ImportSummary:
    """Rebuild candidates from their stored files (``rebuild_chunks``): each file is parsed and loaded again, and its
    candidate rewritten even when the document's fingerprint is unchanged, with every row of it (jobs, languages,
    study dates: what the code that first loaded it may not have written). Protected fields stay as edited.

    A candidate is rebuilt from all its files or left as it was: when one of them fails now, it is marked failed
    with its message (keeping its bytes and its candidate), and the others are left as they were, so that an older
    file never overwrites what the newer one wrote. A candidate that a newer file, not in ``file_ids``, was imported
    into after they were chosen is left to that import (alongside normal imports: the older files must not overwrite
    it). Safe to run again: the same files give the same rows."""
    ids = sorted(file_ids)
    token = token if token.startswith(REBUILD_TOKEN_PREFIX) else REBUILD_TOKEN_PREFIX + token
    # Claimable as any import's files are; their outcome and error stay until the import records the new ones, so
    # that a file left as it was can get its status back (``_files_leave_as_they_were``). A file whose candidate is
    # gone (deleted since the chunk was chosen) is left alone: a rebuild creates nobody.
    SourceFile.objects.filter(pk__in=ids, status__in=_REBUILT_STATUSES, candidate__isnull=False).update(
        status=SourceFile.Status.PENDING, claimed_by=token, attempts=0, queued_at=timezone.now()
    )
    return source_files_import(file_ids=ids, token=token, rebuild=True)


def source_files_rebuild_enqueue(*, file_ids: list[int]) -> None:
    """Queue one chunk of ``rebuild_chunks`` to a worker, as one task: a candidate's files must load together."""
    from ingestion import tasks  # tasks import services; keep the cycle one-way at import time

    transaction.on_commit(lambda: tasks.rebuild_files.delay(file_ids))


class _Superseded(Exception):
    """Candidates a rebuild leaves as they were: a newer import wrote them after the rebuild chose their files, or
    their files now lead to another candidate (raised to roll the load back)."""

    def __init__(self, candidate_ids: set[int]):
        super().__init__(candidate_ids)
        self.candidate_ids = candidate_ids


class _ProbeDone(Exception):
    """Rolls back a load made only to learn whether it succeeds."""


def _rebuild_load(
    normalised: list[tuple[ClaimedFile, NormalisedProfile]],
    failures: list[tuple[ClaimedFile, str]],
    summary: ImportSummary,
) -> set[int]:
    """Load a rebuild's files a candidate at a time (see ``source_files_rebuild``), record every file's outcome, and
    return the ids of those that failed to save."""
    candidate_of = dict(
        SourceFile.objects.filter(pk__in=[s.pk for s, _ in normalised + failures]).values_list("pk", "candidate_id")
    )
    groups: dict[int, list[tuple[ClaimedFile, NormalisedProfile]]] = {}
    held: list[int] = []  # files left as they were
    for source, profile in normalised:
        if candidate_of[source.pk] is None:  # its candidate was deleted meanwhile: a rebuild creates nobody
            held.append(source.pk)
            continue
        groups.setdefault(candidate_of[source.pk], []).append((source, profile))
    for candidate_id in {candidate_of[source.pk] for source, _ in failures} & groups.keys():
        held += [source.pk for source, _ in groups.pop(candidate_id)]
    failed: list[tuple[ClaimedFile, str]] = list(failures)
    refused: set[int] = set()  # files of people erased meanwhile, failed in the transaction that refused them
    while groups:
        attempt = ImportSummary()
        try:
            refused |= _rebuild_transaction(groups, candidate_of, attempt)
        except _Superseded as exc:
            for candidate_id in exc.candidate_ids:
                held += [source.pk for source, _ in groups.pop(candidate_id)]
            continue
        except SAVE_ERRORS as exc:
            if is_transient(exc):
                raise
            files = sum(len(group) for group in groups.values())
            logger.warning("Rebuild of %s files failed (%s); rebuilding candidate by candidate", files, exc)
            _rebuild_one_by_one(groups, summary, failed, held, candidate_of, refused)
        else:
            summary.add(attempt)
        break
    with _import_transaction():
        rows = _failure_rows(failed, summary)
        _finish_files(rows)  # a failed file keeps the link to the candidate it built before
        _files_leave_as_they_were(held)
    summary.unchanged += len(held)
    return {source.pk for source, _ in failed} | refused


def _rebuild_transaction(
    groups: dict[int, list[tuple[ClaimedFile, NormalisedProfile]]],
    candidate_of: dict[int, int | None],
    summary: ImportSummary,
) -> set[int]:
    """Load these candidates' files and record their outcome in one transaction; ``_Superseded`` (rolled back) for
    candidates whose files now lead to another candidate, or that a newer import wrote meanwhile. The files of a
    person erased since they were chosen are refused (``_refuse_erased_meanwhile``); returns their ids."""
    with _import_transaction():
        loaded, refused = _refuse_erased_meanwhile([pair for group in groups.values() for pair in group], summary)
        results = load_profiles([profile for _, profile in loaded], rebuild=True) if loaded else []
        _raise_if_elsewhere(loaded, results, candidate_of)
        _raise_if_superseded(groups)  # an erased candidate's files no longer name them: none is newer
        _finish_files(_result_rows(loaded, results, summary))
    return refused


def _rebuild_one_by_one(
    groups: dict[int, list[tuple[ClaimedFile, NormalisedProfile]]],
    summary: ImportSummary,
    failed: list[tuple[ClaimedFile, str]],
    held: list[int],
    candidate_of: dict[int, int | None],
    refused: set[int],
) -> None:
    """After a set-based rebuild failed: each candidate in a transaction of its own; of one that fails, the files
    that fail alone are marked failed (all of them, when none does) and the rest left as they were. The ids of files
    refused as an erased person's go to ``refused``."""
    for candidate_id, group in groups.items():
        attempt = ImportSummary()
        try:
            refused |= _rebuild_transaction({candidate_id: group}, candidate_of, attempt)
        except _Superseded:
            held.extend(source.pk for source, _ in group)
            continue
        except SAVE_ERRORS as exc:
            if is_transient(exc):
                raise
            logger.warning("Candidate %s could not be rebuilt: %s", candidate_id, exc)
            culprits = [(source, message) for source, profile in group if (message := _save_error(profile))]
            culprits = culprits or [(source, _database_message(exc)) for source, _ in group]
            failed.extend(culprits)
            held.extend(source.pk for source, _ in group if source.pk not in {s.pk for s, _ in culprits})
            continue
        summary.add(attempt)


def _save_error(profile: NormalisedProfile) -> str | None:
    """The message of the database's refusal of this profile on its own, or None; writes nothing."""
    try:
        with transaction.atomic():
            load_profiles([profile], rebuild=True)
            raise _ProbeDone
    except _ProbeDone:
        return None
    except SAVE_ERRORS as exc:
        if is_transient(exc):
            raise
        return _database_message(exc)


def _raise_if_elsewhere(
    loaded: list[tuple[ClaimedFile, NormalisedProfile]], results: list[LoadResult], candidate_of: dict[int, int | None]
) -> None:
    """``_Superseded`` for the candidates whose file loaded into another candidate: the parser now reads an identifier
    it missed, which someone else holds. Loaded, the file would overwrite that person; the pair is a recruiter's to
    look at (a merge, or an identifier to correct), so the candidate is left as it was."""
    elsewhere = {
        candidate_of[source.pk]
        for (source, _), result in zip(loaded, results, strict=True)
        if result.candidate_id != candidate_of[source.pk]
    }
    if elsewhere:
        logger.warning("Rebuild: the files of candidates %s now match other candidates; left as they were", elsewhere)
        raise _Superseded(elsewhere)


def _raise_if_superseded(groups: dict[int, list[tuple[ClaimedFile, NormalisedProfile]]]) -> None:
    """``_Superseded`` when a file of one of these candidates, newer than their files here, was received meanwhile.

    Run after the load took its identity locks: an import of that person that is still under way waits for them and
    writes after this one (the newest file wins); one that committed before is found here."""
    newest = {candidate_id: max(s.pk for s, _ in group) for candidate_id, group in groups.items() if candidate_id > 0}
    if not newest:
        return
    with bound_cursor() as cursor:
        cursor.execute(
            # Any newer file of theirs, whatever its status: one still under way is left to write after this load
            # anyway. Only the candidate's index finds their few files (no status test, and "+ 0": a range scan of the
            # primary key beside it read every newer file, 18 ms a candidate at 100,000 files).
            "SELECT c.id FROM unnest(%b::bigint[], %b::bigint[]) AS c(id, newest) WHERE EXISTS "
            "(SELECT FROM ingestion_sourcefile f WHERE f.candidate_id = c.id AND f.id + 0 > c.newest)",
            [list(newest), list(newest.values())],
        )
        superseded = {row[0] for row in cursor.fetchall()}
    if superseded:
        raise _Superseded(superseded)


def _files_leave_as_they_were(file_ids: list[int]) -> None:
    """Give files a rebuild claimed but did not load their status back (from the outcome and error they kept)."""
    if not file_ids:
        return
    with bound_cursor() as cursor:
        cursor.execute(
            "UPDATE ingestion_sourcefile SET claimed_by = '', status = CASE WHEN error <> '' THEN 'failed' "
            "WHEN outcome = 'unchanged' THEN 'unchanged' ELSE 'imported' END WHERE id = ANY(%b::bigint[])",
            [file_ids],
        )


def inbox_scan(*, inbox: Path | None = None) -> ImportBatch | None:
    """Turn new files in the watched inbox into a batch; move each stored file to ``.imported/`` afterwards.

    Only the inbox's own regular files are read (see ``iter_folder``); an entry skipped is moved to ``.rejected/`` so
    that it is reported once, not at every scan, and kept for a look. No file to read, no batch.
    """
    inbox = Path(inbox or settings.INGEST_INBOX).resolve()
    if not inbox.is_dir():
        return None
    today = timezone.now().strftime("%Y-%m-%d")
    skipped: list[Path] = []
    received: list[Path] = []
    files = _noting_paths(iter_folder([inbox], recursive=False, skipped=skipped), received)
    first = next(files, None)
    batch = None
    if first is not None:
        batch = batch_create(origin=ImportBatch.Origin.INBOX)
        batch_receive(batch=batch, files=itertools.chain([first], files))
        # Stored and committed: safe to move; a crash before this only re-reads duplicates.
        _move_into(received, inbox / ".imported" / today)
    _move_into(skipped, inbox / ".rejected" / today)
    return batch


def _noting_paths(files: Iterator[IncomingFile], paths: list[Path]) -> Iterator[IncomingFile]:
    for incoming in files:
        paths.append(incoming.path)
        yield incoming


def _move_into(paths: list[Path], folder: Path) -> None:
    if not paths:
        return
    folder.mkdir(parents=True, exist_ok=True)
    for path in paths:
        try:
            os.rename(path, folder / path.name)  # the entry itself: a link is moved, never followed
        except OSError as exc:  # gone meanwhile, or not ours to move: the next scan meets it again
            logger.warning("Could not move %s to %s: %s", printable_path(path), folder, exc)
