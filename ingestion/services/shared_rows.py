"""The rows every profile shares (skills, aliases, repositories): created before a chunk's transaction, recorded
against the files that needed them, and taken back when those files fail."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import DatabaseError

from db.cursors import bound_cursor
from db.errors import is_transient
from ingestion.documents import ProfileDocument
from ingestion.loaders import (
    ResolvedLabels,
    repositories_upsert,
    shared_rows_delete_unused,
    skill_labels_resolve,
)
from ingestion.models import SharedRowCreated
from ingestion.normalise import (
    NormalisedProfile,
    document_label_keys,
)
from ingestion.services.outcomes import SAVE_ERRORS, import_transaction
from profiles.skill_resolver import Resolution
from profiles.vocabulary import SkillVocabulary, skill_slug

logger = logging.getLogger(__name__)


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
    """Delete the shared rows imports created for files that then failed those of ``file_ids``
    or, without it, of every failed file still on record; returns how many records it used. A row a profile uses
    stays (``shared_rows_delete_unused``), and so do the aliases of the labels of ``kept``, the documents of files
    that imported beside them.

    The records are deleted in the same transaction as the rows: if it fails, they stay for the next try (the
    sweeper's, ``source_files_sweep``)."""
    used = 0
    while True:
        with import_transaction():
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


def failed_files_take_back(file_ids: list[int], *, kept: list[ProfileDocument]) -> None:
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


def chunk_vocabulary(
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
    with import_transaction():
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


def repositories_first(profiles: list[NormalisedProfile], source_ids: list[int] | None = None) -> None:
    """Create the profiles' new repositories in a short transaction before the chunk's (stored ones are refreshed in
    the chunk's); those it creates are recorded in the same transaction against the files (``source_ids``, one per
    profile) that name them."""
    if not profiles:
        return
    try:
        with import_transaction():
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
