"""Skills that look like one technology: "vue" and "vuejs", "grunt" and "gruntjs", "travis" and "travis-ci",
"reduxtoolkit" and "redux-toolkit", "node" and "node-js". Imports create such twins when files spell a technology in a
way no alias knew yet; a curator merges them, from the admin's "Look-alike skills" page
(``profiles.skill_curation.skill_pairs_merge``) or after reading ``manage.py skills_audit``.

Reads only: ``skill_pairs`` finds them, each with the skill it should become (the ``target``); the merge is the
services'. Two skills are a pair when their slugs have the same ``technology_key`` and the vocabulary (curated or
shipped) holds at most one of them.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from profiles.models import CandidateSkill, Skill
from profiles.shipped_vocabulary import read_shipped
from profiles.vocabulary import CURATED_SKILLS

# "-ci" only as a word of its own ("travis-ci", "gitlab.ci"): "circleci" is one word, not "circle" with a suffix.
_CI_SUFFIX_RE = re.compile(r"[\s._-]ci$")
# What a slug may spell with or without: separators and dots. "+" and "#" stay: "c++" and "c#" are not "c".
_SEPARATORS_RE = re.compile(r"[^a-z0-9+#]")
# A "js" suffix is dropped only where at least this much is left: "ejs" is a template engine, not the E language.
_MIN_KEY_WITHOUT_JS = 2


def technology_key(slug: str) -> str:
    """What is left of a skill's slug once case, punctuation, a ``js`` / ``.js`` suffix and a ``-ci`` suffix are
    set aside: "Vue.js", "vuejs" and "vue" are all "vue"."""
    key = _CI_SUFFIX_RE.sub("", slug.lower().strip())
    key = _SEPARATORS_RE.sub("", key)
    if key.endswith("js") and len(key) - 2 >= _MIN_KEY_WITHOUT_JS:
        key = key[:-2]
    return key


@dataclass(frozen=True, slots=True)
class PairedSkill:
    id: int
    slug: str
    name: str
    candidates: int  # how many candidates have it
    in_vocabulary: bool  # curated or shipped: the spelling the product chose


@dataclass(frozen=True, slots=True)
class SkillPair:
    """Two skills that look like one technology: ``source`` would be merged into ``target``."""

    source: PairedSkill
    target: PairedSkill

    @property
    def value(self) -> str:
        """The pair as a form's choice: "source id-target id"."""
        return f"{self.source.id}-{self.target.id}"


@functools.cache
def vocabulary_slugs() -> frozenset[str]:
    """The slugs of the curated and the shipped vocabulary (read once per process): where a pair has one of them,
    that one is the spelling to keep."""
    return frozenset(CURATED_SKILLS) | {slug for slug, _, _ in read_shipped().skills}


def _keeper_order(skill: PairedSkill) -> tuple:
    # The skill the others become: the vocabulary's spelling, then the most candidates, then the shorter slug.
    return (not skill.in_vocabulary, -skill.candidates, len(skill.slug), skill.slug)


def skill_pairs(*, preferred_slugs: frozenset[str] | None = None) -> list[SkillPair]:
    """Every pair of existing skills that look like one technology (``technology_key``), each skill paired with the
    one it should become: the one in ``preferred_slugs`` (default: ``vocabulary_slugs()``), else the one more
    candidates have. Three look-alikes make two pairs, both into the same target. Look-alikes of which two or more
    are in ``preferred_slugs`` make no pair: the vocabulary keeps them apart. The pairs with the most candidates to
    move come first.

    Two queries whatever the number of skills: the slugs, then the candidate counts of the skills that have a twin.
    """
    preferred = vocabulary_slugs() if preferred_slugs is None else preferred_slugs
    groups: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
    for row in Skill.objects.values_list("id", "slug", "name"):
        groups[technology_key(row[1])].append(row)
    twins = [rows for key, rows in groups.items() if key and len(rows) > 1]
    ids = [skill_id for rows in twins for skill_id, _, _ in rows]
    counts = dict(
        CandidateSkill.objects.filter(skill_id__in=ids)
        .values("skill_id")
        .annotate(n=Count("id"))
        .values_list("skill_id", "n")
    )
    pairs = []
    for rows in twins:
        skills = sorted(
            (PairedSkill(pk, slug, name, counts.get(pk, 0), slug in preferred) for pk, slug, name in rows),
            key=_keeper_order,
        )
        if sum(skill.in_vocabulary for skill in skills) > 1:
            # The vocabulary spells both on purpose (gitlab and gitlab-ci, fabric and fabricjs): not one technology,
            # and a third spelling could be either of them.
            continue
        target = skills[0]
        pairs += [SkillPair(source=source, target=target) for source in skills[1:]]
    return sorted(pairs, key=lambda p: (-p.source.candidates, -p.target.candidates, p.target.slug, p.source.slug))
