"""How the build names a skill that no list names, and which labels need a technical context."""

from __future__ import annotations

from collections.abc import Mapping

import wordsegment

from core.labels import label_key
from devtools.vocabulary.rules import Rules

# Pieces of a glued name are read as words when each is at least this common ("codeigniter" is code + igniter).
PIECE_WORD_RANK = 100_000


class _Named:  # what the naming reads of a skill (the build's own _Skill)
    name: str


def _known_name(part: str, skills: Mapping[str, _Named], labels: Mapping[str, str]) -> str | None:
    """The display name of the skill whose name is ``part`` ("mysql" is MySQL, "ios" is iOS), if there is one."""
    slug = labels.get(part)
    if slug is not None and label_key(skills[slug].name) == part:
        return skills[slug].name
    return None


def _part_name(part: str, skills: Mapping[str, _Named], labels: Mapping[str, str], rules: Rules) -> str:
    if part in rules.names:
        return rules.names[part]
    if (known := _known_name(part, skills, labels)) is not None:
        return known
    if part.isalpha() and len(part) <= 3:
        return part.upper()  # an acronym: SQL, JPA, GCC, SSH
    if part.isalpha() and len(part) > 5 and not rules.is_common_word(part):
        pieces = wordsegment.segment(part)
        if len(pieces) > 1 and all(
            len(p) >= 2 and (p in labels or rules.is_common_word(p, PIECE_WORD_RANK)) for p in pieces
        ):
            return "".join(
                _known_name(p, skills, labels) or (p.upper() if len(p) == 2 else p.capitalize()) for p in pieces
            )
    return part[:1].upper() + part[1:]


def display_name(key: str, skills: Mapping[str, _Named], labels: Mapping[str, str], rules: Rules) -> str:
    """A readable name for a tag: the rules' name for it, else each part's ("spring-security" is Spring Security,
    "codeigniter" is CodeIgniter, "jpa" is JPA)."""
    if key in rules.names:
        return rules.names[key]
    return " ".join(_part_name(part, skills, labels, rules) for part in key.split("-") if part)


def needs_context(label: str, rules: Rules) -> bool:
    """Whether a label names its skill in free text only with a technical context: a single letter ("r", "c"), a
    word the rules name ("eq", "cadence"), or a common English word the rules do not call clear ("go", "less",
    "spring", "express"; not "python")."""
    if label in rules.context:
        return True
    if not label.isalpha() or label in rules.clear:
        return False
    return len(label) == 1 or rules.is_common_word(label)
