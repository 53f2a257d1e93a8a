"""Skill labels to skills: each label read by the skill resolver (``profiles.skill_resolver``), each skill kept
once with its highest score, and the labels that are no technology kept as text."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from core.labels import label_key
from ingestion.documents import ProfileDocument
from ingestion.normalise.columns import clip, usable
from ingestion.normalise.rows import NormalisedSkill
from profiles.models import Candidate, CandidateSkill, Skill
from profiles.skill_resolver import Resolution, Resolved, near_form
from profiles.vocabulary import SkillVocabulary, skill_display_name, skill_slug

__all__ = ["canonical", "document_label_keys", "skills_of"]

_ALIAS = Resolved.ALIAS  # read once: an enum member's lookup is an attribute access each time

# Labels that are English words, or short names two platforms' tools share, so the vocabulary knows no skill by them
# alone ("Room booking systems", "Docker, Compose"): in a file's skills they name the tool of the platform its other
# labels name ("Kotlin, Compose, Room" are Android's; "Docker, Compose" is Docker Compose), the first platform listed
# here winning, and without one no skill (kept on the profile as written). Label key → ((platform's label keys, slug)).
_ANDROID = frozenset({
    "android", "android-sdk", "android-studio", "android-jetpack", "jetpack", "androidx", "jetpack-compose",
    "kotlin", "kotlin-coroutines", "coroutines", "kotlin-flow", "dagger-hilt", "hilt", "android-development",
})  # fmt: skip
_DOCKER = frozenset({"docker", "dockerfile", "docker-swarm", "podman", "containers", "docker-containers"})
_PLATFORM_LABELS: dict[str, tuple[tuple[frozenset[str], str], ...]] = {
    "compose": ((_ANDROID, "jetpack-compose"), (_DOCKER, "docker-compose")),
    "room": ((_ANDROID, "android-room"),),
}


def _platform_tools(doc: ProfileDocument) -> dict[str, str | None]:
    """{label key: the slug it names in this file, None for no skill} of the file's ``_PLATFORM_LABELS``."""
    entries = (*doc.skills, *doc.programming_languages)
    keys = {label_key(entry.label) for entry in entries} if entries else set()
    if keys.isdisjoint(_PLATFORM_LABELS):
        return {}
    return {
        label: next((slug for platform, slug in choices if not keys.isdisjoint(platform)), None)
        for label, choices in _PLATFORM_LABELS.items()
    }


def _read_as(label: str, tools: dict[str, str | None]) -> str | None:
    """The label to resolve for ``label``: a platform's tool by its slug (its own alias), None when it names none."""
    if not tools:
        return label
    key = label_key(label)
    return tools.get(key, label)


def document_label_keys(
    documents: Iterable[ProfileDocument],
    vocabulary: SkillVocabulary | None = None,
    resolved: dict[str, Resolution] | None = None,
) -> tuple[set[str], set[str]]:
    """The label keys of the documents' skills and programming languages, and of their repositories' topics: what a
    vocabulary must know before ``normalise`` maps them (``ingestion.loaders.skill_vocabulary_resolve``).

    With the process's ``vocabulary``, a skill label is read through its resolver first: a label that names known
    skills stands for their slugs (each skill's own alias), one that is no technology for nothing, so that neither
    makes a skill; without it, every label as written. Each label's resolution is put in ``resolved`` (by label as
    written), when given, for the chunk's vocabulary to answer ``normalise`` with (``SkillVocabulary.within``)."""
    skill_keys: set[str] = set()
    topic_keys: set[str] = set()
    new: dict[str, str] = {}  # near-identical form → the first new label's key: one new skill for both spellings
    if resolved is None:
        resolved = {}
    for doc in documents:
        tools = _platform_tools(doc)
        for entry in (*doc.skills, *doc.programming_languages):
            label = _read_as(entry.label, tools)
            if label is None:
                continue
            if vocabulary is None:
                skill_keys.add(label_key(label))
                continue
            result = resolved.get(label)
            if result is None:
                result = resolved[label] = vocabulary.resolve(label)
            if result.slugs:
                skill_keys.update(result.slugs)
            elif not result.not_technology:
                skill_keys.add(new.setdefault(near_form(result.key) or result.key, result.key))
        topic_keys.update(label_key(topic) for c in doc.contributions for topic in c.topics)
    return {key for key in skill_keys if usable(key)}, {key for key in topic_keys if usable(key)}


def canonical(key: str, vocabulary: SkillVocabulary) -> tuple[str, str]:
    """(slug, display name) of the skill a label key leads to; an unknown key leads to a new skill."""
    slug = vocabulary.slug_of(key)
    if slug is not None:
        return slug, slug
    return skill_slug(key), skill_display_name(key)


def _new_skill(key: str, vocabulary: SkillVocabulary) -> tuple[str, str]:
    """(slug, display name) of the skill a label that names no known skill leads to: the one its import chunk
    created for it, or for a near-identical spelling of it (``document_label_keys``), else a new one."""
    slug = vocabulary.own_slug_of(key)
    if slug is not None:
        return slug, slug
    return skill_slug(key), skill_display_name(key)


# How many of a file's labels that are no technology its warning names; the profile keeps them all.
_OTHER_SKILLS_NAMED = 10


def skills_of(
    doc: ProfileDocument, vocabulary: SkillVocabulary, warnings: list[str]
) -> tuple[list[NormalisedSkill], list[str]]:
    """The skills the labels name (``profiles.skill_resolver``), each once with its highest score and the label as
    written; and the labels that are no technology, as written, which the candidate keeps as text."""
    best: dict[str, NormalisedSkill] = {}  # canonical slug → the entry kept
    other: dict[str, str] = {}  # label key → as written
    sections = (
        (CandidateSkill.Section.SKILL, doc.skills),
        (CandidateSkill.Section.LANGUAGE, doc.programming_languages),
    )
    tools = _platform_tools(doc)
    for section, entries in sections:
        for entry in entries:
            read_as = _read_as(entry.label, tools)
            if read_as is None:  # a platform's tool beside no platform: no skill
                key = label_key(entry.label)
                other.setdefault(key, clip(Candidate, "other_skills", entry.label, warnings, "A skill label"))
                continue
            result = vocabulary.resolve(read_as)  # an import chunk's vocabulary has read every label already
            key = result.key
            if not key:
                continue
            if not usable(key):
                warnings.append(
                    f"A skill label of {len(entry.label)} characters is too long to name a skill; left out."
                )
                continue
            label = clip(CandidateSkill, "label", entry.label, warnings, "A skill label")
            if result.not_technology:
                other.setdefault(key, clip(Candidate, "other_skills", entry.label, warnings, "A skill label"))
                continue
            if result.warning:
                warnings.append(result.warning)
            # A known skill is created under its own slug if it went missing; a new one under the label's key.
            alias = key if result.how is _ALIAS else None
            targets = [(slug, slug, alias or slug) for slug in result.slugs] or [(*_new_skill(key, vocabulary), key)]
            for slug, name, alias in targets:
                kept = best.get(slug)
                if kept is None:
                    best[slug] = NormalisedSkill(
                        slug, name, Skill.Kind.SKILL, alias, label, entry.score, section.value, len(best)
                    )
                    continue
                if entry.score > kept.score:  # two labels of one skill: the higher score wins
                    best[slug] = dataclasses.replace(kept, label=label, score=entry.score, label_key=alias)
                warnings.append(
                    f"“{kept.label}” and “{label}” are the same skill ({slug}); kept the higher score, "
                    f"{max(kept.score, entry.score)}."
                )
    if other:
        named = ", ".join(f"“{label[:100]}”" for label in list(other.values())[:_OTHER_SKILLS_NAMED])
        more = f" and {len(other) - _OTHER_SKILLS_NAMED} more" if len(other) > _OTHER_SKILLS_NAMED else ""
        warnings.append(
            f"{len(other)} skill labels are no technology (soft skills, spoken languages, hobbies) and were kept on "
            f"the profile as written, not as skills: {named}{more}."
            if len(other) > 1
            else f"The skill label {named} is no technology; it was kept on the profile as written, not as a skill."
        )
    return list(best.values()), list(other.values())
