"""Re-resolving the skill labels already stored with the resolver (``profiles.skill_resolver``), without reparsing
any file: ``manage.py reresolve_skills`` (``--dry-run`` prints what would change) and the data migration that runs
it once.

Each candidate's skills keep the label as the file wrote it (``CandidateSkill.label``), so the resolver can read it
again. Only a skill that no vocabulary seeds (one an import made of a label nobody knew: "usage-with-docker",
"svelt", "teamwork") is looked at, and its label is read against the seeded vocabulary (the curated table and the
shipped one), where such a skill cannot answer for itself:

- a label that names known skills moves to them ("Usage with Docker" to Docker), keeping the higher score when the
  candidate has that skill already, and a score a recruiter set by hand;
- a label that is no technology leaves the skills for the candidate's ``other_skills`` text ("Teamwork");
- any other label stays where it is.

Skills left with no candidate are not deleted here: ``skills_audit`` lists them for the admin.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.db import transaction

from profiles.models import Candidate, CandidateSkill, Skill, SkillAlias
from profiles.search import candidates_refresh_search_columns
from profiles.skill_resolver import SkillResolver
from profiles.vocabulary import CURATED_LABELS

__all__ = ["Reresolved", "seeded_labels", "skills_reresolve"]

BATCH_SIZE = 500  # candidates per transaction


@dataclass(slots=True)
class Reresolved:
    """What a run changed (or, dry, would change)."""

    candidates: int = 0  # candidates with a change
    moved: int = 0  # labels moved to a known skill
    to_text: int = 0  # labels moved to other_skills
    changes: list[str] = field(default_factory=list)  # one line per change, for the dry run's print


def seeded_labels() -> dict[str, str]:
    """Label key → slug of the seeded vocabulary: the shipped table's labels, the curated table's winning."""
    from profiles.shipped_vocabulary import read_shipped  # the shipped table is large: read it only for a run

    labels: dict[str, str] = {}
    shipped = read_shipped()
    for slug, _, _ in shipped.skills:
        labels.setdefault(slug, slug)
    for label, slug in shipped.aliases:
        labels.setdefault(label, slug)
    return labels | CURATED_LABELS


def skills_reresolve(
    *,
    dry_run: bool,
    batch_size: int = BATCH_SIZE,
    labels: dict[str, str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Reresolved:
    """Re-resolve the labels of every candidate's unseeded skills, ``batch_size`` candidates per transaction (the
    module docstring says how). ``labels`` is the seeded vocabulary (``seeded_labels()`` when None)."""
    if not CandidateSkill.objects.exists():  # a new database: nothing to read again, nor the tables to read
        return Reresolved()
    labels = seeded_labels() if labels is None else labels
    resolver = SkillResolver(labels)
    seeded = set(labels.values())
    unseeded = set(Skill.objects.exclude(slug__in=seeded).values_list("id", flat=True))
    summary = Reresolved()
    if not unseeded:
        return summary
    last = 0
    while True:
        ids = list(
            CandidateSkill.objects.filter(skill_id__in=unseeded, candidate_id__gt=last)
            .order_by("candidate_id")
            .values_list("candidate_id", flat=True)
            .distinct()[:batch_size]
        )
        if not ids:
            return summary
        with transaction.atomic():
            _reresolve_batch(ids, unseeded, resolver, dry_run=dry_run, summary=summary)
        if progress is not None:
            progress(f"Candidates up to #{ids[-1]}: {summary.moved} labels moved, {summary.to_text} kept as text.")
        last = ids[-1]


def _reresolve_batch(
    candidate_ids: list[int], unseeded: set[int], resolver: SkillResolver, *, dry_run: bool, summary: Reresolved
) -> None:
    rows = list(
        CandidateSkill.objects.filter(candidate_id__in=candidate_ids)
        .select_related("skill")
        .select_for_update(of=("self",))
        .order_by("candidate_id", "position", "id")
    )
    by_candidate: dict[int, list[CandidateSkill]] = {}
    for row in rows:
        by_candidate.setdefault(row.candidate_id, []).append(row)
    wanted = {
        slug for row in rows if row.skill_id in unseeded for slug in resolver.resolve(row.label or row.skill.slug).slugs
    }
    skill_ids = _skill_ids(wanted)
    changed: list[int] = []
    for candidate_id, skills in by_candidate.items():
        if _reresolve_candidate(candidate_id, skills, unseeded, resolver, skill_ids, dry_run, summary):
            changed.append(candidate_id)
    summary.candidates += len(changed)
    if changed and not dry_run:
        candidates_refresh_search_columns(candidate_ids=changed)


def _reresolve_candidate(
    candidate_id: int,
    skills: list[CandidateSkill],
    unseeded: set[int],
    resolver: SkillResolver,
    skill_ids: dict[str, int],
    dry_run: bool,
    summary: Reresolved,
) -> bool:
    held = {row.skill_id: row for row in skills}
    last = max((row.position for row in skills), default=-1)
    text: list[str] = []
    changed = False
    for row in skills:
        if row.skill_id not in unseeded:
            continue
        label = row.label or row.skill.slug
        result = resolver.resolve(label)
        targets = [skill_ids[slug] for slug in result.slugs if slug in skill_ids and skill_ids[slug] != row.skill_id]
        if result.not_technology:
            summary.to_text += 1
            summary.changes.append(f"#{candidate_id}: “{label}” ({row.skill.slug}) → kept as text, not a skill")
            text.append(label)
        elif targets and len(targets) == len(result.slugs):
            summary.moved += 1
            named = ", ".join(result.slugs)
            summary.changes.append(f"#{candidate_id}: “{label}” ({row.skill.slug}) → {named}")
        else:
            continue
        changed = True
        if dry_run:
            continue
        row.delete()
        del held[row.skill_id]
        for target in targets if not result.not_technology else []:
            kept = held.get(target)
            if kept is None:
                last += 1
                held[target] = CandidateSkill.objects.create(
                    candidate_id=candidate_id,
                    skill_id=target,
                    score=row.score,
                    label=row.label,
                    section=row.section,
                    position=last,
                    score_by_hand=row.score_by_hand,
                )
            elif row.score > kept.score and not kept.score_by_hand:
                kept.score, kept.label = row.score, row.label
                kept.save(update_fields=["score", "label"])
    if text and not dry_run:
        candidate = Candidate.objects.select_for_update().only("other_skills").get(pk=candidate_id)
        other = list(dict.fromkeys([*candidate.other_skills, *(label[:200] for label in text)]))
        Candidate.objects.filter(pk=candidate_id).update(other_skills=other)
    return changed


def _skill_ids(slugs: Iterable[str]) -> dict[str, int]:
    """The id of each slug's skill as the database has it now (a slug is its skill's alias; a merged one leads to
    the skill it was merged into)."""
    slugs = sorted(set(slugs))
    found = dict(SkillAlias.objects.filter(label__in=slugs).values_list("label", "skill_id"))
    found.update((slug, pk) for slug, pk in Skill.objects.filter(slug__in=slugs).values_list("slug", "id"))
    return found
