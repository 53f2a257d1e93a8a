"""The skill vocabulary: which canonical skills exist, and which labels lead to them. Pure, no database.

- ``SkillVocabulary``: label keys (``core.labels.label_key``) mapped to canonical skill slugs, and the words that split
  glued topic lines; the normaliser maps labels through it, the parsers split topics with its words. The database's
  copy is read by ``profiles.selectors.skill_vocabulary``.
- How a label that no vocabulary knows becomes a skill: ``skill_slug`` and ``skill_display_name``.
- The curated aliases: labels seen in profile files that the public vocabularies do not map.
- ``read_vocabulary``: the public vocabularies (GitHub topics and their aliases, GitHub Linguist languages) read from
  a folder laid out like ``shared/corpus/vocab``: ``github_topics_explore_defly.tsv`` (topic, display_name, aliases)
  and ``linguist_languages.tsv`` (name, type, aliases, ...).
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from django.utils.text import slugify

# Curated aliases: labels seen in profile files that the public vocabularies do not map (label → canonical slug).
CURATED_ALIASES: dict[str, str] = {
    "c-language": "c",
    "cprogramming-language": "c",
    "c-programming": "c",
    "c-programming-language": "c",
    "clang": "c",
    "c-plus-plus": "cpp",
    "cplusplus": "cpp",
    "c++": "cpp",
    "c#": "csharp",
    "c-sharp": "csharp",
    "golang": "go",
    "go-lang": "go",
    "python3": "python",
    "python-3": "python",
    "py": "python",
    "js": "javascript",
    "ecmascript": "javascript",
    "ts": "typescript",
    "reactjs": "react",
    "react-js": "react",
    "vuejs": "vue",
    "vue-js": "vue",
    "nodejs": "nodejs",
    "node-js": "nodejs",
    "node": "nodejs",
    "k8s": "kubernetes",
    "postgres": "postgresql",
    "psql": "postgresql",
    "ml": "machine-learning",
    "dl": "deep-learning",
    "tf": "tensorflow",
    "html5": "html",
    "css3": "css",
    "dataflow": "dataflow",
    "analyse": "analysis",
    "analyze": "analysis",
}

# Canonical skills the curated aliases point at, in case no vocabulary seeded them.
CURATED_SKILLS: dict[str, tuple[str, str]] = {
    "c": ("C", "language"),
    "cpp": ("C++", "language"),
    "csharp": ("C#", "language"),
    "go": ("Go", "language"),
    "python": ("Python", "language"),
    "javascript": ("JavaScript", "language"),
    "typescript": ("TypeScript", "language"),
    "html": ("HTML", "language"),
    "css": ("CSS", "language"),
    "react": ("React", "skill"),
    "vue": ("Vue.js", "skill"),
    "nodejs": ("Node.js", "skill"),
    "kubernetes": ("Kubernetes", "skill"),
    "postgresql": ("PostgreSQL", "skill"),
    "machine-learning": ("Machine learning", "topic"),
    "deep-learning": ("Deep learning", "topic"),
    "tensorflow": ("TensorFlow", "skill"),
    "dataflow": ("Dataflow", "skill"),
    "analysis": ("Analysis", "skill"),
}


def language_slug(name: str) -> str:
    """Slug of a language name that keeps C, C++ and C# apart (``c``, ``cpp``, ``csharp``)."""
    return slugify(name.lower().replace("++", "pp").replace("#", "sharp"))[:100] or "unnamed"


def skill_slug(label_key: str) -> str:
    return language_slug(label_key)


def skill_display_name(label: str) -> str:
    return label.strip().replace("-", " ").strip()[:200] or label


@dataclass(frozen=True, slots=True)
class SkillVocabulary:
    """Label keys mapped to canonical skill slugs (every alias; seeded and created skills have their slug as an
    alias too), and the words known to the topic splitter (the aliases and the slugs)."""

    slugs: Mapping[str, str] = field(default_factory=dict)
    words: frozenset[str] = frozenset()

    def slug_of(self, key: str) -> str | None:
        return self.slugs.get(key)


@dataclass(slots=True)
class Vocabulary:
    skills: list[tuple[str, str, str]] = field(default_factory=list)  # (slug, display name, kind)
    aliases: list[tuple[str, str]] = field(default_factory=list)  # (label, slug)


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _label(text: str) -> str:
    return "-".join(text.strip().lower().split())


def read_vocabulary(vocab_dir: Path) -> Vocabulary:
    vocab = Vocabulary()
    topics_file = vocab_dir / "github_topics.txt"  # topic names alone, when the richer TSV is absent
    if topics_file.is_file() and not (vocab_dir / "github_topics_explore_defly.tsv").is_file():
        for line in topics_file.read_text(encoding="utf-8").splitlines():
            if (slug := _label(line)) and not slug.startswith("#"):
                vocab.skills.append((slug, slug, "topic"))
                vocab.aliases.append((slug, slug))
    for row in _rows(vocab_dir / "github_topics_explore_defly.tsv"):
        slug = row["topic"].strip()
        vocab.skills.append((slug, row["display_name"].strip() or slug, "topic"))
        vocab.aliases.append((slug, slug))
        vocab.aliases.extend((_label(a), slug) for a in (row.get("aliases") or "").split(",") if a.strip())
    for row in _rows(vocab_dir / "github_topic_aliases.tsv"):
        vocab.aliases.append((_label(row["alias"]), row["topic"].strip()))
    for row in _rows(vocab_dir / "linguist_languages.tsv"):
        name = row["name"].strip()
        slug = language_slug(name)
        vocab.skills.append((slug, name, "language" if row.get("type") == "programming" else "skill"))
        vocab.aliases.extend([(_label(name), slug), (slug, slug)])
        vocab.aliases.extend((_label(a), slug) for a in (row.get("aliases") or "").split(",") if a.strip())
    return vocab
