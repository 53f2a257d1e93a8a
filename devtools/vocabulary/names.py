"""How the build names a skill that no list names, and which labels need a technical context."""

from __future__ import annotations

from collections.abc import Mapping

import wordsegment

from core.labels import label_key
from devtools.vocabulary.rules import Rules

# Pieces of a glued name are read as words when each is at least this common ("codeigniter" is code + igniter).
PIECE_WORD_RANK = 100_000
# Words that join the parts of a name, lower-case inside it ("Ruby on Rails Plugins", "LINQ to SQL").
CONNECTORS = frozenset({"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "via"})
# Short parts are acronyms (JPA, SSH, IO), except these English words ("Actions on Google", "Web API", "App Store").
# fmt: off
SHORT_WORDS = frozenset({
    "a", "an", "and", "app", "add", "all", "any", "as", "at", "bar", "box", "by", "de", "end", "for", "get", "in", "is",
    "it", "key", "log", "map", "max", "min", "my", "new", "no", "non", "not", "of", "on", "one", "or", "our", "out",
    "per", "pop", "pre", "pro", "re", "row", "run", "set", "sub", "tab", "the", "to", "top", "two", "up", "use", "via",
    "web",
})
# fmt: on


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
    if part in SHORT_WORDS:
        return part.capitalize()
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
    parts = [part for part in key.split("-") if part]
    return " ".join(
        part if index and part in CONNECTORS else _part_name(part, skills, labels, rules)
        for index, part in enumerate(parts)
    )


def needs_context(label: str, rules: Rules) -> bool:
    """Whether a label names its skill in free text only with a technical context: a single letter ("r", "c"), a
    word the rules name ("eq", "cadence"), or a common English word the rules do not call clear ("go", "less",
    "spring", "express"; not "python")."""
    if label in rules.context:
        return True
    if not label.isalpha() or label in rules.clear:
        return False
    return len(label) == 1 or rules.is_common_word(label)
