"""Writes of the talent domain: skill resolution, search vectors, edits, shortlists, merges."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, QuerySet, UniqueConstraint
from django.utils import timezone

from core.errors import ApplicationError
from core.labels import label_key, label_variants
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    Education,
    MergeRecord,
    Position,
    Repository,
    Shortlist,
    ShortlistEntry,
    ShortlistEntryEvent,
    Skill,
    SkillAlias,
    SkillLabelMove,
    SpokenLanguage,
)
from profiles.search import candidates_refresh_search_columns, repositories_refresh_contributors
from profiles.selectors import (
    WorkingList,
    candidate_filter_choices_forget,
    skill_vocabulary_changed,
    working_list_permits,
)
from profiles.vocabulary import CURATED_ALIASES, CURATED_LABELS, CURATED_SKILLS, skill_display_name, skill_slug


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
    """The (skill id, slug) of each unknown key whose equivalent form (``label_variants``) is a known alias: the
    first such form wins, as in ``SkillVocabulary.slug_of``."""
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
    return {key: next(known[v] for v in forms if v in known) for key, forms in variants.items() if known.keys() & forms}


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
    alias (``_candidate_skills_restore``).
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


# --- Edits by hand: protected fields and history -----------------------------------------------------------------
# Imports write candidates in bulk, without history records; an edit in the admin goes through these services, which
# record who changed what (fields and skills), protect the edited fields against later imports, and revert.


def _tracked_differences(record, candidate: Candidate) -> list[str]:
    return [
        f.attname
        for f in record.__class__.tracked_fields
        if f.attname != "id" and getattr(record, f.attname) != getattr(candidate, f.attname)
    ]


@transaction.atomic
def candidate_history_catch_up(*, candidate_id: int) -> bool:
    """Record the stored state of a candidate when its history does not show it yet; True when a record was added.

    Called before an edit by hand, so the history shows what the edit changed, not what an import changed before it.
    """
    from profiles.selectors import candidate_skills_snapshot

    candidate = Candidate.objects.get(pk=candidate_id)
    skills = candidate_skills_snapshot(candidate_id=candidate_id)
    latest = candidate.history.order_by("-history_date", "-history_id").first()
    if latest is not None and not _tracked_differences(latest, candidate):
        if latest.skills is None:  # recorded outside the admin: the stored skills are the best knowledge
            candidate.history.filter(history_id=latest.history_id).update(skills=skills)
            return False
        if latest.skills == skills:
            return False
    when = candidate.updated_at
    if latest is not None and when <= latest.history_date:
        when = latest.history_date + timezone.timedelta(microseconds=1)
    candidate._history_user = None  # an import, not the recruiter whose request this is
    Candidate.history.bulk_history_create(
        [candidate],
        update=latest is not None,
        default_date=when,
        default_change_reason="Changed outside the admin (import)" if latest else "Imported",
        custom_historical_attrs={"skills": skills},
    )
    return True


@transaction.atomic
def candidate_save_by_hand(*, candidate: Candidate, user, release: Iterable[str] = (), reason: str = "") -> list[str]:
    """Save a recruiter's edit of a candidate; returns the fields it newly protected.

    Imported fields whose value differs from the stored one become protected (a later import of the same person leaves
    them alone); fields in ``release`` stop being protected. The history record names the user and the reason.
    """
    imported = Candidate.IMPORTED_FIELDS
    released = set(release)
    if candidate.pk is not None:
        candidate_history_catch_up(candidate_id=candidate.pk)
        stored = Candidate.objects.select_for_update().get(pk=candidate.pk)
        protected = list(stored.protected_fields)  # a revert keeps today's protections and adds the reverted fields
    else:
        stored, protected = Candidate(), list(candidate.protected_fields)
    changed = [f for f in imported if getattr(stored, f) != getattr(candidate, f)]
    newly = [f for f in changed if f not in protected and f not in released]
    if released & set(protected):
        candidate.document_sha256 = ""  # the next import rewrites released fields, even from identical bytes
    candidate.protected_fields = [f for f in [*protected, *newly] if f not in released]
    candidate._history_user = user
    if reason:
        candidate._change_reason = reason[:100]
    candidate.save()
    candidates_refresh_search_columns(candidate_ids=[candidate.pk])
    return newly


@transaction.atomic
def candidate_release_fields(*, candidate: Candidate, field_names: Iterable[str], user) -> list[str]:
    """Let imports write these fields again; returns the fields that were protected and now are not."""
    names = set(field_names)
    released = [f for f in candidate.protected_fields if f in names]
    if released:
        candidate_history_catch_up(candidate_id=candidate.pk)
        candidate.protected_fields = [f for f in candidate.protected_fields if f not in names]
        # Forget the last document's hash: the next import rewrites the released fields even from identical bytes.
        candidate.document_sha256 = ""
        candidate._history_user = user
        candidate._change_reason = f"Released {', '.join(released)}"[:100]
        candidate.save(update_fields=["protected_fields", "document_sha256", "updated_at"])
        candidate_history_snapshot_skills(candidate_id=candidate.pk)
    return released


@transaction.atomic
def candidate_release_skill_scores(*, candidate: Candidate, user) -> list[str]:
    """Let imports write the skill scores edited by hand again; returns the slugs of the skills released."""
    rows = CandidateSkill.objects.filter(candidate=candidate, score_by_hand=True)
    released = sorted(rows.values_list("skill__slug", flat=True))
    if released:
        rows.update(score_by_hand=False)
        # As for fields: the next import rewrites the released scores even from identical bytes.
        Candidate.objects.filter(pk=candidate.pk).update(document_sha256="")
    return released


def candidate_skills_edited(*, candidate_id: int, scored_by_hand: Iterable[int] = ()) -> None:
    """After a hand edit of a candidate's skills (admin inlines, a revert, a merge): refresh what search reads of them
    and store them on the latest history record. The skills in ``scored_by_hand`` (ids) had their score set by the
    recruiter: imports keep those scores until released."""
    if skill_ids := list(scored_by_hand):
        CandidateSkill.objects.filter(candidate_id=candidate_id, skill_id__in=skill_ids).update(score_by_hand=True)
    candidates_refresh_search_columns(candidate_ids=[candidate_id])
    candidate_history_snapshot_skills(candidate_id=candidate_id)


def candidate_languages_edited(*, candidate_id: int) -> None:
    """After a hand edit of a candidate's language rows (admin inline, a merge): the names list (`spoken_languages`,
    which lists and filters read too) becomes their English names, on the candidate and on its latest history
    record (the edit's)."""
    names = list(
        SpokenLanguage.objects.filter(candidate_id=candidate_id)
        .order_by("position", "id")
        .values_list("name", flat=True)
    )
    Candidate.objects.filter(pk=candidate_id).update(spoken_languages=names)
    latest = Candidate.history.filter(id=candidate_id).order_by("-history_date", "-history_id").first()
    if latest is not None:
        Candidate.history.filter(history_id=latest.history_id).update(spoken_languages=names)


def candidate_history_snapshot_skills(*, candidate_id: int) -> None:
    """Store the candidate's current skills on its latest history record (after inline edits were saved)."""
    from profiles.selectors import candidate_skills_snapshot

    latest = Candidate.history.filter(id=candidate_id).order_by("-history_date", "-history_id").first()
    if latest is not None:
        Candidate.history.filter(history_id=latest.history_id).update(
            skills=candidate_skills_snapshot(candidate_id=candidate_id)
        )


@transaction.atomic
def candidate_revert(*, candidate: Candidate, record, user) -> list[str]:
    """Save ``candidate`` (holding the values of history ``record``) and restore the skills the record saw.

    Returns the fields that became protected: a revert is an edit by hand.
    """
    when = timezone.localtime(record.history_date).strftime("%Y-%m-%d %H:%M")
    protected = candidate_save_by_hand(candidate=candidate, user=user, reason=f"Reverted to the version of {when}")
    if record.skills is not None:
        _candidate_skills_restore(candidate_id=candidate.pk, skills=record.skills)
    candidate_skills_edited(candidate_id=candidate.pk)
    return protected


def _candidate_skills_restore(*, candidate_id: int, skills: list[dict]) -> None:
    slugs = [s["skill"] for s in skills]
    skill_ids = dict(Skill.objects.filter(slug__in=slugs).values_list("slug", "pk"))
    # A skill merged since (skills_merge) lives on as an alias of the skill it went into.
    merged = SkillAlias.objects.filter(label__in=set(slugs) - skill_ids.keys()).values_list("label", "skill_id")
    skill_ids.update(merged)
    wanted: dict[int, dict] = {}
    for snap in skills:
        skill_id = skill_ids.get(snap["skill"])
        if skill_id is not None and (skill_id not in wanted or snap["score"] > wanted[skill_id]["score"]):
            wanted[skill_id] = snap
    CandidateSkill.objects.filter(candidate_id=candidate_id).exclude(skill_id__in=wanted).delete()
    current = {cs.skill_id: cs for cs in CandidateSkill.objects.filter(candidate_id=candidate_id)}
    for position, (skill_id, snap) in enumerate(wanted.items()):
        row = current.get(skill_id) or CandidateSkill(candidate_id=candidate_id, skill_id=skill_id)
        # A revert is an edit by hand: a score it changes (or a skill it brings back) is kept against imports.
        row.score_by_hand = row.score_by_hand or row.pk is None or row.score != snap["score"]
        row.score, row.label, row.position = snap["score"], snap.get("label", snap["skill"]), position
        row.section = snap.get("section", CandidateSkill.Section.SKILL)
        row.save()


def _candidates_edited_elsewhere(*, reasons: dict[int, str], user) -> None:
    """After rows of candidates (contributions) were changed outside their change form: each candidate's history
    records the edit by ``user`` with its reason (after what an import changed before it), its ``updated_at`` moves,
    and search reads the rows as they are now, as after an edit in the candidate's own form."""
    for candidate in Candidate.objects.select_for_update().filter(pk__in=reasons).order_by("pk"):
        candidate_history_catch_up(candidate_id=candidate.pk)
        candidate._history_user = user
        candidate._change_reason = reasons[candidate.pk][:100]
        candidate.save(update_fields=["updated_at"])
        candidate_history_snapshot_skills(candidate_id=candidate.pk)
    candidates_refresh_search_columns(candidate_ids=list(reasons))


@transaction.atomic
def repository_save(*, repository: Repository) -> Repository:
    """Add or change one repository outside an import (the repositories' admin). Its contributors' search columns
    hold its name: a new name refreshes them, so they are found by it and no longer by the old one."""
    before = Repository.objects.filter(pk=repository.pk).values_list("full_name", flat=True).first()
    repository.save()
    if before is not None and before != repository.full_name:
        repositories_refresh_contributors(repository_ids=[repository.pk])
    return repository


@transaction.atomic
def contribution_save(*, contribution: Contribution, user) -> Contribution:
    """Add or change one contribution outside its candidate's form (the contributions' own admin): saved, recorded in
    the candidate's history and searched as it now is. A contribution moved to another candidate is an edit of
    both."""
    verb = "Added" if contribution.pk is None else "Changed"
    before = Contribution.objects.filter(pk=contribution.pk).values_list("candidate_id", flat=True).first()
    contribution.save()
    reason = f"{verb} the contribution to {contribution.repository.full_name}"
    _candidates_edited_elsewhere(reasons=dict.fromkeys({contribution.candidate_id, before} - {None}, reason), user=user)
    return contribution


@transaction.atomic
def contributions_delete(*, contributions: Iterable[Contribution], user) -> int:
    """Remove contributions outside their candidates' forms (the contributions' own admin); returns how many.

    As the candidate's form does: each candidate's history records the removal by ``user``, and search forgets the
    repositories (a plain delete would leave both stale)."""
    rows = list(
        Contribution.objects.filter(pk__in=[c.pk for c in contributions]).select_related("repository").order_by("pk")
    )
    removed: dict[int, list[str]] = {}
    for row in rows:
        removed.setdefault(row.candidate_id, []).append(row.repository.full_name)
    Contribution.objects.filter(pk__in=[row.pk for row in rows]).delete()
    reasons = {cid: f"Removed the contribution to {', '.join(names)}" for cid, names in removed.items()}
    _candidates_edited_elsewhere(reasons=reasons, user=user)
    return len(rows)


# --- Shortlists and saved searches ---------------------------------------------------------------------------------
# Only a list's owner (or a superuser) changes it, shared or not (profiles.selectors.working_list_permits). Each write
# of a list or of its entries checks the user it is made for against the stored list, and refuses with
# PermissionDenied, which the admin and the API answer with a 403. ``user=None`` is the system's own write (a merge,
# a script), checked by nobody.


def _require_writable(*, working_list: WorkingList, user) -> None:
    if user is not None and not working_list_permits(user=user, working_list=working_list, for_writing=True):
        raise PermissionDenied(f"Only its owner changes “{working_list}”.")


@transaction.atomic
def working_list_save(*, working_list: WorkingList, user) -> WorkingList:
    """Create or change a shortlist or saved search; a new one belongs to ``user`` unless an owner is set."""
    if working_list.pk is None:
        if working_list.owner_id is None:
            working_list.owner = user
    else:
        stored = type(working_list).objects.select_for_update().get(pk=working_list.pk)
        _require_writable(working_list=stored, user=user)
    if working_list.owner_id != getattr(user, "pk", None):
        _require_writable(working_list=working_list, user=user)  # giving a list to someone else: superusers only
    working_list.save()
    return working_list


@transaction.atomic
def working_lists_delete(*, working_lists: Iterable[WorkingList], user) -> int:
    """Delete shortlists or saved searches, all of them or none; returns how many."""
    working_lists = list(working_lists)
    for working_list in working_lists:
        _require_writable(working_list=working_list, user=user)
    for working_list in working_lists:
        working_list.delete()
    return len(working_lists)


# Every change of an entry is an event (``ShortlistEntryEvent``): who added it, moved it to a stage or wrote a note,
# and when. These services are the one path that changes entries, so they write the events with the change; a merge
# (``user=None``, the system) moves entries with their events and records nothing new.


def _events_of_change(
    *, entry: ShortlistEntry, stored: ShortlistEntry | None, user, note: str | None
) -> list[ShortlistEntryEvent]:
    author = user if getattr(user, "pk", None) else None
    at = timezone.now()

    def event(kind: str, **fields) -> ShortlistEntryEvent:
        return ShortlistEntryEvent(entry=entry, author=author, at=at, kind=kind, **fields)

    events = []
    if stored is None:
        events.append(event(ShortlistEntryEvent.Kind.ADDED, to_status=entry.status))
    elif stored.status != entry.status:
        events.append(event(ShortlistEntryEvent.Kind.STAGE, from_status=stored.status, to_status=entry.status))
    if note is not None:
        events.append(event(ShortlistEntryEvent.Kind.NOTE, note=note))
    elif entry.notes != (stored.notes if stored is not None else ""):
        events.append(event(ShortlistEntryEvent.Kind.NOTE, note=entry.notes))  # the notes as edited, whole
    return events


@transaction.atomic
def shortlist_entry_save(*, entry: ShortlistEntry, user, note: str | None = None) -> ShortlistEntry:
    """Add or change an entry (status, notes): both the list it was on and the list it goes to must be the user's.

    Records what changed as events by ``user``: added, a stage change, a note (``note``: the text added, when the
    caller appended one to ``entry.notes``; else an edit of the notes is recorded as the new notes)."""
    stored = None
    if entry.pk is not None:
        stored = ShortlistEntry.objects.select_related("shortlist").select_for_update(of=("self",)).get(pk=entry.pk)
        _require_writable(working_list=stored.shortlist, user=user)
    _require_writable(working_list=Shortlist.objects.get(pk=entry.shortlist_id), user=user)
    entry.save()
    ShortlistEntryEvent.objects.bulk_create(_events_of_change(entry=entry, stored=stored, user=user, note=note))
    return entry


def shortlist_entry_move(*, entry: ShortlistEntry, status: str, user) -> ShortlistEntry:
    """Move an entry to a stage (``ShortlistEntry.Status``); recorded as a stage event unless it is there already."""
    if status not in ShortlistEntry.Status.values:
        raise ApplicationError(f"“{status}” is no stage; the stages are {', '.join(ShortlistEntry.Status.values)}.")
    entry.status = status
    return shortlist_entry_save(entry=entry, user=user)


def shortlist_entry_note(*, entry: ShortlistEntry, text: str, user) -> ShortlistEntry:
    """Add a note to an entry: appended to its notes, and recorded with its author and time."""
    text = text.strip()
    if not text:
        raise ApplicationError("A note needs some text.")
    entry.notes = f"{entry.notes.rstrip()}\n\n{text}" if entry.notes.strip() else text
    return shortlist_entry_save(entry=entry, user=user, note=text)


@transaction.atomic
def shortlist_entries_delete(*, entries: Iterable[ShortlistEntry], user) -> int:
    """Take entries off their shortlists, all of them or none; returns how many."""
    entries = list(entries)
    for entry in entries:
        _require_writable(working_list=entry.shortlist, user=user)
    for entry in entries:
        entry.delete()
    return len(entries)


@transaction.atomic
def shortlist_add_candidates(*, shortlist: Shortlist, candidate_ids: Iterable[int], user=None) -> int:
    """Add candidates to a shortlist at the first stage ("sourced"), each recorded as added by ``user``; those already
    on it keep their stage. Returns how many were added."""
    _require_writable(working_list=shortlist, user=user)
    wanted = set(candidate_ids)
    already = set(shortlist.entries.filter(candidate_id__in=wanted).values_list("candidate_id", flat=True))
    entries = [ShortlistEntry(shortlist=shortlist, candidate_id=cid) for cid in sorted(wanted - already)]
    # A concurrent add of the same candidate wins the unique constraint; its own call records its event.
    ShortlistEntry.objects.bulk_create(entries, ignore_conflicts=True)
    added = list(shortlist.entries.filter(candidate_id__in=wanted - already, events__isnull=True))
    ShortlistEntryEvent.objects.bulk_create(
        event for entry in added for event in _events_of_change(entry=entry, stored=None, user=user, note=None)
    )
    return len(added)


def shortlist_get_or_create(*, owner, name: str) -> tuple[Shortlist, bool]:
    return Shortlist.objects.get_or_create(owner=owner, name=name.strip()[:200])


# --- Duplicates and merges -----------------------------------------------------------------------------------------


# A recruiter decides on a group of candidates at once: merge them into the one they keep, or record them as different
# people. The admin's merge action, its possible-duplicates page and any other caller go through these, so that what
# a group is and who survives is decided in one place.
MIN_GROUP_SIZE = 2
# A group is one person's few duplicates, or a few people told apart. Marking n candidates as different people records
# every pair, n·(n-1)/2 rows (100: 4,950; a "select all" of thousands would be millions), and a merge moves every row
# of each merged candidate in one transaction: a selection of thousands is a mistake to refuse, not to carry out.
# Erasure has its cap of the same size.
MAX_GROUP_SIZE = 100


def candidates_group(*, candidate_ids: Iterable[int]) -> list[Candidate]:
    """The candidates of ``candidate_ids`` in id order, as a group to decide on; ids of candidates deleted meanwhile
    drop out. Fewer than two candidates are no group, more than ``MAX_GROUP_SIZE`` too many (``ApplicationError``).

    ``candidate_ids`` may be a queryset of ids (a changelist's "select all"): it is read only as far as the cap."""
    chosen = candidate_ids if isinstance(candidate_ids, QuerySet) else set(candidate_ids)
    group = list(Candidate.objects.filter(pk__in=chosen).order_by("pk")[: MAX_GROUP_SIZE + 1])
    if len(group) > MAX_GROUP_SIZE:
        selected = f"{len(chosen):,}" if isinstance(chosen, set) else f"more than {MAX_GROUP_SIZE}"
        raise ApplicationError(
            f"Choose at most {MAX_GROUP_SIZE} candidates at a time; {selected} were selected.", code="group_too_large"
        )
    if len(group) < MIN_GROUP_SIZE:
        raise ApplicationError("Choose at least two candidates.", code="group_too_small")
    return group


def merge_survivor(*, group: list[Candidate], survivor_id: int | None) -> Candidate:
    """The candidate of ``group`` to keep: the one the recruiter chose, never one outside the group."""
    survivor = next((c for c in group if c.pk == survivor_id), None)
    if survivor is None:
        raise ApplicationError("Choose the candidate to keep.", code="no_survivor")
    return survivor


def candidates_merge_group(
    *, candidate_ids: Iterable[int], survivor_id: int | None, user
) -> tuple[Candidate, list[MergeRecord]]:
    """Merge a group into the candidate chosen to survive (``candidates_merge``); returns it and the merge records."""
    group = candidates_group(candidate_ids=candidate_ids)
    survivor = merge_survivor(group=group, survivor_id=survivor_id)
    return survivor, candidates_merge(survivor=survivor, others=group, user=user)


def candidates_group_mark_not_duplicate(*, candidate_ids: Iterable[int], user) -> int:
    """Record a group as different people (``candidates_mark_not_duplicate``); returns how many pairs were new."""
    return candidates_mark_not_duplicate(candidates=candidates_group(candidate_ids=candidate_ids), user=user)


# Every pair (a < b) of the ids, in one statement: no pair is built in Python, and a pair recorded before stays as it
# was (who marked it, when). The row count is the pairs that were new.
_NOT_DUPLICATE_PAIRS_SQL = """
INSERT INTO profiles_notduplicate (first_id, second_id, marked_by_id, marked_at)
SELECT a.id, b.id, %(user_id)s, %(now)s
FROM unnest(%(ids)s::bigint[]) AS a(id) JOIN unnest(%(ids)s::bigint[]) AS b(id) ON a.id < b.id
ORDER BY a.id, b.id
ON CONFLICT (first_id, second_id) DO NOTHING
"""


def candidates_mark_not_duplicate(*, candidates: Iterable[Candidate], user) -> int:
    """Record every pair of these candidates (at most ``MAX_GROUP_SIZE``) as different people; returns how many pairs
    were new."""
    ids = sorted({c.pk for c in candidates})
    if len(ids) > MAX_GROUP_SIZE:
        raise ApplicationError(
            f"Choose at most {MAX_GROUP_SIZE} candidates at a time; {len(ids):,} were selected.", code="group_too_large"
        )
    if len(ids) < MIN_GROUP_SIZE:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            _NOT_DUPLICATE_PAIRS_SQL, {"ids": ids, "user_id": getattr(user, "pk", None), "now": timezone.now()}
        )
        return cursor.rowcount


def _is_blank(value) -> bool:
    return value in ("", None, [])


@transaction.atomic
def candidates_merge(*, survivor: Candidate, others: Iterable[Candidate], user) -> list[MergeRecord]:
    """Merge ``others`` into ``survivor`` and delete them; returns one MergeRecord per merged candidate.

    Moves skills (the higher score wins), contributions (one per repository: the one with more commits), education,
    jobs, spoken languages (the better fluency wins), identifiers (so later imports of a merged person update the
    survivor), source files, shortlist entries (an entry already on the survivor's list keeps its status and gains the
    notes) and history records. Blank fields of the survivor are filled from the merged candidates.
    """
    other_ids = sorted({c.pk for c in others} - {survivor.pk})
    if not other_ids:
        return []
    # Lock every candidate involved, in id order, so two merges of overlapping groups wait for each other.
    involved = Candidate.objects.select_for_update().filter(pk__in=[survivor.pk, *other_ids]).order_by("pk")
    locked = {c.pk: c for c in involved}
    if len(locked) != len(other_ids) + 1:
        raise ApplicationError("A candidate of this merge no longer exists.")
    survivor = locked[survivor.pk]
    candidate_history_catch_up(candidate_id=survivor.pk)
    records: list[MergeRecord] = []
    for other_id in other_ids:
        other = locked[other_id]
        candidate_history_catch_up(candidate_id=other.pk)
        details = {
            "skills": _merge_skills(survivor.pk, other.pk),
            "contributions": _merge_contributions(survivor.pk, other.pk),
            "education": _merge_education(survivor.pk, other.pk),
            "positions": _merge_positions(survivor.pk, other.pk),
            "languages": _merge_languages(survivor.pk, other.pk),
            "identifiers": CandidateIdentifier.objects.filter(candidate_id=other.pk).update(candidate_id=survivor.pk),
            "shortlist_entries": _merge_shortlist_entries(survivor.pk, other.pk),
            "history_records": Candidate.history.filter(id=other.pk).update(id=survivor.pk),
            **_move_references_of_other_apps(survivor.pk, other.pk),
        }
        MergeRecord.objects.filter(survivor_id=other.pk).update(survivor_id=survivor.pk)
        # The labels reresolve_skills moved keep their record (the label as written, and its undo) with the person.
        SkillLabelMove.objects.filter(candidate_id=other.pk).update(candidate_id=survivor.pk)
        filled = [
            f for f in Candidate.IMPORTED_FIELDS if _is_blank(getattr(survivor, f)) and not _is_blank(getattr(other, f))
        ]
        for field in filled:
            setattr(survivor, field, getattr(other, field))
        details["filled_fields"] = filled
        records.append(
            MergeRecord(survivor=survivor, merged_name=other.name, merged_id=other.pk, merged_by=user, details=details)
        )
        other._history_user = user
        other._change_reason = f"Merged into #{survivor.pk}"
        other.delete()
    MergeRecord.objects.bulk_create(records)
    names = ", ".join(f"#{r.merged_id} {r.merged_name}" for r in records)
    survivor._history_user = user
    survivor._change_reason = f"Merged {names}"[:100]
    survivor.save()
    candidate_skills_edited(candidate_id=survivor.pk)
    if SpokenLanguage.objects.filter(candidate_id=survivor.pk).exists():
        candidate_languages_edited(candidate_id=survivor.pk)
    return records


def _move_references_of_other_apps(survivor_id: int, other_id: int) -> dict[str, int]:
    """Point every row of another app that refers to the merged candidate (an import's source files, for one) at the
    survivor; returns how many moved, by relation name.

    The domain's own rows are merged one by one above, because two of them can mean the same thing; another app's
    rows are its own business, so they follow the person, whatever app adds them next. Many-to-one foreign keys
    simply follow. A one-to-one row (privacy's sourcing record) cannot, when the survivor has one too: its model says
    how two become one, in a ``candidates_merged(survivor_id=, other_id=)`` class method. A relation of another kind
    would be lost with the merged candidate, so it is refused.
    """
    moved = {}
    for relation in Candidate._meta.get_fields(include_hidden=True):
        if not relation.auto_created or relation.concrete or relation.related_model is None:
            continue
        if relation.related_model._meta.app_label == Candidate._meta.app_label:
            continue
        merged = getattr(relation.related_model, "candidates_merged", None)
        if relation.one_to_one and merged is not None:
            moved[relation.get_accessor_name() or relation.name] = merged(survivor_id=survivor_id, other_id=other_id)
            continue
        if not relation.one_to_many:
            raise NotImplementedError(f"A merge does not know how to move {relation!r}; teach it before adding one.")
        rows = relation.related_model._base_manager.filter(**{relation.field.attname: other_id})
        moved[relation.get_accessor_name() or relation.name] = rows.update(**{relation.field.attname: survivor_id})
    return moved


def _merge_skills(survivor_id: int, other_id: int) -> int:
    mine = {cs.skill_id: cs for cs in CandidateSkill.objects.filter(candidate_id=survivor_id)}
    last = max((cs.position for cs in mine.values()), default=-1)
    moved = 0
    for theirs in CandidateSkill.objects.filter(candidate_id=other_id).order_by("position", "id"):
        kept = mine.get(theirs.skill_id)
        if kept is None:
            last += 1
            theirs.candidate_id, theirs.position = survivor_id, last
            theirs.save(update_fields=["candidate", "position"])
            moved += 1
        elif theirs.score > kept.score:
            kept.score, kept.label = theirs.score, theirs.label
            kept.save(update_fields=["score", "label"])
            moved += 1
    CandidateSkill.objects.filter(candidate_id=other_id).delete()
    return moved


def _merge_contributions(survivor_id: int, other_id: int) -> int:
    mine = {c.repository_id: c for c in Contribution.objects.filter(candidate_id=survivor_id)}
    last = max((c.position for c in mine.values()), default=-1)
    moved = 0
    for theirs in Contribution.objects.filter(candidate_id=other_id).order_by("position", "id"):
        kept = mine.get(theirs.repository_id)
        if kept is not None and kept.commits >= theirs.commits:
            continue
        if kept is not None:
            kept.delete()
        last += 1
        theirs.candidate_id, theirs.position = survivor_id, last
        theirs.save(update_fields=["candidate", "position"])
        moved += 1
    Contribution.objects.filter(candidate_id=other_id).delete()
    return moved


def _merge_listed(model, order_field: str, key, survivor_id: int, other_id: int) -> int:
    """Append the merged candidate's rows of ``model`` the survivor does not have already (equal ``key``), after the
    survivor's own in ``order_field``; returns how many moved."""
    mine = list(model.objects.filter(candidate_id=survivor_id))
    seen = {key(row) for row in mine}
    last = max((getattr(row, order_field) for row in mine), default=-1)
    moved = 0
    for theirs in model.objects.filter(candidate_id=other_id).order_by(order_field, "id"):
        if key(theirs) in seen:
            continue
        seen.add(key(theirs))
        last += 1
        theirs.candidate_id = survivor_id
        setattr(theirs, order_field, last)
        theirs.save(update_fields=["candidate", order_field])
        moved += 1
    model.objects.filter(candidate_id=other_id).delete()
    return moved


def _merge_education(survivor_id: int, other_id: int) -> int:
    def key(e: Education) -> tuple:
        return (e.degree.casefold(), e.field.casefold(), e.minor.casefold(), e.school.casefold())

    return _merge_listed(Education, "position", key, survivor_id, other_id)


def _merge_positions(survivor_id: int, other_id: int) -> int:
    def key(p: Position) -> tuple:
        return (p.company.casefold(), p.title.casefold(), p.start, p.end)

    return _merge_listed(Position, "order", key, survivor_id, other_id)


def _merge_languages(survivor_id: int, other_id: int) -> int:
    """One row per language; a better fluency the merged candidate gives replaces the survivor's."""
    levels = list(SpokenLanguage.Fluency.values)

    def key(lang: SpokenLanguage) -> str:
        return lang.code or lang.name.casefold()

    def rank(lang: SpokenLanguage) -> int:
        return levels.index(lang.fluency) if lang.fluency else len(levels)

    mine = {key(lang): lang for lang in SpokenLanguage.objects.filter(candidate_id=survivor_id)}
    for theirs in SpokenLanguage.objects.filter(candidate_id=other_id):
        kept = mine.get(key(theirs))
        if kept is not None and rank(theirs) < rank(kept):
            kept.fluency, kept.raw = theirs.fluency, theirs.raw
            kept.save(update_fields=["fluency", "raw"])
    return _merge_listed(SpokenLanguage, "position", key, survivor_id, other_id)


def _merge_shortlist_entries(survivor_id: int, other_id: int) -> int:
    mine = {e.shortlist_id: e for e in ShortlistEntry.objects.filter(candidate_id=survivor_id)}
    moved = 0
    for theirs in ShortlistEntry.objects.filter(candidate_id=other_id):
        kept = mine.get(theirs.shortlist_id)
        if kept is None:
            theirs.candidate_id = survivor_id
            theirs.save(update_fields=["candidate"])
        elif theirs.notes:
            kept.notes = f"{kept.notes}\n{theirs.notes}".strip()
            kept.save(update_fields=["notes"])
        moved += 1
    ShortlistEntry.objects.filter(candidate_id=other_id).delete()
    return moved


# --- Related skills (issue 16) ---------------------------------------------------------------------------------------

# One statement: the pool of (candidate, skill) rows at the minimum score, the skills with at least the minimum support
# (a pair cannot have more candidates than either of its skills, so dropping the rarer skills loses no pair), the
# pairs (a < b) counted by a self-join on the candidate, their lift, both directions ranked per skill, the top ones
# inserted. The self-join is what grows: ~n·(n-1)/2 pairs per candidate of n skills, 190 for 20. Past
# RELATED_SKILLS_SAMPLE_CANDIDATES the pool is a fixed sample of about that many candidates (lift is a ratio of
# frequencies, which a sample estimates; support then counts the sample's candidates).
_RELATED_SKILLS_SQL = """
WITH pool AS MATERIALIZED (
    SELECT cs.candidate_id, cs.skill_id
    FROM profiles_candidateskill cs
    WHERE cs.score >= %(min_score)s {sample}
),
total AS (SELECT count(DISTINCT candidate_id) AS n FROM pool),
frequent_skill AS (
    SELECT skill_id, count(*) AS n FROM pool GROUP BY skill_id HAVING count(*) >= %(min_support)s
),
frequent AS MATERIALIZED (
    SELECT pool.candidate_id, pool.skill_id FROM pool JOIN frequent_skill USING (skill_id)
),
pair AS (
    SELECT a.skill_id AS a, b.skill_id AS b, count(*) AS support
    FROM frequent a JOIN frequent b ON b.candidate_id = a.candidate_id AND b.skill_id > a.skill_id
    GROUP BY a.skill_id, b.skill_id
    HAVING count(*) >= %(min_support)s
),
scored AS (
    SELECT pair.a, pair.b, pair.support, pair.support::float8 * total.n / (sa.n::float8 * sb.n) AS lift
    FROM pair
    JOIN frequent_skill sa ON sa.skill_id = pair.a
    JOIN frequent_skill sb ON sb.skill_id = pair.b
    CROSS JOIN total
),
ranked AS (
    SELECT skill_id, related_id, support, lift,
           row_number() OVER (PARTITION BY skill_id ORDER BY lift DESC, support DESC, related_id) AS rank
    FROM (
        SELECT a AS skill_id, b AS related_id, support, lift FROM scored
        UNION ALL
        SELECT b, a, support, lift FROM scored
    ) both_ways
    WHERE lift >= %(min_lift)s
),
inserted AS (
    INSERT INTO profiles_relatedskill (skill_id, related_id, support, lift, computed_at)
    SELECT skill_id, related_id, support, lift, %(now)s FROM ranked WHERE rank <= %(per_skill)s
    RETURNING 1
)
SELECT (SELECT count(*) FROM inserted), (SELECT n FROM total)
"""
# The sample: the candidates whose id hashes into the first ``kept`` of 16,384 buckets, spread over the ids rather than
# blocks of consecutive ones (one import's people). It reads no other table (a TABLESAMPLE of profiles_candidate would
# read all of that wide table, 2 GB at a million), and it is the same sample on every run, so a re-run over the same
# data stores the same rows.
_SAMPLE_BUCKETS = 16_384
_RELATED_SKILLS_SAMPLE = f"AND (hashint8(cs.candidate_id) & {_SAMPLE_BUCKETS - 1}) < %(kept)s"


@dataclass(frozen=True)
class RelatedSkillsRefresh:
    rows: int  # related-skill rows stored (each pair once per direction kept)
    candidates: int  # candidates in the pool counted (with a skill at the minimum score)
    sampled: bool  # the pool was a sample of the candidates
    seconds: float

    def line(self) -> str:
        pool = "a sample of " if self.sampled else ""
        return f"{self.rows} related-skill rows from {pool}{self.candidates} candidates in {self.seconds:.1f} s"


@transaction.atomic
def related_skills_refresh(
    *,
    min_score: int | None = None,
    min_support: int | None = None,
    min_lift: float | None = None,
    per_skill: int | None = None,
) -> RelatedSkillsRefresh:
    """Recompute every related-skill row from the candidates' skills (settings RELATED_SKILLS_* by default).

    In one transaction: readers see the old rows until the new ones commit. The table lock makes concurrent refreshes
    (Beat's and a hand-run ``manage.py related_skills``) run one after the other instead of clashing on the unique
    pair; it lets reads through. The same data gives the same rows, so a re-run is harmless.
    """
    started = time.monotonic()
    params = {
        "min_score": settings.RELATED_SKILLS_MIN_SCORE if min_score is None else min_score,
        "min_support": max(1, settings.RELATED_SKILLS_MIN_SUPPORT if min_support is None else min_support),
        "min_lift": settings.RELATED_SKILLS_MIN_LIFT if min_lift is None else min_lift,
        "per_skill": settings.RELATED_SKILLS_PER_SKILL if per_skill is None else per_skill,
        "now": timezone.now(),
    }
    with connection.cursor() as cursor:
        cursor.execute("LOCK TABLE profiles_relatedskill IN EXCLUSIVE MODE")
        cursor.execute("SELECT count(*) FROM profiles_candidate")
        (candidates,) = cursor.fetchone()
        cap = max(1, settings.RELATED_SKILLS_SAMPLE_CANDIDATES)
        sampled = candidates > cap
        params["kept"] = -(-_SAMPLE_BUCKETS * cap // candidates) if sampled else _SAMPLE_BUCKETS  # rounded up
        cursor.execute("DELETE FROM profiles_relatedskill")
        cursor.execute(_RELATED_SKILLS_SQL.format(sample=_RELATED_SKILLS_SAMPLE if sampled else ""), params)
        rows, pool = cursor.fetchone()
    return RelatedSkillsRefresh(
        rows=rows, candidates=pool, sampled=sampled, seconds=round(time.monotonic() - started, 3)
    )
