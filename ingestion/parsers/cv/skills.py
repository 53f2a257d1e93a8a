"""A CV's skills as labels with scores: those its skills section lists, and the technologies its positions name.

A CV holds no evidence of use such as Prog.AI's GitHub-derived 0-10 scores, only what the person says. So its scores
sit in the middle of the scale, where they rank below strong GitHub evidence and above none, and follow two rules:

- by section: a skill the skills section lists scores 5; a technology only named in a position's text (a mention)
  scores 2: listing a skill is a claim, naming it in passing is weaker;
- by recency: a skill named in a position gains 2 when that position is current (it runs to the import day) or ended
  at most 2 years before the import day, 1 when at most 5 years before, 0 when older or undated. The import day is
  ``today``, which the caller gives (the registry: the parser reads no clock); a caller that gives none counts back
  from the CV's newest date instead.

So a listed skill scores 5 to 7, a mention 2 to 4: a mention never outranks a listed skill. The labels are kept as
written; which skill each names is the shared resolver's business (``profiles.skill_resolver``, in the normaliser).
A mention is a word or phrase of a position's text that the vocabulary knows as a skill's label and that is written
as a name (capitalised within a sentence, or with a digit or a symbol: "Kafka", "PostgreSQL", "C++", "S3"), so that
common words that happen to be topics ("team", "release") are not taken for skills.
"""

from __future__ import annotations

import datetime as dt
import re

from core.labels import label_key
from ingestion.documents import PositionEntry, SkillEntry
from ingestion.parsers.cv.sections import plain

__all__ = ["LISTED_SCORE", "MAX_LISTED", "MENTION_SCORE", "cv_skills", "listed_labels"]

LISTED_SCORE = 5
# A CV lists a few dozen skills; past this many, the section is no list of skills a person has (a pasted glossary),
# and the rest are left out: every position's text is matched against the labels listed.
MAX_LISTED = 300
MENTION_SCORE = 2
_RECENT_MONTHS = 24
_LESS_RECENT_MONTHS = 60
_MAX_LABEL_CHARS = 40
_MAX_LABEL_WORDS = 4
_ITEM_SPLIT_RE = re.compile(r"\s*[,;|·•▪/]\s+|\s*[,;|·•▪]\s*|\s+[-–—]\s+|\t+|\s{3,}")
_CATEGORY_RE = re.compile(r"^([^:]{1,40}):\s*(.+)$")
_LEVEL_RE = re.compile(r"\s*[(\[][^()\[\]]{0,40}[)\]]\s*$")
_WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#.\-]*[A-Za-z0-9+#]|[A-Za-z0-9]")
_NAME_LIKE_RE = re.compile(r"[A-Z0-9+#.]")


def listed_labels(lines: list[str]) -> list[tuple[str, str]]:
    """(label, category) of each skill the section lists: split at commas, bullets and separators; "Category: a, b"
    gives its items that category; a level in brackets ("Go (expert)") goes; sentences are no labels."""
    found: dict[str, tuple[str, str]] = {}
    for line in map(plain, lines):
        category, items = "", line
        if m := _CATEGORY_RE.match(line):
            category, items = m.group(1).strip(), m.group(2)
        for item in _ITEM_SPLIT_RE.split(items):
            label = _LEVEL_RE.sub("", item).strip(" .:*-")
            if not label or len(label) > _MAX_LABEL_CHARS or len(label.split()) > _MAX_LABEL_WORDS:
                continue
            found.setdefault(label_key(label), (label, category))
            if len(found) >= MAX_LISTED:
                return list(found.values())
    return list(found.values())


def _months(month: str | None) -> int | None:
    return int(month[:4]) * 12 + int(month[5:7]) if month else None


def _recency(position: PositionEntry, now: int | None) -> int:
    """The bonus of a skill the position names: a current position ends ``now``; an end after ``now`` (a contract's
    planned end) is as recent as ``now``."""
    if position.is_current:
        return 2
    end = _months(position.end) or _months(position.start)
    if end is None or now is None:
        return 0
    if now - end <= _RECENT_MONTHS:
        return 2
    return 1 if now - end <= _LESS_RECENT_MONTHS else 0


def _now(positions: list[PositionEntry], today: dt.date | None) -> int | None:
    """The month recency counts back from: the import day's, else the CV's newest date (a current position has none
    of its own, so it cannot stand for the import day)."""
    if today is not None:
        return today.year * 12 + today.month
    dated = [m for p in positions for m in (_months(p.end), _months(p.start)) if m is not None]
    return max(dated) if dated else None


def _mentions(position: PositionEntry, vocabulary: frozenset[str]) -> dict[str, str]:
    """{label key: label} of the vocabulary's skills the position's text names (see the module's docstring)."""
    found: dict[str, str] = {}
    if not vocabulary:
        return found
    for text in [position.summary, *position.highlights]:
        words = [(m.group(0), m.start()) for m in _WORD_RE.finditer(text)]
        for index, (word, start) in enumerate(words):
            if not _NAME_LIKE_RE.search(word):
                continue  # a phrase written as a name starts with a word written as one
            for size in (3, 2, 1):
                phrase_words = words[index : index + size]
                if len(phrase_words) < size:
                    continue
                phrase = text[start : phrase_words[-1][1] + len(phrase_words[-1][0])]
                key = label_key(phrase)
                if key in vocabulary and _written_as_name(phrase, at_start=start == 0):
                    found.setdefault(key, phrase)
                    break
    return found


def _written_as_name(phrase: str, *, at_start: bool) -> bool:
    if any(not char.isalpha() for char in phrase.replace(" ", "")):
        return True  # a digit or a symbol: C++, S3, Node.js
    capitals = [char for char in phrase if char.isupper()]
    if not capitals:
        return False
    return not at_start or len(capitals) > 1  # "Built" starting a sentence is no name; "PostgreSQL" is


def cv_skills(
    listed: list[tuple[str, str]],
    positions: list[PositionEntry],
    vocabulary: frozenset[str],
    *,
    today: dt.date | None = None,
) -> list[SkillEntry]:
    """The listed skills, then the mentions that are not listed, each scored by the rules of the module; ``today``
    is the import day."""
    now = _now(positions, today)
    best_recency: dict[str, int] = {}
    mentioned: dict[str, str] = {}
    listed_pattern = _labels_pattern([label for label, _ in listed])
    for position in positions:
        recency = _recency(position, now)
        named = dict(_mentions(position, vocabulary))
        if listed_pattern:  # a listed skill named in the position's text, whatever its case there
            for text in [position.summary, *position.highlights]:
                named.update((label_key(m.group(0)), m.group(0)) for m in listed_pattern.finditer(text))
        for key, label in named.items():
            mentioned.setdefault(key, label)
            best_recency[key] = max(best_recency.get(key, 0), recency)
    skills = [
        SkillEntry(label=label, score=LISTED_SCORE + best_recency.get(label_key(label), 0), category=category)
        for label, category in listed
    ]
    listed_keys = {label_key(label) for label, _ in listed}
    skills += [
        SkillEntry(label=label, score=MENTION_SCORE + best_recency[key])
        for key, label in mentioned.items()
        if key not in listed_keys
    ]
    return skills


def _labels_pattern(labels: list[str]) -> re.Pattern | None:
    """One pattern for every listed label, as a whole word, longest first: each position's text is scanned once."""
    if not labels:
        return None
    alternatives = "|".join(re.escape(label) for label in sorted(labels, key=len, reverse=True))
    return re.compile(r"(?<![\w+#.])(?:" + alternatives + r")(?![\w+#])", re.IGNORECASE)
