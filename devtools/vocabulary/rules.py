"""The build's own rules (``devtools/vocabulary/rules/``), written for this project, and what a common English word
is (the pinned wordsegment package's word counts, from a web corpus).

- ``generic.txt``: programming and English words that are no technology (arrays, string, forms, testing, ...).
- ``keep.txt``: technologies the filters would leave out: common words that name one (spring, express, swift),
  compounds of common words (visual-studio, google-maps) and tags below the question threshold (looker, mockk).
- ``context.txt``: labels that need a technical context whatever their frequency (eq, cadence, ...).
- ``clear.txt``: common words that name their technology wherever a job post or a CV writes them (python, java).
- ``names.tsv``: display names that no list spells and readable casing gets wrong (RxJava, SageMaker, PostGIS).

The word lists are words separated by white space, with "#" comments.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass
from pathlib import Path

import wordsegment

RULES_DIR = Path(__file__).resolve().parent / "rules"
# The most frequent English words by this rank are common words: "spring", "forms", "sorting" (about 10,000th),
# "jenkins"; below it are names and jargon ("kubernetes" is not ranked, "postgis" is 57,000th).
COMMON_WORD_RANK = 20_000


def read_words(path: Path) -> frozenset[str]:
    words = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        words.update(line.partition("#")[0].split())
    return frozenset(words)


@functools.cache
def word_ranks() -> dict[str, int]:
    """Each word of wordsegment's unigram counts and its rank, most frequent first (ties by the word)."""
    wordsegment.load()
    ordered = sorted(wordsegment.UNIGRAMS.items(), key=lambda item: (-item[1], item[0]))
    return {word: rank for rank, (word, _) in enumerate(ordered)}


@dataclass(frozen=True, slots=True)
class Rules:
    generic: frozenset[str]
    keep: frozenset[str]
    context: frozenset[str]
    clear: frozenset[str]
    names: dict[str, str]

    @classmethod
    def read(cls, folder: Path = RULES_DIR) -> Rules:
        with (folder / "names.tsv").open(encoding="utf-8", newline="") as handle:
            lines = [line for line in handle if line.strip() and not line.startswith("#")]
        return cls(
            generic=read_words(folder / "generic.txt"),
            keep=read_words(folder / "keep.txt"),
            context=read_words(folder / "context.txt"),
            clear=read_words(folder / "clear.txt"),
            names={row["label"]: row["name"] for row in csv.DictReader(lines, delimiter="\t")},
        )

    def is_common_word(self, word: str, rank: int = COMMON_WORD_RANK) -> bool:
        return word_ranks().get(word, rank) < rank
