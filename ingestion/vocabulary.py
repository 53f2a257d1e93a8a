"""The known skill/topic vocabulary as label keys, read from a vocab folder laid out like shared/corpus/vocab.

Pure file reading (``profiles.vocabulary``, which also seeds the skill table): no database, no network. At run time
the parsers get the vocabulary the database has learnt (``profiles.vocabulary_copy.skill_vocabulary``); this is the
same set straight from the files, for tests and tools that run without a database.
"""

from __future__ import annotations

from pathlib import Path

from core.labels import label_key
from profiles.vocabulary import read_vocabulary

__all__ = ["vocabulary_from_files"]


def vocabulary_from_files(vocab_dir: Path) -> frozenset[str]:
    """Label keys of GitHub topics and their aliases and of Linguist languages and their aliases."""
    vocab_dir = Path(vocab_dir)
    if not vocab_dir.is_dir():
        return frozenset()
    vocab = read_vocabulary(vocab_dir)
    words = {label_key(label) for label, _ in vocab.aliases}
    words.update(label_key(slug) for _, slug in vocab.aliases)
    words.update(label_key(slug) for slug, _, _ in vocab.skills)
    words.discard("")
    return frozenset(words)
