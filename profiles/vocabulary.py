"""Read the public vocabularies (GitHub topics and their aliases, GitHub Linguist languages) from a folder.

The folder is laid out like ``shared/corpus/vocab``: ``github_topics_explore_defly.tsv`` (topic, display_name,
aliases) and ``linguist_languages.tsv`` (name, type, aliases, ...). Pure file reading, no database.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from profiles.services import language_slug


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
