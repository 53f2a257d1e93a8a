"""Reads of the talent domain."""

from __future__ import annotations

import time

from profiles.models import Skill, SkillAlias

_VOCABULARY_TTL_SECONDS = 300
_vocabulary_cache: tuple[float, frozenset[str]] | None = None


def skill_vocabulary(*, fresh: bool = False) -> frozenset[str]:
    """Every label and slug the database knows: the vocabulary that splits glued topic strings.

    Cached per process for a few minutes: it only grows, and a slightly stale copy splits nearly as well.
    """
    global _vocabulary_cache
    now = time.monotonic()
    if fresh or _vocabulary_cache is None or now - _vocabulary_cache[0] > _VOCABULARY_TTL_SECONDS:
        labels = set(SkillAlias.objects.values_list("label", flat=True))
        labels.update(Skill.objects.values_list("slug", flat=True))
        _vocabulary_cache = (now, frozenset(labels))
    return _vocabulary_cache[1]
