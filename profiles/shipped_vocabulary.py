"""The vocabulary that ships with the product (``profiles/data/vocabulary.tsv``). Pure, no database.

Several thousand technologies with their display names and aliases, built from openly licensed lists (GitHub topics,
GitHub Linguist's languages, the most used Stack Overflow tags) and the curated table by
``manage.py build_vocabulary`` (``devtools.vocabulary``); ``docs/vocabulary.md`` says how. Each label is decided to
one skill when the table is built, and the curated table's decisions are already in it, so reading it needs no rule.

- ``read_shipped``: the table as a ``profiles.vocabulary.Vocabulary`` (skills and aliases), what ``seed_skills`` and
  the seeding migration load.
- ``ambiguous_labels``: the label keys that are also common English words ("go", "less", "spring", "eq"), which name
  a skill only where the text around them is technical.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass
from pathlib import Path

from core.labels import label_key
from profiles.vocabulary import Vocabulary

SHIPPED_FILE = Path(__file__).resolve().parent / "data" / "vocabulary.tsv"
COLUMNS = ("slug", "name", "kind", "aliases", "needs_context", "sources")


@dataclass(frozen=True, slots=True)
class ShippedSkill:
    slug: str
    name: str
    kind: str  # Skill.Kind's values: skill, language, topic
    aliases: tuple[str, ...]  # label keys that lead to it, its slug left out
    needs_context: tuple[str, ...]  # those of its labels (slug included) that are common words
    sources: tuple[str, ...]  # where it comes from: curated, github-topics, linguist, stackoverflow


def _labels(cell: str) -> tuple[str, ...]:
    return tuple(label for label in cell.split(",") if label)


def read_rows(path: Path = SHIPPED_FILE) -> list[ShippedSkill]:
    """The table's skills, in its order. Lines starting with "#" are its header notes."""
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    rows = []
    for number, row in enumerate(csv.DictReader(lines, delimiter="\t"), start=1):
        if list(row) != list(COLUMNS) or None in row.values():
            raise ValueError(f"{path.name}, skill {number}: the columns are {', '.join(COLUMNS)}")
        rows.append(
            ShippedSkill(
                slug=row["slug"],
                name=row["name"],
                kind=row["kind"],
                aliases=_labels(row["aliases"]),
                needs_context=_labels(row["needs_context"]),
                sources=_labels(row["sources"]),
            )
        )
    return rows


def read_shipped(path: Path = SHIPPED_FILE) -> Vocabulary:
    """The shipped skills ``(slug, name, kind)`` and aliases ``(label, slug)``, each label once (the build decided
    it); a skill's slug and the key of its name lead to it as well."""
    vocab = Vocabulary()
    seen: dict[str, str] = {}
    for skill in read_rows(path):
        vocab.skills.append((skill.slug, skill.name, skill.kind))
        for label in (skill.slug, label_key(skill.name), *skill.aliases):
            if label and label not in seen:
                seen[label] = skill.slug
                vocab.aliases.append((label, skill.slug))
    return vocab


@functools.cache
def ambiguous_labels() -> frozenset[str]:
    """The label keys (``core.labels.label_key``) of the shipped vocabulary that are also common words or single
    letters: "go", "r", "c", "less", "basic", "cadence", "support", "eq", "spring", "express", "swift", ...

    Such a label names its skill when a file lists it as a skill, but read from free text (a job post, a summary) it
    names the skill only in a technical context; elsewhere it is the word. Read once per process."""
    return frozenset(label for skill in read_rows() for label in skill.needs_context)
