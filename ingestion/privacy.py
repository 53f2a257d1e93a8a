"""The import's part in privacy: refusing files of erased people, emptying stored files of a person's data, and
finding which stored files are theirs (for the erasure step, ``ingestion.erasure``, and the access request).

A file refused or erased keeps its row (the batch still counts it, and its message says why) but none of the
person's data: no bytes, no name, no warnings; every copy of its bytes the watched inbox kept (in ``.imported/`` or
``.rejected/``, under any name: a duplicate stores no row but is moved there too) is deleted as well. A
refused file keeps its sha256, so the same bytes sent again are "already stored" and refused by that row; an erased
file's sha256 is replaced, so the same bytes sent again are parsed, and refused by the suppression records.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.models import Q

from db.queueing import task_on_commit
from ingestion.documents import ParseError, ProfileDocument
from ingestion.file_budget import FileTooSlow, file_budget
from ingestion.models import ImportBatch, InboxCopyToDelete, SharedRowCreated, SourceFile, SourceFileText
from ingestion.normalise import identity_keys
from ingestion.parsers import parse
from ingestion.queueing import DELETE_INBOX_COPIES
from privacy.erasure import ErasureContext
from privacy.selectors import documents_naming_person, suppressed_documents
from privacy.services import NEEDLE_MIN_CHARS, erasure_message, whole_words_re
from profiles.models import CandidateIdentifier

logger = logging.getLogger(__name__)

__all__ = [
    "ACCESS_WITHHELD_LABEL",
    "WITHHELD_LABEL",
    "WITHHELD_NAME",
    "documents_refused",
    "identity_keys_refused",
    "import_batches_holding",
    "import_batches_labelled_for",
    "inbox_copies_delete",
    "source_files_withhold",
    "unlinked_files_about_them",
    "unlinked_source_files_naming",
]

WITHHELD_NAME = "(withheld: an erased person)"
WITHHELD_LABEL = "(label withheld after an erasure)"
# What an access report shows of a batch's label: typed by hand, or made of the files' names before the default said
# only the batch's size and time, it may name the people of the batch's other files.
ACCESS_WITHHELD_LABEL = "(withheld: a batch's label may name other people)"
ERASE_SCAN_CHUNK = 200


def documents_refused(documents: Sequence[ProfileDocument]) -> list[str | None]:
    """For each parsed document, the message refusing it when it names an erased person, else None; one query for
    all of them (``privacy.selectors.suppressed_documents``)."""
    return identity_keys_refused([identity_keys(document) for document in documents])


def identity_keys_refused(keys_by_doc: Sequence[Sequence[tuple[str, str]]]) -> list[str | None]:
    """``documents_refused`` for documents already normalised (``NormalisedProfile.identity_keys``)."""
    refused = suppressed_documents(keys_by_doc=keys_by_doc)
    return [None if found is None else erasure_message(found.erased_at, reason=found.reason) for found in refused]


def source_files_withhold(
    *, file_ids: Sequence[int], error: str | None = None, new_sha: bool = False, take_back_later: bool = False
) -> int:
    """Empty these files of the person's data: bytes, the text kept from them, name, warnings, link to a candidate, and
    the record of shared rows created for them. With ``error`` they are also marked failed with that message (an
    erased file); with ``new_sha`` their sha256 no longer matches the bytes they had, so the same bytes sent again
    are parsed anew.

    With ``take_back_later`` the record of shared rows stays: the import refused these files after creating rows for
    them (a repository named after the person's account), and takes those back once its transaction commits
    (``shared_rows_take_back``), which deletes the record too."""
    if not file_ids:
        return 0
    ids = list(file_ids)
    _inbox_copies_to_delete(ids)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ingestion_sourcefile SET content = ''::bytea, size = 0, original_name = %s, "
            "warnings = '[]'::jsonb, candidate_id = NULL, "
            "status = CASE WHEN %s::text IS NULL THEN status ELSE 'failed' END, "
            "outcome = CASE WHEN %s::text IS NULL THEN outcome ELSE '' END, "
            "error = coalesce(%s::text, error), "
            "sha256 = CASE WHEN %s THEN 'erased-' || id ELSE sha256 END "
            "WHERE id = ANY(%s::bigint[])",
            [WITHHELD_NAME, error, error, error, new_sha, ids],
        )
        withheld = cursor.rowcount
    SourceFileText.objects.filter(source_file_id__in=ids).delete()
    if not take_back_later:
        SharedRowCreated.objects.filter(source_file_id__in=ids).delete()
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(SourceFile), object_id__in=[str(pk) for pk in ids]
    ).delete()
    return withheld


# The folders where the watched inbox keeps what it took in (``ingestion.services.inbox_scan``): what it stored, and
# what it duplicates (bytes already stored, under any name) went to ``.imported/<day>/``; what it could not read as a
# regular file with a UTF-8 name went to ``.rejected/<day>/``.
INBOX_KEPT_FOLDERS = (".imported", ".rejected")


def _inbox_copies_to_delete(file_ids: list[int]) -> None:
    """Record the bytes of these files (size and sha256) for ``inbox_copies_delete``, whose copies the inbox kept have
    them whatever their name, their day or the batch that brought them; and, once this transaction commits, ask the
    worker where the inbox is to delete them, unless an earlier erasure's request is still waiting (it takes these
    too)."""
    rows = (
        SourceFile.objects.filter(pk__in=file_ids, size__gt=0)
        .exclude(sha256__startswith="erased-")
        .values_list("size", "sha256")
    )
    wanted = [InboxCopyToDelete(size=size, sha256=sha256) for size, sha256 in rows]
    if not wanted:
        return
    waiting = InboxCopyToDelete.objects.exists()
    InboxCopyToDelete.objects.bulk_create(wanted, ignore_conflicts=True)
    if not waiting:
        task_on_commit(DELETE_INBOX_COPIES, robust=True)


def inbox_copies_delete() -> int:
    """Delete the regular files in the inbox's kept folders whose bytes are those recorded (``InboxCopyToDelete``), in
    one listing of the folders for every erasure recorded since the last run; returns how many files went. A file of
    another size is never read, and a link is never followed. Run where the inbox is: by its worker on an erasure's
    request, and at every inbox scan.

    A record goes only once its copies are known to be gone: a worker without the inbox (not mounted there) keeps
    them all, and a copy that could not be read or deleted, or a folder that could not be listed, keeps those it may
    be, for the next run to try again."""
    pending = list(InboxCopyToDelete.objects.values_list("pk", "size", "sha256"))
    if not pending:
        return 0
    inbox = Path(settings.INGEST_INBOX)
    if not inbox.is_dir():
        logger.warning(
            "The inbox %s is not here: %d copies of erased people's files are left for the worker where it is",
            inbox,
            len(pending),
        )
        return 0
    wanted: dict[int, set[str]] = {}
    for _, size, sha256 in pending:
        wanted.setdefault(size, set()).add(sha256)
    deleted = 0
    left: set[tuple[int, str | None]] = set()  # copies that may still be there: (size, sha256), None when unread
    listed_all = True
    for folder in INBOX_KEPT_FOLDERS:
        try:
            for path, size in _regular_files_under(inbox / folder):
                if size in wanted:
                    gone, still_there = _inbox_copy_delete(path, wanted[size])
                    deleted += gone
                    left.update((size, digest) for digest in still_there)
        except OSError as exc:
            logger.warning("Could not list the inbox's folder %s: %s", inbox / folder, exc)
            listed_all = False
    if listed_all:
        done = [pk for pk, size, sha256 in pending if not {(size, sha256), (size, None)} & left]
        InboxCopyToDelete.objects.filter(pk__in=done).delete()
    return deleted


def _inbox_copy_delete(path: Path, digests: set[str]) -> tuple[int, list[str | None]]:
    """Delete the file if its bytes have one of these digests: (1, []) when it went, (0, []) when it is not one of
    them or was gone, and (0, [digest]) when it could not be deleted, or (0, [None]) read, which may be any of them."""
    try:
        digest = _sha256_of(path)
    except FileNotFoundError:
        return 0, []
    except OSError as exc:
        logger.warning("Could not read a copy in the inbox to tell whether it is an erased person's: %s", exc)
        return 0, [None]
    if digest not in digests:
        return 0, []
    try:
        path.unlink()
    except FileNotFoundError:
        return 0, []
    except OSError as exc:  # not ours to delete: the README names the inbox's folders as the operator's part
        logger.warning("Could not delete the inbox's copy of an erased person's file: %s", exc)
        return 0, [digest]
    return 1, []


def _regular_files_under(folder: Path) -> Iterator[tuple[Path, int]]:
    """(path, size) of every regular file under ``folder``, links neither followed nor listed; nothing when the folder
    is not there (gone meanwhile, or never made). Raises OSError when a folder cannot be listed."""
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            found = None if is_dir or not entry.is_file(follow_symlinks=False) else entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            continue  # gone meanwhile
        if is_dir:
            yield from _regular_files_under(Path(entry.path))
        elif found is not None:
            yield Path(entry.path), found.st_size


def _sha256_of(path: Path) -> str | None:
    """The sha256 of a regular file's bytes, read from the descriptor it was opened as (never through a link, never
    waiting on a FIFO swapped in since the listing); None for anything else."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            return None
        return hashlib.file_digest(file, "sha256").hexdigest()


def import_batches_holding(file_ids: Sequence[int]):
    """The batches that held one of these files of the person, whose label the erasure replaces: one typed by hand
    may name them, and so may the uploaded files' names or the paths that made the default labels of older batches
    (migration ``ingestion 0005`` replaced those it could tell from typed ones). An inbox batch's label is always the
    product's ("Inbox scan of 3 files, ...", or the inbox folder in older batches), naming nobody: it stays. A batch
    that received one of the files again after it had failed holds no row of it, only its id
    (``duplicates_failed_ids``)."""
    ids = list(file_ids)
    held = Q(pk__in=SourceFile.objects.filter(pk__in=ids).values("batch_id")) | Q(duplicates_failed_ids__overlap=ids)
    return ImportBatch.objects.filter(held).exclude(origin=ImportBatch.Origin.INBOX).exclude(label=WITHHELD_LABEL)


def import_batches_labelled_for(context: ErasureContext):
    """The batches whose label an erasure of the person would replace (the access request shows them)."""
    linked = SourceFile.objects.filter(candidate_id__in=context.candidate_ids).values_list("pk", flat=True)
    return import_batches_holding({*linked, *_unlinked_files_naming_them(context)}).order_by("pk")


# Stored files linked to no candidate whose bytes hold one of the needles, in one pass of one regular expression over
# the bytes as ``encode(..., 'escape')`` writes them (other bytes than ASCII as octal escapes, a backslash doubled):
# without case where the needle is ASCII, byte for byte elsewhere (a name with accents, as its UTF-8 is written).
# Only the ids come back; the bytes are read a chunk at a time (``ERASE_SCAN_CHUNK``). The candidate index finds the
# unlinked files: the files of every candidate are never read.
_UNLINKED_HOLDING_SQL = r"""
SELECT f.id FROM ingestion_sourcefile f
WHERE f.candidate_id IS NULL AND f.size > 0 AND encode(f.content, 'escape') ~* %s
ORDER BY f.id
"""


def _as_escape_encoded(needle: str) -> str:
    """The needle's UTF-8 bytes as ``encode(bytes, 'escape')`` writes them."""
    return "".join(
        f"\\{byte:03o}" if byte == 0 or byte > 127 else "\\\\" if byte == 92 else chr(byte)
        for byte in needle.encode("utf-8", "surrogatepass")
    )


def _needles_regex(needles: Sequence[str]) -> str:
    """One PostgreSQL regular expression matching any needle in escaped bytes (punctuation escaped; a letter or a
    digit is never preceded by a backslash, which would make it a class escape)."""
    return "|".join(
        "".join(char if char.isalnum() and char.isascii() else f"\\{char}" for char in _as_escape_encoded(needle))
        for needle in needles
    )


# Where an account of each kind is written as a URL: its path after the host.
_ACCOUNT_URL_PREFIXES = {
    CandidateIdentifier.Kind.GITHUB: r"github\.com/",
    CandidateIdentifier.Kind.GITLAB: r"gitlab\.com/",
    CandidateIdentifier.Kind.LINKEDIN: r"linkedin\.com/in/",
    CandidateIdentifier.Kind.TWITTER: r"(?:twitter|x)\.com/",
    CandidateIdentifier.Kind.STACKOVERFLOW: r"stackoverflow\.com/users/",
}
# What may follow the account in the URL of their profile page: Stack Overflow's is /users/<id>/<their name>.
_ACCOUNT_URL_TAILS = {CandidateIdentifier.Kind.STACKOVERFLOW: r"(?:/[\w%-]+)?"}
# The end of a URL's path (after a slash or not): the text's end, a space, a quote, a query or a fragment, a closing
# bracket or markup, a JSON escape, or punctuation ending a sentence. A slash and more path after the account is a
# page of theirs others link too (a repository, a post): no proof that a file is about them.
_URL_PATH_END = r"(?:/)?(?=$|[\s\"'`?#)\]}>*,;<|]|\\(?!/)|[.:!](?![\w%~-]))"


def _site(url: str) -> str:
    """A profile URL as the identifier matches it in a text: without the scheme and ``www.`` (stored lower-case,
    without a trailing slash)."""
    return re.sub(r"^(?:[a-z][a-z0-9+.-]*:)?//", "", url.strip()).removeprefix("www.")


def _any_slash(pattern: str) -> str:
    """The pattern with each slash also as JSON may escape it (``\\/``)."""
    return pattern.replace("/", r"\\?/")


def _identifiers_regex(identifiers: Sequence[tuple[str, str]]) -> re.Pattern[str] | None:
    """The person's e-mail and accounts as a text writes them, in any case: an e-mail address whole, an account as
    the address of its profile page on its network, the account ending the URL's path (``github.com/tovelq``,
    ``https://www.GitHub.com/ToveLQ/``, not ``github.com/tovelq/runbooks``), a profile URL as its host and path (the
    path ending there too), a site as its host whatever the path; a slash also as JSON may escape it (``\\/``). What
    no namesake's file holds; a page of theirs that others link (a repository) is not theirs alone."""
    parts = []
    for kind, value in identifiers:
        if kind == CandidateIdentifier.Kind.EMAIL:
            parts.append(rf"(?<![\w.%+-]){re.escape(value)}(?![\w-]|\.\w)")
        elif kind == CandidateIdentifier.Kind.URL and (site := _site(value)):
            # A page's path ends there as an account does (``github.com/tovelq``, ``fosstodon.example/@tove``); any
            # page of a site of theirs (a bare domain) is theirs.
            end = _URL_PATH_END if "/" in site else r"(?![\w-]|\.\w)"
            parts.append(_any_slash(rf"(?<![\w.-])(?:www\.)?{re.escape(site)}{end}"))
        elif kind in _ACCOUNT_URL_PREFIXES:
            address = rf"(?<![\w.-])(?:[\w-]+\.)*{_ACCOUNT_URL_PREFIXES[kind]}{re.escape(value)}"
            parts.append(_any_slash(address + _ACCOUNT_URL_TAILS.get(kind, "") + _URL_PATH_END))
    if not parts:
        return None
    return re.compile("|".join(parts), re.IGNORECASE)


def _words_regex(needles: Sequence[str]) -> re.Pattern[str] | None:
    """Any needle long enough to name someone (``NEEDLE_MIN_CHARS``) as whole words, in any case."""
    usable = [needle for needle in needles if len(needle.replace(" ", "")) >= NEEDLE_MIN_CHARS]
    return (
        re.compile("|".join(f"(?:{whole_words_re(needle).pattern})" for needle in usable), re.IGNORECASE)
        if usable
        else None
    )


def unlinked_source_files_naming(context: ErasureContext):
    """The stored files linked to no candidate whose document names the person (what the erasure empties besides
    their own files; the access request shows them)."""
    return SourceFile.objects.filter(pk__in=sorted(_unlinked_files_naming_them(context)))


def _unlinked_files_naming_them(context: ErasureContext) -> set[int]:
    return unlinked_files_about_them(context).theirs


class _Unlinked(NamedTuple):
    theirs: set[int]  # emptied by the erasure
    to_review: list[int]  # files naming them that may be a namesake's (failed, or too slow to read): listed, kept


def unlinked_files_about_them(context: ErasureContext) -> _Unlinked:
    """The unlinked stored files about the person. A scan of the bytes for their names and identifiers finds the
    candidates (one statement); only those are read, a chunk at a time, and each is

    - theirs when it parses and its identity keys match theirs (``privacy.selectors.documents_naming_person``: a
      namesake's file stays), or when it failed, no parser reads it (cut short, not a profile file) and it holds their
      e-mail or one of their accounts as a URL (``_identifiers_regex``);
    - to review when it failed and names them otherwise (their name, an account as a bare word, or a document whose
      identity keys are another person's), or when it names them and its parse ran past an import's time budget for
      one file (``_document_or_none``): the erasure cannot tell, and a privacy officer decides.

    A file under way (pending, processing) that no parser reads is neither: it fails next, and the next erasure
    of the person finds it."""
    sites = tuple(_site(value) for kind, value in context.identifiers if kind == CandidateIdentifier.Kind.URL)
    needles = tuple(dict.fromkeys(needle for needle in (*context.needles, *sites) if needle))
    if not needles or not context.digests:
        return _Unlinked(set(), [])
    with connection.cursor() as cursor:
        cursor.execute(_UNLINKED_HOLDING_SQL, [_needles_regex(needles)])
        ids = [row[0] for row in cursor.fetchall()]
    identifiers, words = _identifiers_regex(context.identifiers), _words_regex(needles)
    theirs: set[int] = set()
    to_review: list[int] = []
    for start in range(0, len(ids), ERASE_SCAN_CHUNK):
        rows = SourceFile.objects.filter(pk__in=ids[start : start + ERASE_SCAN_CHUNK]).values_list(
            "pk", "status", "content"
        )
        parsed: list[tuple[int, ProfileDocument]] = []
        failed: dict[int, tuple[bool, str]] = {}
        for pk, status, content in rows.order_by("pk"):
            data = bytes(content)
            try:
                document = _document_or_none(pk, data)
            except FileTooSlow:
                # Whose it is cannot be told (a parser may yet read it as a namesake's), whatever its status: never
                # emptied on an identifier alone, listed for review when it names them.
                failed[pk] = (False, data.decode("utf-8", "replace"))
                continue
            if document is not None:
                parsed.append((pk, document))
            if status == SourceFile.Status.FAILED:
                failed[pk] = (document is None, data.decode("utf-8", "replace"))
        naming = _naming_them(parsed, context.digests) if parsed else set()
        theirs |= naming
        for pk, (unread, text) in failed.items():
            if pk in naming:
                continue
            holds_identifier = identifiers is not None and identifiers.search(text) is not None
            if unread and holds_identifier:
                theirs.add(pk)
            elif holds_identifier or (words is not None and words.search(text)):
                to_review.append(pk)
    return _Unlinked(theirs, to_review)


def _naming_them(batch: list[tuple[int, ProfileDocument]], digests: frozenset[tuple[str, str]]) -> set[int]:
    naming = documents_naming_person(keys_by_doc=[identity_keys(document) for _, document in batch], digests=digests)
    return {pk for (pk, _), theirs in zip(batch, naming, strict=True) if theirs}


def _document_or_none(pk: int, data: bytes) -> ProfileDocument | None:
    """The file's document, or None when no parser reads it; ``FileTooSlow`` past the time budget of one file of an
    import (``INGEST_MAX_FILE_SECONDS``). The files that failed as too slow to read are among the unlinked files that
    name the person: unbounded, each would hold the erasure, and the rows it has locked, for as long as it takes."""
    try:
        with file_budget().spending():
            return parse(data, vocabulary=frozenset())
    except FileTooSlow:
        raise
    except ParseError:
        return None
    except Exception:  # a stored file that crashes a parser must not stop an erasure: it names nobody we can tell
        logger.warning("Source file %s could not be parsed while looking for an erased person", pk, exc_info=True)
        return None
