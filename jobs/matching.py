"""Finding the vocabulary's skills in free text: one Aho-Corasick automaton over every alias, built once per
vocabulary, with word boundaries, versions and the longest match decided here. Pure: no database.

What a match is:
- an alias key of the vocabulary (``core.labels.label_key`` form, "unreal-engine") is looked for as written and with
  its hyphens as spaces ("unreal engine"), for a name of up to four words with any of them as spaces ("domain-driven
  design"); a JavaScript library's glued key ("nextjs") also as "next.js";
- the text is lower-cased character by character (so every offset stays the original's) and its tabs and odd spaces
  become plain spaces; a match never crosses a line;
- a name of several words is found in the plural too ("neural networks");
- a match starts and ends at a word boundary: no letter or digit right before or after it, and no ``.``/``_``/``@``
  glued to a word before it ("asp.net" holds no ".net");
- a version right after it belongs to it: "Vue 3", "Python 3.12", "R 4.4", and glued after a symbol ("C++17",
  "C#10"); digits glued to letters are part of a name (S3, Web3, K8s) and so no boundary;
- overlapping matches: the longest wins ("Unreal Engine" over "Unreal", "C++" over "C"), then the leftmost.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

import ahocorasick

from profiles.vocabulary import SkillVocabulary

# Length-preserving: every offset into the folded text is the same offset into the original.
_SPACE_TRANSLATION = {ord(c): " " for c in "\t\x0b\x0c\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"}
_SPACE_TRANSLATION |= {ord(c): " " for c in "\u2009\u200a\u202f\u205f\u3000"}
_SPACE_TRANSLATION |= {ord("\u2019"): "'", ord("\u2018"): "'", ord("\u2010"): "-", ord("\u2011"): "-"}
_VERSION_RE = re.compile(r" ?v?\d+(?:\.\d+)*(?:\.x|\+)?")
_GLUED_BEFORE = "._@"
MAX_MIXED_PARTS = 4  # a name of more words is written with one separator throughout


def fold(text: str) -> str:
    """``text`` lower-cased with the same length (a character whose lower case is longer, "İ", stays as it is)."""
    text = text.translate(_SPACE_TRANSLATION)
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(low if len(low := c.lower()) == 1 else c for c in text)


@dataclass(frozen=True, slots=True)
class Match:
    start: int
    end: int  # exclusive, the version included
    slug: str
    name_end: int  # where the alias itself ends (the version, if any, follows)


class _ByIdentity:
    """A cache key that is the vocabulary object itself: two vocabularies are the same only when they are one object
    (``profiles.vocabulary_copy.skill_vocabulary`` hands out one object per vocabulary version). The cache holds it,
    so its id is not reused while the automaton lives."""

    __slots__ = ("vocabulary",)

    def __init__(self, vocabulary: SkillVocabulary) -> None:
        self.vocabulary = vocabulary

    def __hash__(self) -> int:
        return id(self.vocabulary)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByIdentity) and other.vocabulary is self.vocabulary


def _surfaces(key: str) -> set[str]:
    forms = {key}
    if "-" in key:
        parts = key.split("-")
        if len(parts) <= MAX_MIXED_PARTS:
            # Each joint as a hyphen or a space: "domain-driven design" and "test-driven development" are how
            # English writes a compound adjective before its noun.
            for joints in itertools.product("- ", repeat=len(parts) - 1):
                forms.add(parts[0] + "".join(joint + part for joint, part in zip(joints, parts[1:], strict=True)))
        else:
            forms.add(key.replace("-", " "))
    if key.endswith("js") and len(key) > 4 and "." not in key and not key.endswith("-js"):
        forms.add(f"{key[:-2].rstrip('-')}.js")
    # A name of several words in the plural is the same skill ("neural networks", "design patterns"); one word is
    # not made plural ("rails", "pandas" and "kotlins" are other things or nothing).
    forms |= {f"{form}s" for form in list(forms) if " " in form and form[-1].isalpha() and form[-1] != "s"}
    return {form for form in forms if form.strip()}


def build_automaton(vocabulary: SkillVocabulary) -> ahocorasick.Automaton:
    """Every alias surface of ``vocabulary`` -> (its length, its skill's slug)."""
    automaton = ahocorasick.Automaton()
    for key, slug in vocabulary.slugs.items():
        for surface in _surfaces(key):
            if "\n" not in surface and surface not in automaton:
                automaton.add_word(surface, (len(surface), slug))
    for slug in set(vocabulary.slugs.values()):  # a skill's slug names it too
        for surface in _surfaces(slug):
            if surface not in automaton:
                automaton.add_word(surface, (len(surface), slug))
    automaton.make_automaton()
    return automaton


@functools.lru_cache(maxsize=4)
def _automaton_of(key: _ByIdentity) -> ahocorasick.Automaton:
    return build_automaton(key.vocabulary)


def automaton_for(vocabulary: SkillVocabulary) -> ahocorasick.Automaton:
    """The automaton of ``vocabulary``, built on its first use (a few hundred milliseconds for tens of thousands of
    aliases) and kept for the last four vocabularies seen."""
    return _automaton_of(_ByIdentity(vocabulary))


def _starts_word(folded: str, start: int) -> bool:
    if start == 0:
        return True
    before = folded[start - 1]
    if before.isalnum():
        return False
    return not (before in _GLUED_BEFORE and start >= 2 and folded[start - 2].isalnum())


def _end_with_version(folded: str, end: int) -> int | None:
    """Where the match ending at ``end`` ends with its version, or None when ``end`` is inside a word."""
    n = len(folded)
    if (
        end < n
        and (folded[end] in " v" or folded[end].isdecimal())  # what a version starts with: the regex only then
        and (version := _VERSION_RE.match(folded, end)) is not None
    ):
        glued = version.group().startswith(("v", *"0123456789"))
        if not glued or not folded[end - 1].isalnum():
            after = version.end()
            if after >= n or not folded[after].isalnum():
                return after
    if end >= n:
        return end
    after = folded[end]
    if after.isalnum():
        return None
    if after in "._" and end + 1 < n and folded[end + 1].isalnum():
        return None  # "node" in "node.js" when "node.js" is no alias: the token goes on
    return end


def find_skills(folded: str, vocabulary: SkillVocabulary) -> list[Match]:
    """The longest non-overlapping alias matches in ``folded`` (a ``fold``-ed text), in text order."""
    candidates: list[tuple[int, int, int, str, int]] = []  # (-length, start, end, slug, name end)
    automaton = automaton_for(vocabulary)
    if automaton.kind == ahocorasick.EMPTY:
        return []  # no alias at all (skills not seeded yet): an empty automaton cannot be searched
    for last, (length, slug) in automaton.iter(folded):
        start = last - length + 1
        if start and (folded[start - 1].isalnum() or not _starts_word(folded, start)):
            continue  # most of the automaton's hits are inside words ("r" in "for"): the cheap test first
        end = last + 1
        if (full_end := _end_with_version(folded, end)) is not None:
            candidates.append((-length, start, full_end, slug, end))
    candidates.sort()
    taken = bytearray(len(folded) + 1)
    chosen = []
    for _, start, end, slug, name_end in candidates:
        if not any(taken[start:end]):
            taken[start:end] = b"\x01" * (end - start)
            chosen.append(Match(start, end, slug, name_end))
    chosen.sort(key=lambda m: m.start)
    return chosen
