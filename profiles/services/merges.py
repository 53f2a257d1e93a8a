"""Duplicates and merges: a group of candidates merged into the one a recruiter keeps, or recorded as different
people."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.errors import ApplicationError
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    Education,
    MergeRecord,
    Position,
    ShortlistEntry,
    SkillLabelMove,
    SpokenLanguage,
)
from profiles.services.hand_edits import candidate_history_catch_up, candidate_languages_edited, candidate_skills_edited

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
            **move_references_of_other_apps(survivor.pk, other.pk),
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


def move_references_of_other_apps(survivor_id: int, other_id: int) -> dict[str, int]:
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
