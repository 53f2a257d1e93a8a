"""Re-resolving the skill labels already stored with the resolver (``profiles.skill_resolver``), without reparsing
any file: ``manage.py reresolve_skills`` (``--dry-run`` prints what would change, ``--undo`` puts every recorded move
back) and migration 0033, which runs it once on the models as they were then (``Models.historical``).

Each candidate's skills keep the label as the file wrote it (``CandidateSkill.label``), so the resolver can read it
again. Only a skill an import made is looked at: its slug is in no seeded vocabulary (the curated table, the shipped
one, the ``VOCAB_DIR`` folder ``seed_skills --vocab`` reads), as ``skills_audit`` decides, and nothing shows a
curator's hand on it (an admin log entry on it or its aliases, a name other than the one an import gives, an alias no
import writes, such as a merged skill's slug). Its labels are read against the seeded vocabulary:

- a label that names known skills by an exact, stripped, near-identical or joined rule, or by a phrase naming one
  skill, moves to them ("Usage with Docker" to Docker). A candidate who has that skill already keeps that row, its
  label, and the higher score; a score set by hand (on either row) wins, and stays marked as set by hand;
- a label that is no technology leaves the skills for the candidate's ``other_skills`` text ("Teamwork");
- a misspelling ("Svelt") or a phrase naming several skills is not moved: it is listed for a curator, who merges
  the skill in the admin when the reading is right;
- any other label stays where it is.

Every move is recorded (``SkillLabelMove``: the row as it was, the rows it changed), so the label as written is never
lost and ``--undo`` can put it back. Skills left with no candidate are not deleted here: ``skills_audit`` lists them.
This module imports no model class: the migration passes the models of its time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from core.labels import label_variants
from profiles.search import candidates_refresh_search_columns
from profiles.skill_resolver import Resolution, Resolved, SkillResolver
from profiles.vocabulary import CURATED_LABELS, CURATED_SKILLS, read_vocabulary, skill_display_name, skill_slug

__all__ = ["Models", "Reresolved", "seeded_labels", "skills_reresolve", "skills_reresolve_undo"]

BATCH_SIZE = 500  # candidates per transaction
_APPLIED = {Resolved.ALIAS, Resolved.STRIPPED, Resolved.NEAR, Resolved.JOINED, Resolved.PHRASE}


@dataclass(frozen=True, slots=True)
class Models:
    """The model classes a run writes through: today's, or a migration's historical ones."""

    candidate: Any
    candidate_skill: Any
    skill: Any
    skill_alias: Any
    move: Any

    @classmethod
    def current(cls) -> Models:
        from profiles import models  # here, not at the top: a migration imports this module

        return cls(models.Candidate, models.CandidateSkill, models.Skill, models.SkillAlias, models.SkillLabelMove)

    @classmethod
    def historical(cls, apps) -> Models:
        names = ("Candidate", "CandidateSkill", "Skill", "SkillAlias", "SkillLabelMove")
        return cls(*(apps.get_model("profiles", name) for name in names))


@dataclass(slots=True)
class Reresolved:
    """What a run changed (or, dry, would change), and what it leaves to a curator."""

    candidates: int = 0  # candidates with a change
    moved: int = 0  # labels moved to a known skill
    to_text: int = 0  # labels moved to other_skills
    changes: list[str] = field(default_factory=list)  # one line per change, for the dry run's print
    # Misspellings and phrases naming several skills, never applied: a line per label and skill, with how many
    # candidates have it (a curator merges a skill once for all of them).
    for_curator: dict[str, int] = field(default_factory=dict)


def _seeded(vocab_dir: Path | None) -> tuple[dict[str, str], set[str]]:
    """Label key → slug of the seeded vocabulary (the curated table's labels winning, then the shipped table's, then
    the folder's), and the seeded skills' slugs."""
    from profiles.shipped_vocabulary import read_shipped  # the shipped table is large: read it only for a run

    tables = [read_shipped()]
    if vocab_dir is not None and vocab_dir.is_dir():
        tables.append(read_vocabulary(vocab_dir))
    labels: dict[str, str] = {}
    slugs = set(CURATED_SKILLS)
    for table in tables:
        for slug, _, _ in table.skills:
            labels.setdefault(slug, slug)
            slugs.add(slug)
        for label, slug in table.aliases:
            labels.setdefault(label, slug)
    return labels | CURATED_LABELS, slugs


def seeded_labels() -> dict[str, str]:
    """Label key → slug of the product's seeded vocabulary (the curated and shipped tables)."""
    return _seeded(None)[0]


def skills_reresolve(
    *,
    dry_run: bool,
    batch_size: int = BATCH_SIZE,
    models: Models | None = None,
    vocab_dir: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> Reresolved:
    """Re-resolve the labels on the skills imports made, ``batch_size`` candidates per transaction (the module
    docstring says how). ``vocab_dir`` is the public vocabularies' folder (``settings.VOCAB_DIR`` when None)."""
    models = models or Models.current()
    summary = Reresolved()
    if not models.candidate_skill.objects.exists():  # a new database: nothing to read again, nor the tables to read
        return summary
    labels, seeded = _seeded(settings.VOCAB_DIR if vocab_dir is None else vocab_dir)
    made = _made_by_imports(models, seeded)
    if not made:
        return summary
    resolver = SkillResolver(labels)
    last = 0
    while True:
        ids = list(
            models.candidate_skill.objects.filter(skill_id__in=made, candidate_id__gt=last)
            .order_by("candidate_id")
            .values_list("candidate_id", flat=True)
            .distinct()[:batch_size]
        )
        if not ids:
            return summary
        with transaction.atomic():
            _reresolve_batch(ids, made, resolver, models, dry_run=dry_run, summary=summary)
        if progress is not None:
            progress(f"Candidates up to #{ids[-1]}: {summary.moved} labels moved, {summary.to_text} kept as text.")
        last = ids[-1]


def _made_by_imports(models: Models, seeded: set[str]) -> dict[int, str]:
    """Id → slug of the skills an import made and no curator touched (the module docstring says how)."""
    skills = models.skill.objects.exclude(slug__in=seeded).values_list("id", "slug", "name")
    aliases: dict[int, set[str]] = {}
    for label, skill_id in models.skill_alias.objects.exclude(skill__slug__in=seeded).values_list("label", "skill_id"):
        aliases.setdefault(skill_id, set()).add(label)
    logged = _logged_in_the_admin()
    return {
        pk: slug
        for pk, slug, name in skills
        if pk not in logged and _as_an_import_made_it(slug, name, aliases.get(pk, set()))
    }


def _as_an_import_made_it(slug: str, name: str, aliases: set[str]) -> bool:
    """An import names a new skill after the label's key and writes that key, and the keys of its equivalent forms,
    as aliases; a curator's rename, or a merge (the merged skill's slug becomes an alias), shows otherwise."""
    own = {alias for alias in aliases if skill_slug(alias) == slug}
    if name not in {skill_display_name(alias) for alias in own}:
        return False
    return all(alias in own or aliases.intersection(label_variants(alias)[1:]) for alias in aliases)


def _logged_in_the_admin() -> set[int]:
    """The ids of the skills the admin's log names, directly or through one of their aliases."""
    if "django_admin_log" not in connection.introspection.table_names():
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT s.id FROM django_admin_log l
            JOIN django_content_type c ON c.id = l.content_type_id AND c.app_label = 'profiles'
            JOIN profiles_skill s ON c.model = 'skill' AND l.object_id = s.id::text
            UNION
            SELECT a.skill_id FROM django_admin_log l
            JOIN django_content_type c ON c.id = l.content_type_id AND c.app_label = 'profiles'
            JOIN profiles_skillalias a ON c.model = 'skillalias' AND l.object_id = a.id::text
            """
        )
        return {pk for (pk,) in cursor.fetchall()}


@dataclass(slots=True)
class _Writes:
    """A batch's writes, made at its end in a few statements."""

    deleted: list[int] = field(default_factory=list)
    added: dict[tuple[int, int], Any] = field(default_factory=dict)  # (candidate, skill) → a new row
    kept: dict[int, Any] = field(default_factory=dict)  # id → an existing row whose score changed
    moves: list[Any] = field(default_factory=list)
    text: dict[int, list[str]] = field(default_factory=dict)  # candidate → labels for other_skills


def _reresolve_batch(
    candidate_ids: list[int],
    made: dict[int, str],
    resolver: SkillResolver,
    models: Models,
    *,
    dry_run: bool,
    summary: Reresolved,
) -> None:
    rows = list(
        models.candidate_skill.objects.filter(candidate_id__in=candidate_ids)
        .select_for_update()
        .order_by("candidate_id", "position", "id")
    )
    by_candidate: dict[int, list[Any]] = {}
    for row in rows:
        by_candidate.setdefault(row.candidate_id, []).append(row)
    wanted = {slug for row in rows if row.skill_id in made for slug in resolver.resolve(_label(row, made)).slugs}
    skill_ids = _skill_ids(models, wanted)
    slugs = {pk: slug for slug, pk in skill_ids.items()} | made
    writes = _Writes()
    changed = [
        candidate_id
        for candidate_id, skills in by_candidate.items()
        if _reresolve_candidate(candidate_id, skills, made, resolver, skill_ids, slugs, models, writes, summary)
    ]
    summary.candidates += len(changed)
    if changed and not dry_run:
        _write(models, writes)
        candidates_refresh_search_columns(candidate_ids=changed)


def _label(row, made: dict[int, str]) -> str:
    return row.label or made[row.skill_id]


def _reresolve_candidate(
    candidate_id: int,
    skills: list[Any],
    made: dict[int, str],
    resolver: SkillResolver,
    skill_ids: dict[str, int],
    slugs: dict[int, str],
    models: Models,
    writes: _Writes,
    summary: Reresolved,
) -> bool:
    held = {row.skill_id: row for row in skills}
    last = max((row.position for row in skills), default=-1)
    changed = False
    for row in skills:
        if row.skill_id not in made:
            continue
        label = _label(row, made)
        result = resolver.resolve(label)
        line = f"#{candidate_id}: “{label}” ({made[row.skill_id]})"
        if result.not_technology:
            summary.to_text += 1
            summary.changes.append(f"{line} → kept as text, not a skill")
            writes.text.setdefault(candidate_id, []).append(label[:200])
            targets = []
        elif _for_a_curator(result):
            listed = f"“{label}” ({made[row.skill_id]}) → {', '.join(result.slugs)}? ({result.how.value}; not moved)"
            summary.for_curator[listed] = summary.for_curator.get(listed, 0) + 1
            continue
        elif result.how in _APPLIED and all(skill_ids.get(s, row.skill_id) != row.skill_id for s in result.slugs):
            targets = [skill_ids[slug] for slug in result.slugs]
            summary.moved += 1
            summary.changes.append(f"{line} → {', '.join(result.slugs)}")
        else:
            continue
        changed = True
        del held[row.skill_id]
        writes.deleted.append(row.pk)
        kept_before = [[slugs[t], held[t].score, held[t].score_by_hand] for t in targets if t in held]
        for target in targets:
            kept = held.get(target)
            if kept is None:
                last += 1
                held[target] = writes.added[candidate_id, target] = models.candidate_skill(
                    candidate_id=candidate_id,
                    skill_id=target,
                    score=row.score,
                    label=row.label,
                    section=row.section,
                    position=last,
                    score_by_hand=row.score_by_hand,
                )
                continue
            # The kept row keeps its label (the move record keeps this one); a score set by hand wins.
            if not kept.score_by_hand and (row.score_by_hand or row.score > kept.score):
                kept.score = row.score
            kept.score_by_hand = kept.score_by_hand or row.score_by_hand
            if kept.pk is not None:
                writes.kept[kept.pk] = kept
        writes.moves.append(
            models.move(
                candidate_id=candidate_id,
                skill_slug=made[row.skill_id],
                label=row.label,
                score=row.score,
                section=row.section,
                position=row.position,
                score_by_hand=row.score_by_hand,
                to_slugs=[slugs[t] for t in targets],
                kept_before=kept_before,
            )
        )
    return changed


def _for_a_curator(result: Resolution) -> bool:
    """A guess (a misspelling) or an ambiguous phrase (one naming several skills): listed, never applied."""
    return result.how is Resolved.TYPO or (result.how is Resolved.PHRASE and len(result.slugs) > 1)


def _write(models: Models, writes: _Writes) -> None:
    models.candidate_skill.objects.filter(pk__in=writes.deleted).delete()
    models.candidate_skill.objects.bulk_update(list(writes.kept.values()), ["score", "score_by_hand"])
    models.candidate_skill.objects.bulk_create(list(writes.added.values()))
    models.move.objects.bulk_create(writes.moves)
    if writes.text:
        candidates = list(models.candidate.objects.filter(pk__in=writes.text).select_for_update().only("other_skills"))
        for candidate in candidates:
            candidate.other_skills = list(dict.fromkeys([*candidate.other_skills, *writes.text[candidate.pk]]))
        models.candidate.objects.bulk_update(candidates, ["other_skills"])


def _skill_ids(models: Models, slugs: Iterable[str]) -> dict[str, int]:
    """The id of each slug's skill as the database has it now (a slug is its skill's alias; a merged one leads to
    the skill it was merged into)."""
    slugs = sorted(set(slugs))
    found = dict(models.skill_alias.objects.filter(label__in=slugs).values_list("label", "skill_id"))
    found.update(models.skill.objects.filter(slug__in=slugs).values_list("slug", "id"))
    return found


def skills_reresolve_undo(*, models: Models | None = None, batch_size: int = BATCH_SIZE) -> int:
    """Put every recorded move back, the newest first, ``batch_size`` moves per transaction: the label on the skill
    it was on (when that skill still exists), the rows it changed as they were, the rows it added gone, the label out
    of ``other_skills``. Returns how many moves it undid."""
    models = models or Models.current()
    undone = 0
    while True:
        with transaction.atomic():
            moves = list(models.move.objects.select_for_update().order_by("-id")[:batch_size])
            if not moves:
                return undone
            for move in moves:
                _undo(models, move)
            models.move.objects.filter(pk__in=[move.pk for move in moves]).delete()
            candidates_refresh_search_columns(candidate_ids={move.candidate_id for move in moves})
        undone += len(moves)


def _undo(models: Models, move) -> None:
    rows = models.candidate_skill.objects.filter(candidate_id=move.candidate_id)
    skill_ids = _skill_ids(models, [move.skill_slug, *move.to_slugs])
    before = {slug: (score, by_hand) for slug, score, by_hand in move.kept_before}
    for slug in move.to_slugs:
        if slug in before:
            score, by_hand = before[slug]
            rows.filter(skill_id=skill_ids.get(slug)).update(score=score, score_by_hand=by_hand)
        else:
            rows.filter(skill_id=skill_ids.get(slug)).delete()
    if not move.to_slugs:
        candidate = models.candidate.objects.select_for_update().only("other_skills").get(pk=move.candidate_id)
        other = list(candidate.other_skills)
        if move.label[:200] in other:
            other.remove(move.label[:200])
            models.candidate.objects.filter(pk=move.candidate_id).update(other_skills=other)
    skill_id = skill_ids.get(move.skill_slug)
    if skill_id is not None and not rows.filter(skill_id=skill_id).exists():
        models.candidate_skill.objects.create(
            candidate_id=move.candidate_id,
            skill_id=skill_id,
            score=move.score,
            label=move.label,
            section=move.section,
            position=move.position,
            score_by_hand=move.score_by_hand,
        )
