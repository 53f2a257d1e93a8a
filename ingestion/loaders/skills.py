"""The skills and aliases every profile shares: each label's skill as the database knows it, created under locks
before a chunk's transaction, and taken back (with unused repositories) after its failed files."""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from db.cursors import bound_cursor
from db.locks import lock_keys
from ingestion.normalise import NormalisedProfile
from privacy.services import repositories_delete_unused
from profiles.models import Skill
from profiles.services import skill_ids_for_labels, skills_upsert
from profiles.vocabulary import SkillVocabulary, skill_slug

SKILL_LOCK_SLOTS = 256  # bounds the locks one transaction holds (a hostile file can name 20,000 new skills)


def _lock_skill_slots(slugs: Iterable[str]) -> None:
    """Creating skills locks their rows, in two statements (skills, then topics): two loaders creating overlapping
    new skills in opposite orders deadlock. Taking the locks of the new slugs (one of 256 slots each) all at once,
    sorted, first, prevents it."""
    slots = {zlib.crc32(slug.encode()) % SKILL_LOCK_SLOTS for slug in slugs}
    if slots:
        lock_keys([("skill-slot", str(slot)) for slot in slots])


@dataclass(frozen=True, slots=True)
class ResolvedLabels:
    """A vocabulary of label keys, and the shared rows resolving them created (``shared_rows_delete_unused`` takes
    them back when the files that named them fail)."""

    vocabulary: SkillVocabulary
    created_skills: frozenset[str] = frozenset()  # slugs
    created_aliases: frozenset[str] = frozenset()  # label keys


def skill_vocabulary_resolve(*, skill_keys: set[str], topic_keys: set[str]) -> SkillVocabulary:
    """``skill_labels_resolve``'s vocabulary."""
    return skill_labels_resolve(skill_keys=skill_keys, topic_keys=topic_keys).vocabulary


@transaction.atomic(savepoint=False)
def skill_labels_resolve(*, skill_keys: set[str], topic_keys: set[str]) -> ResolvedLabels:
    """The canonical skill of each label key, as the database knows it now, creating a skill (and its alias) for
    each key it does not know: skill labels become skills, labels seen only as topics become topics.

    What ``normalise`` maps a chunk's labels through. Run it in a short transaction of its own, before the chunk's
    (``ingestion.services`` does): see ``repositories_upsert``. When every label is known already (the usual case),
    this is one query.
    """
    wanted = (skill_keys | topic_keys) - {""}
    if not wanted:
        return ResolvedLabels(SkillVocabulary())
    slugs = _alias_slugs(wanted)
    if not (new := wanted - slugs.keys()):
        return ResolvedLabels(SkillVocabulary(slugs=slugs))
    _lock_skill_slots(skill_slug(key) for key in new)
    # Under the locks, whatever is still missing is this call's to create: another loader creating the same skills
    # holds the same locks. (A new alias may lead to a skill that exists: "c++" to cpp.)
    new -= _alias_slugs(new).keys()
    existing = _existing_slugs({skill_slug(key) for key in new})
    skill_ids_for_labels(label_keys=skill_keys & new)
    skill_ids_for_labels(label_keys=(topic_keys & new) - skill_keys, default_kind=Skill.Kind.TOPIC)
    slugs.update(_alias_slugs(wanted - slugs.keys()))
    return ResolvedLabels(
        SkillVocabulary(slugs=slugs),
        created_skills=frozenset({skill_slug(key) for key in new} - existing),
        created_aliases=frozenset(new),
    )


def _existing_slugs(slugs: set[str]) -> set[str]:
    with bound_cursor() as cursor:
        cursor.execute("SELECT slug FROM profiles_skill WHERE slug = ANY(%b::varchar[])", [sorted(slugs)])
        return {row[0] for row in cursor.fetchall()}


@transaction.atomic(savepoint=False)
def shared_rows_delete_unused(
    *, skill_slugs: Iterable[str], alias_labels: Iterable[str], repository_names: Iterable[str]
) -> None:
    """Take back shared rows an import created for files that then failed: of these repositories, those no
    contribution names; of these skills, those no candidate and no repository's topics name (with their aliases);
    and these aliases. Run it in a short transaction of its own, after the chunk's.

    A row another loader is using is left alone: a repository or skill a committed row references, or that a
    loader's chunk has read (``skill_ids_of`` and ``upsert_repositories`` lock what they read FOR KEY SHARE until
    commit, which this skips), is kept; an alias that goes is created again by the next file that names it. A loader
    that reads a row while this deletes it waits, finds it gone and creates it again.
    """
    names, slugs, labels = sorted(set(repository_names)), sorted(set(skill_slugs)), sorted(set(alias_labels))
    # First, before any row lock: no loader creates these skills meanwhile, and this transaction never waits for a
    # lock while it holds one (a loader that locked a skill slot in its chunk may then wait for a repository's row).
    _lock_skill_slots([*slugs, *(skill_slug(label) for label in labels)])
    # First, so that their topics no longer hold the skills below.
    repositories_delete_unused(names=names, skip_locked=True)
    if not (slugs or labels):
        return
    with bound_cursor() as cursor:
        cursor.execute(
            """
            WITH unused AS (
                SELECT s.id FROM profiles_skill s
                WHERE s.slug = ANY(%(slugs)b::varchar[])
                    AND NOT EXISTS (SELECT FROM profiles_candidateskill cs WHERE cs.skill_id = s.id)
                    AND NOT EXISTS (SELECT FROM profiles_repository r WHERE r.topic_slugs @> ARRAY[s.slug]::varchar[])
                ORDER BY s.slug
                FOR UPDATE OF s SKIP LOCKED
            ),
            aliases AS (  -- a kept skill keeps the alias of its own slug
                DELETE FROM profiles_skillalias a USING profiles_skill s
                WHERE s.id = a.skill_id AND (
                    s.id IN (SELECT id FROM unused) OR (a.label = ANY(%(labels)b::varchar[]) AND a.label <> s.slug)
                )
            )
            DELETE FROM profiles_skill WHERE id IN (SELECT id FROM unused)
            """,
            {"slugs": slugs, "labels": labels},
        )


def _alias_slugs(keys: set[str]) -> dict[str, str]:
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT a.label, s.slug FROM profiles_skillalias a JOIN profiles_skill s ON s.id = a.skill_id "
            "WHERE a.label = ANY(%b::varchar[])",
            [sorted(keys)],
        )
        return dict(cursor.fetchall())


def skill_ids_of(profiles: Iterable[NormalisedProfile]) -> dict[str, int]:
    """The id of every skill these profiles name, by slug; a skill missing from the database (its vocabulary was an
    older copy, or ``skill_vocabulary_resolve`` was skipped) is created with its alias first.

    Every one of them, and the skills their repositories' topics name, is locked FOR KEY SHARE until the chunk
    commits, as the foreign-key checks at commit would lock them: no loader waits for that lock, and a take-back of
    another import's failed file (``shared_rows_delete_unused``, FOR UPDATE SKIP LOCKED) leaves these rows alone,
    where a plain read let it delete a skill in between and this chunk fail on the foreign key."""
    wanted = {skill.slug: skill for profile in profiles for skill in profile.skills}
    topics = {slug for profile in profiles for c in profile.contributions for slug in c.topic_slugs}
    if not (wanted or topics):
        return {}
    ids = _skill_ids_locked(wanted.keys() | topics)
    if missing := [wanted[slug] for slug in wanted if slug not in ids]:
        _lock_skill_slots(skill.slug for skill in missing)
        skills_upsert(
            skills=[(skill.slug, skill.name, skill.kind) for skill in missing],
            aliases=[(skill.label_key, skill.slug) for skill in missing],
        )
        ids.update(_skill_ids_locked(skill.slug for skill in missing))
    return ids


def _skill_ids_locked(slugs: Iterable[str]) -> dict[str, int]:
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT slug, id FROM profiles_skill WHERE slug = ANY(%b::varchar[]) FOR KEY SHARE", [sorted(slugs)]
        )
        return dict(cursor.fetchall())
