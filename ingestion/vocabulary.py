"""The known skill/topic vocabulary, read from a vocab folder laid out like shared/corpus/vocab.

Pure file reading: no database, no network.
"""

from __future__ import annotations

from pathlib import Path

from ingestion.normalise import label_key

__all__ = ["vocabulary_from_files"]


def _read_lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def _tsv_rows(path: Path) -> list[dict[str, str]]:
    lines = _read_lines(path)
    if not lines:
        return []
    header = [h.strip().lower() for h in lines[0].split("\t")]
    rows = []
    for line in lines[1:]:
        if line.strip():
            cells = line.split("\t")
            rows.append({h: (cells[i].strip() if i < len(cells) else "") for i, h in enumerate(header)})
    return rows


def vocabulary_from_files(vocab_dir: Path) -> frozenset[str]:
    """Label keys of GitHub topics and their aliases and of Linguist languages and their aliases.

    Reads github_topics.txt (one topic a line), github_topic_aliases.tsv (alias, topic), linguist_languages.tsv
    (name, ..., aliases as a comma-separated list) and, when present, programming_languages.txt and
    github_topics_explore_defly.tsv. Missing files are skipped; a missing folder gives an empty vocabulary.
    """
    vocab_dir = Path(vocab_dir)
    if not vocab_dir.is_dir():
        return frozenset()
    words: set[str] = set()
    for name in ("github_topics.txt", "programming_languages.txt"):
        words.update(label_key(line) for line in _read_lines(vocab_dir / name) if not line.startswith("#"))
    for row in _tsv_rows(vocab_dir / "github_topic_aliases.tsv"):
        words.add(label_key(row.get("alias", "")))
        words.add(label_key(row.get("topic", "")))
    for row in _tsv_rows(vocab_dir / "github_topics_explore_defly.tsv"):
        words.add(label_key(row.get("topic", "")))
        words.update(label_key(a) for a in row.get("aliases", "").split(","))
    for row in _tsv_rows(vocab_dir / "linguist_languages.tsv"):
        words.add(label_key(row.get("name", "")))
        words.update(label_key(a) for a in row.get("aliases", "").split(","))
    words.discard("")
    return frozenset(words)
