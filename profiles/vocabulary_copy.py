"""The skill vocabulary as this process reads it: a copy of the database's, built once per version.

Below the selectors and the search seam, which both read it (``profiles.search.skills`` resolves labels with it)."""

from __future__ import annotations

import uuid

from django.core.cache import cache

from profiles.models import Skill, SkillAlias
from profiles.vocabulary import SkillVocabulary

# The vocabulary is large (every alias of every GitHub topic and Linguist language), and what a process builds from it
# (the topic splitter's index) is costly, so each process keeps the copy it built; the copy's version lives in the
# shared cache, and a new version there (``skill_vocabulary_changed``: a seed, an edit in the admin) makes every
# process read the table again on its next call. The version also expires, so skills that imports create reach the
# parsers within VOCABULARY_MAX_AGE_SECONDS: imports map every label through the database anyway
# (``ingestion.loaders.skill_vocabulary_resolve``); the parsers only split glued topics with the words.
VOCABULARY_VERSION_KEY = "skill-vocabulary-version"
VOCABULARY_MAX_AGE_SECONDS = 300
_vocabulary: tuple[str, SkillVocabulary] | None = None  # (version, the copy this process built)


def skill_vocabulary() -> SkillVocabulary:
    """Every alias the database knows with its skill's slug, and the words (aliases and slugs) that split glued
    topic strings."""
    global _vocabulary
    version = cache.get(VOCABULARY_VERSION_KEY)
    if version is None:
        cache.add(VOCABULARY_VERSION_KEY, uuid.uuid4().hex, timeout=VOCABULARY_MAX_AGE_SECONDS)
        version = cache.get(VOCABULARY_VERSION_KEY)
    if _vocabulary is None or _vocabulary[0] != version:
        slugs = dict(SkillAlias.objects.values_list("label", "skill__slug"))
        words = frozenset({*slugs, *Skill.objects.values_list("slug", flat=True)})
        _vocabulary = (version, SkillVocabulary(slugs=slugs, words=words))
    return _vocabulary[1]


def skill_vocabulary_changed() -> None:
    """Every process reads the vocabulary again on its next ``skill_vocabulary()``: call after seeding or editing
    skills and aliases."""
    cache.set(VOCABULARY_VERSION_KEY, uuid.uuid4().hex, timeout=VOCABULARY_MAX_AGE_SECONDS)


def skill_vocabulary_forget() -> None:
    """Drop this process's copy (and no other's): its next ``skill_vocabulary()`` reads the table again. For tests,
    whose rows roll back under a copy that outlives them."""
    global _vocabulary
    _vocabulary = None
