"""Rebuilding candidates from their stored files (``manage.py reparse --all``), whole candidates at a time."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from db.cursors import bound_cursor
from db.errors import is_transient
from db.queueing import task_on_commit
from ingestion.loaders import (
    LoadResult,
    load_profiles,
)
from ingestion.models import SourceFile
from ingestion.normalise import (
    NormalisedProfile,
)
from ingestion.queueing import REBUILD_FILES
from ingestion.services.importing import files_import, refuse_erased_meanwhile
from ingestion.services.outcomes import (
    SAVE_ERRORS,
    ClaimedFile,
    ImportSummary,
    database_message,
    extracted_texts_keep,
    failure_rows,
    finish_files,
    import_transaction,
    result_rows,
)
from profiles.models import Candidate, MergeRecord

logger = logging.getLogger(__name__)


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
    # that a file left as it was can get its status back (``files_leave_as_they_were``). A file whose candidate is
    # gone (deleted since the chunk was chosen) is left alone: a rebuild creates nobody.
    SourceFile.objects.filter(pk__in=ids, status__in=_REBUILT_STATUSES, candidate__isnull=False).update(
        status=SourceFile.Status.PENDING, claimed_by=token, attempts=0, queued_at=timezone.now()
    )
    return files_import(file_ids=ids, token=token, load=_rebuild_load)


def source_files_rebuild_enqueue(*, file_ids: list[int]) -> None:
    """Queue one chunk of ``rebuild_chunks`` to a worker, as one task: a candidate's files must load together."""
    task_on_commit(REBUILD_FILES, file_ids)


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
) -> tuple[ImportSummary, set[int]]:
    """A rebuild's load step (``importing.LoadStep``): its files a candidate at a time (see ``source_files_rebuild``),
    every file's outcome recorded; returns the summary with the ids of those that failed to save."""
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
    with import_transaction():
        rows = failure_rows(failed, summary)
        finish_files(rows)  # a failed file keeps the link to the candidate it built before
        files_leave_as_they_were(held)
    summary.unchanged += len(held)
    return summary, {source.pk for source, _ in failed} | refused


def _rebuild_transaction(
    groups: dict[int, list[tuple[ClaimedFile, NormalisedProfile]]],
    candidate_of: dict[int, int | None],
    summary: ImportSummary,
) -> set[int]:
    """Load these candidates' files and record their outcome in one transaction; ``_Superseded`` (rolled back) for
    candidates whose files now lead to another candidate, or that a newer import wrote meanwhile. The files of a
    person erased since they were chosen are refused (``refuse_erased_meanwhile``); returns their ids."""
    with import_transaction():
        loaded, refused = refuse_erased_meanwhile([pair for group in groups.values() for pair in group], summary)
        results = load_profiles([profile for _, profile in loaded], rebuild=True) if loaded else []
        _raise_if_elsewhere(loaded, results, candidate_of)
        _raise_if_superseded(groups)  # an erased candidate's files no longer name them: none is newer
        finish_files(result_rows(loaded, results, summary))
        extracted_texts_keep(loaded)
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
            culprits = culprits or [(source, database_message(exc)) for source, _ in group]
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
        return database_message(exc)


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
            # primary key beside it read every newer file, a cost that grew with the files stored).
            "SELECT c.id FROM unnest(%b::bigint[], %b::bigint[]) AS c(id, newest) WHERE EXISTS "
            "(SELECT FROM ingestion_sourcefile f WHERE f.candidate_id = c.id AND f.id + 0 > c.newest)",
            [list(newest), list(newest.values())],
        )
        superseded = {row[0] for row in cursor.fetchall()}
    if superseded:
        raise _Superseded(superseded)


def files_leave_as_they_were(file_ids: list[int]) -> None:
    """Give files a rebuild claimed but did not load their status back (from the outcome and error they kept)."""
    if not file_ids:
        return
    with bound_cursor() as cursor:
        cursor.execute(
            "UPDATE ingestion_sourcefile SET claimed_by = '', status = CASE WHEN error <> '' THEN 'failed' "
            "WHEN outcome = 'unchanged' THEN 'unchanged' ELSE 'imported' END WHERE id = ANY(%b::bigint[])",
            [file_ids],
        )
