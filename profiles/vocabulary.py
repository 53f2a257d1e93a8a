"""The skill vocabulary: which canonical skills exist, and which labels lead to them. Pure, no database.

- ``SkillVocabulary``: label keys (``core.labels.label_key``) mapped to canonical skill slugs, and the words that split
  glued topic lines; the normaliser maps labels through it, the parsers split topics with its words. The database's
  copy is read by ``profiles.vocabulary_copy.skill_vocabulary``.
- How a label that no vocabulary knows becomes a skill: ``skill_slug`` and ``skill_display_name``.
- The curated vocabulary (``profiles/data/curated_skills.tsv``, read by ``read_curated``): the common skills with
  their display names and aliases, for a database seeded without the public vocabularies as much as with them.
- ``read_vocabulary``: the public vocabularies (GitHub topics and their aliases, GitHub Linguist languages) read from
  a folder laid out like ``shared/corpus/vocab``: ``github_topics_explore_defly.tsv`` (topic, display_name, aliases)
  and ``linguist_languages.tsv`` (name, type, aliases, ...).
"""

from __future__ import annotations

import csv
import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from django.utils.text import slugify

from core.labels import first_known, label_key
from profiles.skill_resolver import Resolution, resolver_for


# Cached: an import slugs every label of every file of a chunk again to say which files created a skill, and the
# same few thousand labels recur across chunks (Django's slugify normalises Unicode, the costly part).
@functools.lru_cache(maxsize=65_536)
def language_slug(name: str) -> str:
    """Slug of a language name that keeps C, C++ and C# apart (``c``, ``cpp``, ``csharp``)."""
    return slugify(name.lower().replace("++", "pp").replace("#", "sharp"))[:100] or "unnamed"


def skill_slug(label_key: str) -> str:
    return language_slug(label_key)


def skill_display_name(label: str) -> str:
    return label.strip().replace("-", " ").strip()[:200] or label


def _split(aliases: str | None) -> list[str]:
    return [key for a in (aliases or "").split(",") if (key := label_key(a))]


CURATED_FILE = Path(__file__).resolve().parent / "data" / "curated_skills.tsv"
_KINDS = ("skill", "language", "topic")  # Skill.Kind's values (the models are not imported here)


def read_curated(path: Path) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """The curated skills (slug → (display name, kind)) and their aliases (label key → slug) of a table laid out like
    ``profiles/data/curated_skills.tsv``. A label listed for two skills, or an alias that is another curated skill's
    slug, is refused: either would merge two skills nobody meant to merge."""
    skills: dict[str, tuple[str, str]] = {}
    aliases: dict[str, str] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if line.strip() and not line.startswith("#")]
    for number, row in enumerate(csv.DictReader(lines, delimiter="\t"), start=1):
        slug, name, kind = row["slug"].strip(), row["name"].strip(), row["kind"].strip()
        if slug != skill_slug(slug) or not name or kind not in _KINDS or slug in skills:
            raise ValueError(f"{path.name}, skill {number} ({slug!r}): a slug, a name and a kind, each slug once")
        skills[slug] = (name, kind)
        for alias in _split(row.get("aliases")):
            if aliases.setdefault(alias, slug) != slug:
                raise ValueError(f"{path.name}: {alias!r} is listed for {aliases[alias]} and {slug}")
    if taken := sorted(alias for alias, slug in aliases.items() if alias in skills and alias != slug):
        raise ValueError(f"{path.name}: {', '.join(taken)} are curated skills and aliases of another")
    return skills, {alias: slug for alias, slug in aliases.items() if alias != slug}


# The project's own vocabulary (profiles/data/curated_skills.tsv): the common skills with their display names, and the
# labels files write for them. It is seeded with or without the public vocabularies (migrations 0002 and 0019,
# ``seed_skills``), and where it names a label it wins over them: its names, its slugs and its aliases.
CURATED_SKILLS, CURATED_ALIASES = read_curated(CURATED_FILE)
CURATED_LABELS: dict[str, str] = {slug: slug for slug in CURATED_SKILLS} | CURATED_ALIASES  # label key → slug


@dataclass(frozen=True, slots=True)
class SkillVocabulary:
    """Label keys mapped to canonical skill slugs (every alias; seeded and created skills have their slug as an
    alias too), and the words known to the topic splitter (the aliases and the slugs)."""

    slugs: Mapping[str, str] = field(default_factory=dict)
    words: frozenset[str] = frozenset()
    # The process's whole vocabulary, when this copy holds only the labels of one import chunk as the database has
    # them now (``ingestion.services``): the resolver's rules search the whole one.
    base: SkillVocabulary | None = field(default=None, compare=False, repr=False)
    # What ``resolve`` answers, by label as written, for the labels an import chunk read before its skills were
    # created (``ingestion.normalise.document_label_keys``), already in this copy's slugs: a chunk reads a label once.
    resolved: Mapping[str, Resolution] = field(default_factory=dict, compare=False, repr=False)

    def resolve(self, label: str) -> Resolution:
        """What ``label`` names (``profiles.skill_resolver``), against ``base`` when there is one, else this copy.
        A known skill's slug is then the one this copy has for it (a skill merged since leads to the one kept)."""
        known = self.resolved.get(label)
        if known is not None:
            return known
        return self._current(resolver_for(self.base or self).resolve(label))

    def _current(self, result: Resolution) -> Resolution:
        """``result`` with each known skill's slug as this copy has it, when this copy resolves against a base."""
        if self.base is None or not result.slugs:
            return result
        current = tuple(dict.fromkeys(self.slugs.get(slug, slug) for slug in result.slugs))
        return result if current == result.slugs else dataclasses.replace(result, slugs=current)

    def own_slug_of(self, key: str) -> str | None:
        """The skill this copy's own labels give ``key``: as written, in an equivalent form, or near-identical (a
        label another file of the same import chunk made a new skill of: "reduxtoolkit" for "redux-toolkit")."""
        return resolver_for(self).slug_of(key)

    def within(self, base: SkillVocabulary, resolved: Mapping[str, Resolution] | None = None) -> SkillVocabulary:
        """This copy, resolving against ``base``; ``resolved`` is what ``base`` answered for labels already read
        (by label as written), which this copy answers again without reading them (in its own slugs)."""
        copy = dataclasses.replace(self, base=base)
        if not resolved:
            return copy
        return dataclasses.replace(copy, resolved={label: copy._current(r) for label, r in resolved.items()})

    def slug_of(self, key: str) -> str | None:
        """The skill of ``key``: its own alias, else the first of its equivalent forms that is one
        (``core.labels.first_known``: "vue-3" and "angular-2+" lead where "vue" and "angular" do). The resolver's
        steps past this one (qualifiers, near-identical spellings, phrases) are ``resolve``'s and ``own_slug_of``'s."""
        return first_known(self.slugs, key)


# Same technology, two entries: a Linguist language that GitHub's topics already name under another slug. The
# language's names and aliases lead to the topic's skill (which becomes a language), instead of a second skill.
CURATED_SAME_SKILL: dict[str, str] = {
    "webassembly": "web-assembly",
    "common-workflow-language": "cwl",
    "raku": "perl6",  # Perl 6 was renamed Raku in 2019
}

# Why a curated alias overrides what a public vocabulary says of the same label (the vocabulary audit test asks for a
# reason whenever the files name a label for another skill, or one of another kind).
CURATED_REASONS: dict[str, str] = {
    "node": "Node.js, the runtime; Linguist lists 'node' as an alias of the JavaScript language",
    "bash": "Bash, a shell and language of its own (a GitHub topic); Linguist lists 'bash' under its Shell language",
}

# Where a label's claim comes from, strongest first: a curated alias, a skill's own slug or name, a topic's alias,
# a Linguist alias. A public alias never takes a label that is another skill's own name (Linguist's Jinja claims
# "django"; Django is a framework of its own): that is the rule, and the audit test holds every seeded label to it.
OWN_NAME = "name"
TOPIC_ALIAS = "topic-alias"
LINGUIST_ALIAS = "linguist-alias"
_STRENGTH = {OWN_NAME: 0, TOPIC_ALIAS: 1, LINGUIST_ALIAS: 2}


@dataclass(frozen=True, slots=True)
class Claim:
    label: str  # a label key
    slug: str
    source: str  # OWN_NAME, TOPIC_ALIAS or LINGUIST_ALIAS


@dataclass(slots=True)
class Vocabulary:
    skills: list[tuple[str, str, str]] = field(default_factory=list)  # (slug, display name, kind)
    aliases: list[tuple[str, str]] = field(default_factory=list)  # (label, slug): one slug per label, decided
    claims: list[Claim] = field(default_factory=list)  # what the files say, before deciding


@dataclass(frozen=True, slots=True)
class Contest:
    """A label the files name for more than one skill, and how it was decided (``reason`` is None when no rule or
    curated entry decides it: the audit test fails on those)."""

    label: str
    slug: str  # the winner
    others: tuple[str, ...]
    reason: str | None


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def read_vocabulary(vocab_dir: Path) -> Vocabulary:
    """The public vocabularies' skills, and each label decided to one skill (``decide_claims``)."""
    vocab = Vocabulary()
    kinds: dict[str, str] = {}
    claims = vocab.claims

    def skill(slug: str, name: str, kind: str) -> None:
        vocab.skills.append((slug, name, kind))
        claims.extend([Claim(slug, slug, OWN_NAME), Claim(label_key(name), slug, OWN_NAME)])
        kinds[slug] = kind

    topics_file = vocab_dir / "github_topics.txt"  # topic names alone, when the richer TSV is absent
    if topics_file.is_file() and not (vocab_dir / "github_topics_explore_defly.tsv").is_file():
        for line in topics_file.read_text(encoding="utf-8").splitlines():
            if (slug := label_key(line)) and not slug.startswith("#"):
                skill(slug, slug, "topic")
    for row in _rows(vocab_dir / "github_topics_explore_defly.tsv"):
        slug = row["topic"].strip()
        skill(slug, row["display_name"].strip() or slug, "topic")
        claims.extend(Claim(a, slug, TOPIC_ALIAS) for a in _split(row.get("aliases")))
    for row in _rows(vocab_dir / "github_topic_aliases.tsv"):
        claims.extend(Claim(a, row["topic"].strip(), TOPIC_ALIAS) for a in _split(row["alias"]))
    for row in _rows(vocab_dir / "linguist_languages.tsv"):
        name = row["name"].strip()
        own = language_slug(name)
        slug = CURATED_SAME_SKILL.get(own, own)
        kind = "language" if row.get("type") == "programming" else "skill"
        skill(slug, name, kind)
        if slug != own:
            claims.append(Claim(own, slug, OWN_NAME))
        claims.extend(Claim(a, slug, LINGUIST_ALIAS) for a in _split(row.get("aliases")))
    vocab.aliases = list(decide_claims(claims).items())
    return vocab


def decide_claims(claims: list[Claim]) -> dict[str, str]:
    """One skill per label: the curated table's (a curated skill's slug or alias), else the strongest claim (a
    skill's own name before a topic's alias before a Linguist alias), the first of equals."""
    decided: dict[str, tuple[int, str]] = {}
    for claim in claims:
        strength = _STRENGTH[claim.source]
        if claim.label and (claim.label not in decided or strength < decided[claim.label][0]):
            decided[claim.label] = (strength, claim.slug)
    return {label: CURATED_LABELS.get(label, slug) for label, (_, slug) in decided.items()}


def contested_labels(vocab: Vocabulary) -> list[Contest]:
    """Every label the files name for two skills or more (the curated table counting as one of them), with the
    winner and why it wins."""
    by_label: dict[str, list[Claim]] = {}
    for claim in vocab.claims:
        by_label.setdefault(claim.label, []).append(claim)
    decided = decide_claims(vocab.claims)
    contests = []
    for label, claims in sorted(by_label.items()):
        slugs = dict.fromkeys(
            [*(c.slug for c in claims), *([CURATED_LABELS[label]] if label in CURATED_LABELS else [])]
        )
        if len(slugs) < 2:
            continue
        winner = decided[label]
        own = {c.slug for c in claims if c.source == OWN_NAME}
        if own == {winner}:  # the curated table agreeing, or silent
            reason = f"'{label}' is the name of {winner}: a public alias does not take another skill's name"
        else:  # a curated entry that overrides the files, or a contest of public aliases
            reason = CURATED_REASONS.get(label)
        contests.append(Contest(label, winner, tuple(s for s in slugs if s != winner), reason))
    return contests


def seeded_vocabulary(vocab: Vocabulary) -> SkillVocabulary:
    """The vocabulary ``seed_skills`` gives an empty database from these files: the curated aliases first, then the
    files' decided aliases (what the audit test resolves labels through, without a database)."""
    slugs = dict(CURATED_LABELS)
    for label, slug in vocab.aliases:
        slugs.setdefault(label, slug)
    for slug, _, _ in vocab.skills:
        slugs.setdefault(slug, slug)
    return SkillVocabulary(slugs=slugs, words=frozenset(slugs))
