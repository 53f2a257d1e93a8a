"""Load normalised profiles into the database: many profiles per transaction, set-based writes, no duplicates.

The modules: ``candidates`` (``load_profiles``, one candidate per profile), ``identity`` (who a profile is),
``children`` (the rows only a load writes), ``skills`` (the skills and aliases every profile shares, and taking back
those of failed files), ``repositories``, ``values`` (JSON for PostgreSQL). Every public name is importable from
``ingestion.loaders`` as before the split.

The loader writes what ``ingestion.normalise`` made of each document and decides nothing about the content: the
values are already clipped, the skills mapped and deduplicated, the dates in order. What it decides is identity and
concurrency.

Identity: a profile's keys are its external identifiers (GitHub username, e-mail, LinkedIn, profile URLs) and its
normalised name with location. Keys are locked with transaction-scoped advisory locks (in sorted order, so two
workers never deadlock) before they are looked up, so two workers loading the same person give one candidate.

Writes are set-based, a few statements per chunk whatever its size: ``COPY`` for rows only this load can write (the
new candidates' skills, education, jobs, languages and contributions), ``INSERT ... SELECT FROM unnest(...)`` for the
new candidates themselves (last, with their search columns computed from those rows, so each is written once) and
where a conflict is possible (identifiers, repositories). Rows every profile shares (skills, aliases, repositories)
are best created before the chunk's transaction (``skill_labels_resolve``, ``repositories_upsert``), so concurrent
loaders do not wait for each other; those created for files that then fail are taken back after it
(``shared_rows_delete_unused``). Changes to stored shared rows (a repository's description and topics) are made in
the chunk's transaction, so that a file that fails changes none.
All go through ``db.cursors.bound_cursor``: Django's cursor renders every array element into the SQL text in Python,
which cost more than the statements themselves.
"""

from ingestion.loaders.candidates import LoadResult, load_profiles
from ingestion.loaders.identity import preview_outcomes
from ingestion.loaders.repositories import repositories_upsert
from ingestion.loaders.skills import (
    SKILL_LOCK_SLOTS,
    ResolvedLabels,
    shared_rows_delete_unused,
    skill_labels_resolve,
    skill_vocabulary_resolve,
)

__all__ = [
    "SKILL_LOCK_SLOTS",
    "LoadResult",
    "ResolvedLabels",
    "load_profiles",
    "preview_outcomes",
    "repositories_upsert",
    "shared_rows_delete_unused",
    "skill_labels_resolve",
    "skill_vocabulary_resolve",
]
