"""The import pipeline: claim a chunk of stored files, parse, normalise and load them, each file's outcome recorded.
The load step is passed in (``files_import``): a normal import's (``chunk_load``), or a rebuild's
(``ingestion.services.rebuilding``)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from contextlib import nullcontext

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.text import human_size_against
from db.cursors import bound_cursor
from db.errors import is_transient
from db.locks import lock_keys
from ingestion.documents import ParseError, ProfileDocument
from ingestion.file_budget import FileBudget, FileTooSlow, file_budget
from ingestion.loaders import (
    LoadResult,
    load_profiles,
)
from ingestion.models import SourceFile
from ingestion.normalise import (
    Limits,
    NormalisedProfile,
    apply_limits,
    identity_keys,
    normalise,
)
from ingestion.parsers import ReadFile, extracted_text, parse
from ingestion.parsers.registry import one_reading
from ingestion.privacy import documents_refused, identity_keys_refused, source_files_withhold
from ingestion.services.outcomes import (
    SAVE_ERRORS,
    ClaimedFile,
    ImportSummary,
    batch_finish_if_done,
    database_message,
    extracted_texts_keep,
    failure_rows,
    finish_files,
    import_transaction,
    result_rows,
    sourcing_record,
)
from ingestion.services.shared_rows import chunk_vocabulary, failed_files_take_back, repositories_first
from privacy.services import import_refusals_record, sourcing_records_add
from profiles.selectors import candidate_filter_choices_forget
from profiles.vocabulary import SkillVocabulary
from profiles.vocabulary_copy import skill_vocabulary

logger = logging.getLogger(__name__)


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
    """``document_parse``, and the text the parser read out of a binary file (its own reading, not a second one:
    held for this call alone)."""
    with one_reading():
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


# The pipeline's last step: loads the normalised files of a chunk, records every file's outcome (the ``failures``
# too: files that failed before it) in ``summary``, and returns the summary to report (a load that starts over
# reports anew) with the ids of the files that failed to save.
LoadStep = Callable[
    [list[tuple[ClaimedFile, NormalisedProfile]], list[tuple[ClaimedFile, str]], ImportSummary],
    tuple[ImportSummary, set[int]],
]


def source_files_import(*, file_ids: list[int], token: str) -> ImportSummary:
    """Claim, parse, normalise and load these files. Database outages, serialization failures and deadlocks
    propagate (the task retries); anything wrong with a file's content, any other database error included, fails that
    file alone, with its message, and no partial rows: neither its own nor the shared ones it introduced."""
    return files_import(file_ids=file_ids, token=token, load=chunk_load)


def files_import(*, file_ids: list[int], token: str, load: LoadStep) -> ImportSummary:
    """The pipeline of ``source_files_import``, its files loaded by ``load`` (``chunk_load``; a rebuild's loads whole
    candidates, ``ingestion.services.rebuilding``)."""
    sources = _claim_for_import(file_ids, token)
    summary = ImportSummary()
    if not sources:
        return summary
    vocabulary = skill_vocabulary()
    parsed: list[tuple[ClaimedFile, ProfileDocument]] = []
    failures: list[tuple[ClaimedFile, str]] = []
    budgets = {source.pk: file_budget() for source in sources}
    for source in sources:
        outcome = _parse_one(source, vocabulary, budgets[source.pk])
        if isinstance(outcome, str):
            failures.append((source, outcome))
        else:
            # The text goes with the file to the load's transaction, which keeps it with the file's outcome.
            parsed.append((dataclasses.replace(source, extracted_text=outcome.extracted_text), outcome.document))
    parsed = _refuse_erased(parsed, summary)
    if parsed:
        vocabulary = chunk_vocabulary([doc for _, doc in parsed], vocabulary, [source.pk for source, _ in parsed])
    normalised: list[tuple[ClaimedFile, NormalisedProfile]] = []
    for source, document in parsed:
        outcome = _normalise_one(source.pk, document, vocabulary, budgets[source.pk])
        if isinstance(outcome, str):
            failures.append((source, outcome))
        else:
            normalised.append((source, outcome))
    profiles = [profile for _, profile in normalised]
    repositories_first(profiles, [source.pk for source, _ in normalised])
    summary, failed_to_save = load(normalised, failures, summary)
    failed = {source.pk for source, _ in failures} | failed_to_save
    if failed:
        failed_files_take_back(
            sorted(failed), kept=[document for source, document in parsed if source.pk not in failed]
        )
    if summary.created or summary.updated:
        # A new country or badge is offered at once; a cache that cannot be reached only delays that (robust: logged).
        transaction.on_commit(candidate_filter_choices_forget, robust=True)
    for batch_id in {s.batch_id for s in sources if s.batch_id}:
        batch_finish_if_done(batch_id=batch_id)
    return summary


def chunk_load(
    normalised: list[tuple[ClaimedFile, NormalisedProfile]],
    failures: list[tuple[ClaimedFile, str]],
    summary: ImportSummary,
) -> tuple[ImportSummary, set[int]]:
    """A normal import's load step (``LoadStep``): the chunk in one transaction, set-based; when one bad profile spoils
    it, each profile on its own, to find and fail just that one."""
    failed: set[int] = set()
    try:
        with import_transaction():
            loading, refused = refuse_erased_meanwhile(normalised, summary)
            results = load_profiles([profile for _, profile in loading]) if loading else []
            finish_files(result_rows(loading, results, summary) + failure_rows(failures, summary))
            extracted_texts_keep(loading)
            sourcing_record(loading, results)
        failed |= refused
    except SAVE_ERRORS as exc:
        if is_transient(exc):
            raise
        logger.warning("Bulk load of %s files failed (%s); loading one by one", len(normalised), exc)
        summary = ImportSummary()
        with import_transaction():
            finish_files(failure_rows(failures, summary))
        for source, profile in normalised:
            try:
                with import_transaction():
                    loading, refused = refuse_erased_meanwhile([(source, profile)], summary)
                    single = load_profiles([profile]) if loading else []
                    finish_files(result_rows(loading, single, summary))
                    extracted_texts_keep(loading)
                    sourcing_record(loading, single)
                failed |= refused
            except SAVE_ERRORS as single_exc:
                if is_transient(single_exc):
                    raise
                logger.warning("Source file %s could not be saved: %s", source.pk, single_exc)
                failed.add(source.pk)
                with import_transaction():
                    finish_files(failure_rows([(source, database_message(single_exc))], summary))
    return summary, failed


def _refuse_erased(
    parsed: list[tuple[ClaimedFile, ProfileDocument]], summary: ImportSummary
) -> list[tuple[ClaimedFile, ProfileDocument]]:
    """Fail the files that name an erased person before anything of theirs is written, and empty them of
    the person's data; returns the others. One query for the chunk (``ingestion.privacy.documents_refused``)."""
    if not parsed:
        return parsed
    messages = documents_refused([document for _, document in parsed])
    refused = [(source, message) for (source, _), message in zip(parsed, messages, strict=True) if message]
    if not refused:
        return parsed
    with import_transaction():
        finish_files(failure_rows(refused, summary))
        source_files_withhold(file_ids=[source.pk for source, _ in refused])
        pairs = zip(parsed, messages, strict=True)
        import_refusals_record(
            files=len(refused), keys_by_doc=[identity_keys(document) for (_, document), message in pairs if message]
        )
    return [pair for pair, message in zip(parsed, messages, strict=True) if not message]


def refuse_erased_meanwhile(
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
    lock_keys([key for _, profile in loaded for key in profile.identity_keys])
    messages = identity_keys_refused([profile.identity_keys for _, profile in loaded])
    refused = [(source, message) for (source, _), message in zip(loaded, messages, strict=True) if message]
    if not refused:
        return loaded, set()
    refused_ids = [source.pk for source, _ in refused]
    finish_files(failure_rows(refused, summary))
    source_files_withhold(file_ids=refused_ids, take_back_later=True)
    import_refusals_record(
        files=len(refused),
        keys_by_doc=[profile.identity_keys for (_, profile), message in zip(loaded, messages, strict=True) if message],
    )
    return [pair for pair, message in zip(loaded, messages, strict=True) if not message], set(refused_ids)


def _limits() -> Limits:
    return Limits(
        skills=settings.INGEST_MAX_SKILLS,
        contributions=settings.INGEST_MAX_CONTRIBUTIONS,
        entries=settings.INGEST_MAX_LIST_ENTRIES,
        text_chars=settings.INGEST_MAX_TEXT_CHARS,
    )


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
    with import_transaction():
        finish_files([(source_pk, SourceFile.Status.FAILED, "", message, None, None)])
    return message


def documents_load(*, documents: list[ProfileDocument]) -> list[LoadResult]:
    """Normalise and load parsed documents in this process, outside any source file: the pipeline's last two stages,
    for tools and tests that start from documents. Raises on any database error, and ``ParseError`` for a document
    past a cap (``INGEST_MAX_*``)."""
    documents = [apply_limits(document, _limits()) for document in documents]
    vocabulary = chunk_vocabulary(documents, skill_vocabulary()) if documents else SkillVocabulary()
    profiles = [normalise(document, vocabulary) for document in documents]
    repositories_first(profiles)
    with import_transaction():
        results = load_profiles(profiles)
        sourcing_records_add(rows=[(result.candidate_id, None, None) for result in results])
    transaction.on_commit(candidate_filter_choices_forget, robust=True)
    return results
