"""Writes of the skill vocabulary: skills and aliases created, corrected, merged, and the curated table applied."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, UniqueConstraint

from core.errors import ApplicationError
from core.labels import label_key, label_variants
from profiles.models import CandidateSkill, Skill, SkillAlias
from profiles.search import candidates_refresh_search_columns
from profiles.selectors import candidate_filter_choices_forget
from profiles.skill_resolver import SkillResolver
from profiles.vocabulary import CURATED_ALIASES, CURATED_LABELS, CURATED_SKILLS, skill_display_name, skill_slug
from profiles.vocabulary_copy import skill_vocabulary_changed


@transaction.atomic
def skills_upsert(*, skills: Iterable[tuple[str, str, str]], aliases: Iterable[tuple[str, str]]) -> None:
    """Insert canonical skills ``(slug, name, kind)`` and aliases ``(label, slug)``; existing rows win.

    A language seeded over a topic of the same slug upgrades its kind to language.
    """
    rows = list({slug: (slug, name, kind) for slug, name, kind in skills}.values())
    if rows:
        with connection.cursor() as cursor:
            cursor.execute(
                """
                INSERT INTO profiles_skill (slug, name, kind)
                SELECT * FROM unnest(%s::varchar[], %s::varchar[], %s::varchar[])
                ON CONFLICT (slug) DO UPDATE SET kind = EXCLUDED.kind
                WHERE EXCLUDED.kind = 'language' AND profiles_skill.kind <> 'language'
                """,
                [[r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]],
            )
    alias_rows: dict[str, str] = {}
    for label, slug in aliases:  # the first claim of a label wins here too, as against the table
        alias_rows.setdefault(label.lower(), slug)
    if alias_rows:
        with connection.cursor() as cursor:
            cursor.execute(
                """
                INSERT INTO profiles_skillalias (label, skill_id)
                SELECT a.label, s.id FROM unnest(%s::varchar[], %s::varchar[]) AS a(label, slug)
                JOIN profiles_skill s ON s.slug = a.slug
                ON CONFLICT (label) DO NOTHING
                """,
                [list(alias_rows), list(alias_rows.values())],
            )


def skill_ids_for_labels(*, label_keys: Iterable[str], default_kind: str = Skill.Kind.SKILL) -> dict[str, int]:
    """Map label keys (see ``core.labels.label_key``) to canonical skill ids, creating skills for new labels.

    Safe under concurrency: inserts use ``ON CONFLICT DO NOTHING`` and the result is read back afterwards.
    """
    keys = {key for key in label_keys if key}
    if not keys:
        return {}
    found = dict(SkillAlias.objects.filter(label__in=keys).values_list("label", "skill_id"))
    if equivalent := _skill_ids_of_equivalents(keys - found.keys()):
        # "Angular 2+" is Angular (core.labels.label_variants): remember the label as an alias of the skill.
        skills_upsert(skills=[], aliases=[(key, slug) for key, (_, slug) in equivalent.items()])
        found.update({key: skill_id for key, (skill_id, _) in equivalent.items()})
    missing = sorted(keys - found.keys())
    if missing:
        skills_upsert(
            skills=[(skill_slug(key), skill_display_name(key), default_kind) for key in missing],
            aliases=[(key, skill_slug(key)) for key in missing],
        )
        found.update(SkillAlias.objects.filter(label__in=missing).values_list("label", "skill_id"))
    return found


def _skill_ids_of_equivalents(keys: Iterable[str]) -> dict[str, tuple[int, str]]:
    """The (skill id, slug) of each unknown key that names a skill the database knows under one of the key's
    equivalent forms (``core.labels.label_variants``: "angular-2+" for "angular").

    Which form names it is the skill resolver's rule (``SkillResolver.slug_of``), read against the labels the database
    holds now among the key's own forms, each key on its own: the process's copy of the vocabulary may not have a skill
    an import created a moment ago, and another key's labels must not decide this one's."""
    variants = {key: label_variants(key)[1:] for key in keys}
    wanted = {v for forms in variants.values() for v in forms}
    if not wanted:
        return {}
    known = {
        label: (skill_id, slug)
        for label, skill_id, slug in SkillAlias.objects.filter(label__in=wanted).values_list(
            "label", "skill_id", "skill__slug"
        )
    }
    found = {}
    for key, forms in variants.items():
        own = {form: known[form] for form in forms if form in known}
        if own and (slug := SkillResolver({form: known_slug for form, (_, known_slug) in own.items()}).slug_of(key)):
            found[key] = next(skill for skill in own.values() if skill[1] == slug)
    return found


@dataclass(frozen=True, slots=True)
class SkillMerge:
    """What ``skills_merge`` did: the candidates whose scores moved, of them those who had both skills, and the
    labels that became aliases of the target."""

    candidates: int
    both: int
    aliases: int


@transaction.atomic
def skills_merge(*, source: Skill, target: Skill) -> SkillMerge:
    """Merge skill ``source`` into ``target`` (a curator's "these are one skill"): candidates' scores of ``source``
    move to ``target`` (a candidate with both keeps the higher score, and its label), repositories' topics and other
    apps' rows (a job's criteria) follow, ``source``'s slug, name and aliases become aliases of ``target``, and
    ``source`` is deleted. Every process reads the vocabulary again once this commits.

    Candidates' history is not rewritten: a revert to a version that names ``source`` finds ``target`` through the
    alias (``candidate_revert``).
    """
    if source.pk == target.pk:
        raise ApplicationError("A skill cannot be merged into itself.")
    # Lock both rows, in id order: imports creating aliases of either and a second merge wait for this one.
    locked = {s.pk: s for s in Skill.objects.select_for_update().filter(pk__in=[source.pk, target.pk]).order_by("pk")}
    if len(locked) != 2:
        raise ApplicationError("One of these skills no longer exists.")
    source, target = locked[source.pk], locked[target.pk]
    candidate_ids = list(CandidateSkill.objects.filter(skill_id=source.pk).values_list("candidate_id", flat=True))
    ids = {"source": source.pk, "target": target.pk}
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE profiles_candidateskill t SET score = s.score, label = s.label
            FROM profiles_candidateskill s
            WHERE t.skill_id = %(target)s AND s.skill_id = %(source)s AND s.candidate_id = t.candidate_id
                AND s.score > t.score
            """,
            ids,
        )
        cursor.execute(
            """
            DELETE FROM profiles_candidateskill s USING profiles_candidateskill t
            WHERE s.skill_id = %(source)s AND t.skill_id = %(target)s AND s.candidate_id = t.candidate_id
            """,
            ids,
        )
        both = cursor.rowcount
        cursor.execute("UPDATE profiles_candidateskill SET skill_id = %(target)s WHERE skill_id = %(source)s", ids)
        cursor.execute(
            """
            UPDATE profiles_repository
            SET topic_slugs = ARRAY(SELECT DISTINCT t FROM unnest(array_replace(topic_slugs, %s, %s)) t ORDER BY t)
            WHERE topic_slugs @> ARRAY[%s]::varchar[]
            """,
            [source.slug, target.slug, source.slug],
        )
    _skill_references_follow(source_id=source.pk, target_id=target.pk)
    aliases = SkillAlias.objects.filter(skill_id=source.pk).update(skill_id=target.pk)
    source.delete()
    own_names = [(source.slug, target.slug), (label_key(source.name), target.slug)]
    before = SkillAlias.objects.filter(skill_id=target.pk).count()
    skills_upsert(skills=[], aliases=own_names)
    aliases += SkillAlias.objects.filter(skill_id=target.pk).count() - before
    candidates_refresh_search_columns(candidate_ids=candidate_ids)
    transaction.on_commit(skill_vocabulary_changed)
    return SkillMerge(candidates=len(candidate_ids), both=both, aliases=aliases)


def _skill_references_follow(*, source_id: int, target_id: int) -> None:
    """Point the rows of other apps that name the merged skill (a job's criteria) at the skill it goes into, which
    deleting it would otherwise cascade away. A row the target has already (equal but for the skill, by one of the
    model's unique constraints: a job naming both) is dropped, the target's kept."""
    for relation in Skill._meta.get_fields(include_hidden=True):
        if not relation.auto_created or relation.concrete or relation.related_model is None:
            continue
        model = relation.related_model
        if model._meta.app_label == Skill._meta.app_label:
            continue  # the domain's own rows (scores, aliases) are merged by skills_merge itself
        if not relation.one_to_many:
            raise NotImplementedError(f"A skill merge does not know how to move {relation!r}; teach it first.")
        field = relation.field
        rows = model._base_manager.filter(**{field.attname: source_id})
        for constraint in model._meta.constraints:
            if (
                isinstance(constraint, UniqueConstraint)
                and field.name in constraint.fields
                and not constraint.condition
            ):
                others = [name for name in constraint.fields if name != field.name]
                kept = model._base_manager.filter(**{field.attname: target_id}, **{n: OuterRef(n) for n in others})
                rows.filter(Exists(kept)).delete()
        rows.update(**{field.attname: target_id})


def skill_aliases_correct(*, corrections: Iterable[tuple[str, str, str]]) -> int:
    """Point each alias ``label`` that leads to ``wrong`` (a slug) at ``right`` instead: what an older seed got wrong
    (Linguist's Jinja took "django"). An alias a curator pointed elsewhere is left alone. Returns how many moved."""
    rows = list(corrections)
    if not rows:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE profiles_skillalias a SET skill_id = r.id
            FROM unnest(%s::varchar[], %s::varchar[], %s::varchar[]) AS c(label, wrong, right_slug)
            JOIN profiles_skill w ON w.slug = c.wrong
            JOIN profiles_skill r ON r.slug = c.right_slug
            WHERE a.label = c.label AND a.skill_id = w.id
            """,
            [[r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]],
        )
        return cursor.rowcount


def skills_seed_curated() -> None:
    skills_upsert(
        skills=[(slug, name, kind) for slug, (name, kind) in CURATED_SKILLS.items()],
        aliases=[(slug, slug) for slug in CURATED_SKILLS] + list(CURATED_ALIASES.items()),
    )


@dataclass(frozen=True, slots=True)
class CuratedApplied:
    """What ``skills_apply_curated`` changed."""

    merged: tuple[tuple[str, str], ...]  # (slug merged, slug of the curated skill it went into)
    aliases: int  # curated labels that led to another skill and now lead to theirs
    renamed: int  # skills named as a label was written that now have their curated display name


@transaction.atomic
def skills_apply_curated() -> CuratedApplied:
    """Bring the skills in line with the curated table (``profiles/data/curated_skills.tsv``), whatever seeded or
    imported them before: its skills exist; a skill made of one of its labels ("apache-spark" beside "spark", "net"
    of ".NET") is merged into the label's skill (``skills_merge``: a candidate with both keeps the higher score, once);
    each label it lists leads to its skill; and a skill still named as a label was written ("bash", "apache spark",
    "Tensorflow") takes its display name. A name no label of the skill spells was given by hand, and stays.
    Idempotent: migration 0019 and every ``seed_skills`` run it.

    Reads and writes through SQL on the columns a skill and an alias have had since 0001, so the migration can call
    it; a merge goes through ``skills_merge``.
    """
    skills_seed_curated()
    made = {skill_slug(label): slug for label, slug in CURATED_LABELS.items()} | CURATED_ALIASES
    made = {made_slug: slug for made_slug, slug in made.items() if made_slug not in CURATED_SKILLS}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, slug FROM profiles_skill WHERE slug = ANY(%s::varchar[]) ORDER BY slug", [sorted(made)]
        )
        pairs = [(source_id, slug, made[slug]) for source_id, slug in cursor.fetchall()]
    targets = dict(Skill.objects.filter(slug__in={target for _, _, target in pairs}).values_list("slug", "pk"))
    for source_id, _, target in pairs:
        skills_merge(source=Skill(pk=source_id), target=Skill(pk=targets[target]))
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE profiles_skillalias a SET skill_id = t.id
            FROM unnest(%s::varchar[], %s::varchar[]) AS c(label, slug)
            JOIN profiles_skill t ON t.slug = c.slug
            WHERE a.label = c.label AND a.skill_id <> t.id
            """,
            [list(CURATED_LABELS), list(CURATED_LABELS.values())],
        )
        aliases = cursor.rowcount
        cursor.execute(
            """
            SELECT s.id, s.slug, s.name, array_agg(a.label) FILTER (WHERE a.label IS NOT NULL)
            FROM profiles_skill s LEFT JOIN profiles_skillalias a ON a.skill_id = s.id
            WHERE s.slug = ANY(%s::varchar[]) GROUP BY s.id
            """,
            [list(CURATED_SKILLS)],
        )
        renames = [
            (skill_id, CURATED_SKILLS[slug][0])
            for skill_id, slug, name, labels in cursor.fetchall()
            if name != CURATED_SKILLS[slug][0] and _named_as_written(name, slug, labels or [])
        ]
        if renames:
            cursor.execute(
                "UPDATE profiles_skill s SET name = r.name FROM unnest(%s::bigint[], %s::varchar[]) AS r(id, name) "
                "WHERE s.id = r.id",
                [[r[0] for r in renames], [r[1] for r in renames]],
            )
    if aliases or renames:  # a merge has said so already
        transaction.on_commit(skill_vocabulary_changed)
        transaction.on_commit(candidate_filter_choices_forget)
    return CuratedApplied(
        merged=tuple((slug, target) for _, slug, target in pairs), aliases=aliases, renamed=len(renames)
    )


def _named_as_written(name: str, slug: str, labels: list[str]) -> bool:
    """Whether a skill's name is one of its labels as a file or a public vocabulary wrote it (what an import or a
    seed names a skill), rather than a name given by hand."""
    key = label_key(name)
    return key in labels or skill_slug(key) == slug
