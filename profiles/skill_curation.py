"""Writes of a skills curator beyond one merge: the look-alike pairs (``profiles.skill_pairs``) merged in one go.

``profiles.services.skills_merge`` merges one skill into another; this module merges the pairs a curator ticked on
the admin's "Look-alike skills" page, all of them or none.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.db import transaction

from core.errors import ApplicationError
from profiles.models import Skill
from profiles.services import skills_merge
from profiles.skill_pairs import SkillPair, skill_pairs


@dataclass(frozen=True, slots=True)
class SkillPairsMerged:
    """The pairs merged, and how many candidates' scores moved in all."""

    pairs: tuple[SkillPair, ...]
    candidates: int


@transaction.atomic
def skill_pairs_merge(*, chosen: Collection[str]) -> SkillPairsMerged:
    """Merge each pair of ``chosen`` (``SkillPair.value``: "source id-target id") that ``skill_pairs`` lists now,
    source into target. A pair it does not list (posted from an older page, or made up) is left alone: the pairs are
    read again here, so that what a curator ticked is still what the rule proposes.

    All or none: ApplicationError ``no_pairs_chosen`` when no chosen pair is listed now, ``stale_pairs`` when a skill
    of one of them went or changed while merging (nothing is merged then)."""
    merging = tuple(pair for pair in skill_pairs() if pair.value in chosen)
    if not merging:
        raise ApplicationError("Tick the pairs to merge.", code="no_pairs_chosen")
    skills = Skill.objects.in_bulk([skill.id for pair in merging for skill in (pair.source, pair.target)])
    try:  # the error leaves this atomic block, which undoes the merges before it
        done = [skills_merge(source=skills[pair.source.id], target=skills[pair.target.id]) for pair in merging]
    except (ApplicationError, KeyError) as exc:
        raise ApplicationError(
            "A skill of these pairs changed meanwhile; nothing was merged. Look again.", code="stale_pairs"
        ) from exc
    return SkillPairsMerged(pairs=merging, candidates=sum(merge.candidates for merge in done))
