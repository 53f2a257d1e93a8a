"""``skills[]``: skill labels split where they name several skills, group names, levels and keywords."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from core.labels import MAX_LABEL_CHARS, MAX_LABEL_PIECES, label_key, label_variants
from core.text import clean_text
from ingestion.documents import (
    SkillEntry,
)
from ingestion.parsers.jsonresume.levels import level_score
from ingestion.parsers.jsonresume.values import dicts_in, first_text, strings_in

# A skill label that names several skills is split (README, "Skills"): at commas and semicolons outside
# parentheses ("HTML5, HTML"; not "Python (Django, Flask)"), at a slash with spaces around it ("Frameworks /
# Libraries"), and at a bare slash only when every piece is a skill the vocabulary knows and the whole is not
# ("HTML/CSS", "React/Redux"). These names keep their slash whatever the vocabulary holds.
SLASHED_NAMES = frozenset(
    {
        "ci/cd", "tcp/ip", "pl/sql", "pl/pgsql", "a/b testing", "a/b", "i/o", "ui/ux", "ux/ui", "os/2", "pl/i",
        "as/400", "gnu/linux", "http/2", "http/3", "s/4hana", "pub/sub", "24/7", "client/server", "b2b/b2c",
    }
)  # fmt: skip
_LIST_SEPARATORS = ",;，、；"
_SPACED_SLASH_RE = re.compile(r"\s+/\s+")


def _top_level_parts(label: str) -> list[str]:
    """``label`` cut at the list separators that stand outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(label):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and ch in _LIST_SEPARATORS:
            parts.append(label[start:i])
            start = i + 1
    parts.append(label[start:])
    return parts


def _within_label_cap(label: str) -> str:
    """The first MAX_LABEL_CHARS characters of ``label``, up to the last separator among them (no half skill)."""
    kept = label[:MAX_LABEL_CHARS]
    last = max(kept.rfind(separator) for separator in (*_LIST_SEPARATORS, "/"))
    return kept[:last] if last > 0 else kept


def split_skill_label(label: str, vocabulary: frozenset[str] = frozenset(), cuts: Counter | None = None) -> list[str]:
    """The skills one label names: "HTML5, HTML" -> ["HTML5", "HTML"]; "CI/CD" stays whole (see SLASHED_NAMES).

    Only the label's first MAX_LABEL_CHARS characters are read (``_within_label_cap``) and only its first
    MAX_LABEL_PIECES skills kept; each cut adds one to ``cuts["chars"]`` or ``cuts["pieces"]``, for a warning."""

    def known(piece: str) -> bool:
        return any(variant in vocabulary for variant in label_variants(label_key(piece)))

    if len(label) > MAX_LABEL_CHARS:
        label = _within_label_cap(label)
        if cuts is not None:
            cuts["chars"] += 1
    out: list[str] = []
    for part in _top_level_parts(label):
        for piece in _SPACED_SLASH_RE.split(part):
            piece = clean_text(piece)
            if not piece:
                continue
            slashed = [clean_text(p) for p in piece.split("/")]
            if (
                len(slashed) > 1
                and piece.casefold() not in SLASHED_NAMES
                and all(slashed)
                and not known(piece)
                and all(known(p) for p in slashed)
            ):
                out.extend(slashed)
            else:
                out.append(piece)
    if len(out) > MAX_LABEL_PIECES:
        del out[MAX_LABEL_PIECES:]
        if cuts is not None:
            cuts["pieces"] += 1
    return out


# Group names that head a list of skills and are no skill themselves, though a vocabulary of topics may know the word.
SKILL_HEADINGS = frozenset(
    {
        "languages", "programming-languages", "language", "frameworks", "framework", "libraries", "library", "tools",
        "tooling", "databases", "database", "frontend", "front-end", "backend", "back-end", "web", "web-development",
        "mobile", "cloud", "devops", "testing", "other", "others", "misc", "miscellaneous", "general", "skills",
        "technical-skills", "soft-skills", "platforms", "operating-systems", "os", "infrastructure", "methodologies",
        "design", "data", "security", "software", "technologies", "tech", "stack", "apis", "api", "concepts",
    }
)  # fmt: skip


def _group_is_a_skill(name: str, vocabulary: frozenset[str]) -> bool:
    """A group named after a skill the vocabulary knows ("Android", "Python", "AWS") is also that skill; a heading
    ("Languages", "Tools": ``SKILL_HEADINGS``) is not, whatever the vocabulary holds."""
    key = label_key(name)
    return key not in SKILL_HEADINGS and any(variant in vocabulary for variant in label_variants(key))


def skill_entries(
    raw: Any, vocabulary: frozenset[str] = frozenset(), warnings: list[str] | None = None
) -> list[SkillEntry]:
    """An entry with keywords is a group: its keywords are the skills, at its level, and its name their category
    ("Languages", "Tools" are headings, not skills; a group named after a known skill, "Android", is that skill too,
    at the group's level); an entry with a name alone is a skill. Labels past the caps of ``split_skill_label`` are
    cut, with a warning for each kind of cut."""
    out: list[SkillEntry] = []
    seen: set[str] = set()
    cuts: Counter = Counter()

    def add(label: str, score: int, category: str) -> None:
        for piece in split_skill_label(label, vocabulary, cuts):
            key = label_key(piece)
            if key and key not in seen:
                seen.add(key)
                out.append(SkillEntry(label=piece, score=score, category=category))

    for skill in dicts_in(raw):
        score = level_score(skill.get("level"))
        name = first_text(skill, "name")
        keywords = strings_in(skill.get("keywords"))
        if keywords:
            if name and _group_is_a_skill(name, vocabulary):
                add(name, score, name)
            for keyword in keywords:
                add(keyword, score, name)
        elif name:
            add(name, score, "")
    if warnings is not None:
        if cuts["chars"]:
            warnings.append(
                f"{_times(cuts['chars'], 'skill name was', 'skill names were')} longer than {MAX_LABEL_CHARS:,} "
                f"characters; only the first {MAX_LABEL_CHARS:,} of each were read."
            )
        if cuts["pieces"]:
            warnings.append(
                f"{_times(cuts['pieces'], 'skill name lists', 'skill names list')} more than {MAX_LABEL_PIECES} "
                f"skills; the first {MAX_LABEL_PIECES} of each were kept."
            )
    return out


def _times(count: int, one: str, many: str) -> str:
    return f"One {one}" if count == 1 else f"{count:,} {many}"
