"""The one resolver from a skill label, as a file, a job post or a recruiter writes it, to the known skills it names.

Pure (no database): it reads a vocabulary of label keys (``core.labels.label_key``) mapped to skill slugs, the
mapping ``profiles.vocabulary.SkillVocabulary.slugs`` holds. Imports (``ingestion.normalise``), job posts and the
admin's filters (``profiles.filters.resolve_skills``) all go through it.

Public API::

    from profiles.skill_resolver import Resolved, Resolution, SkillResolver, resolver_for

    resolver = resolver_for(vocabulary)      # a SkillVocabulary; built once per vocabulary copy, then cached
    result = resolver.resolve("Usage with Docker")
    result.slugs           # ("docker",): the known skills the label names, in its order; () when none
    result.how             # Resolved.PHRASE: which rule found them (the rules below, in order)
    result.warning         # None, or a sentence for the file's warnings ("'Svelt' was read as svelte ...")
    result.not_technology  # True for a soft skill, a human language, a hobby: it makes no shared skill
    result.key             # the label's key; a label that names no known skill creates a skill under it

``SkillResolver(slugs)`` takes the mapping directly (tests, tools).

The rules, first match wins (docs/importing.md, "How skill labels are resolved", has examples):

1. No technology: a soft skill, hobby or design-pattern name (``NOT_TECHNOLOGY``, English, Spanish, French,
   German, Portuguese, Italian), or the name of a human language. The list is checked first, so that a skill an
   older import made of such a label ("teamwork") no longer catches it; a human language's name only after rules 2
   to 4, so that a programming language of the same name the vocabulary knows ("Logo") stays a skill.
2. Exact alias: the label's key is a known label.
3. Stripped: the key without parentheses, versions and qualifiers ("Laravel 5.*", "Bootstrap 3 & 4-alpha",
   "Vue 3", "Python (advanced)"), then its equivalent forms (``core.labels.label_variants``: "expressjs"), then
   the abbreviation a spelled-out name ends with ("Continuous integration and continuous delivery (CI/CD)").
4. Near-identical: the same letters and digits once punctuation, case and a ``js`` or ``ci`` suffix are set aside
   ("gruntjs" and "grunt", "travis-ci" and "travis", "reduxtoolkit" and "redux-toolkit"), when exactly one known
   skill has that form.
5. Joined: a label joined with "/", "&", "and" or "+" whose every part resolves maps to each part ("ES6/ES7",
   "Dagger/Dagger2", "HTML & CSS"); a part that is the previous part's name with another version number is that
   part's skill.
6. Phrase: a phrase in which exactly one known skill stands as whole words maps to it ("Usage with Docker",
   "Docker image design", "Pytest plugin creation"); one made only of known skills maps to each. A known label that
   is a common word (``NEVER_ALONE``) or one or two characters long counts for nothing inside a phrase, and a
   shorter known label inside a longer one found in the same words counts for nothing either. A phrase in which a
   one- or two-character known label stands as a word ("Go kit", "Qt widgets") names no skill by this rule: the
   short name may be the phrase's subject, so "Go kit" is not Kit.
7. Typo: a slip of one letter in a known label of at least ``TYPO_MIN_CHARS`` characters maps to it, with a
   warning, when no second skill is as close: two neighbouring letters swapped ("Pyhton", "Kuberentes"), one letter
   changed in a label of six or more, neither its first nor its last ("Kubernetis"), the last letter left off or
   doubled ("Svelt", "Postgress"), or one letter left out or added inside a label of eight or more ("Elasticsarch").
   A known label with letters added or changed at either end is another name, never a slip: "Preact" is not React,
   "Polars" not Polar, "Scalar" neither Scala nor Scalaz, "Terraformer" not Terraform.
8. New: anything else names a skill nobody knows yet; an import creates it under ``key``.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from core.labels import MAX_CACHED_LABEL_CHARS, first_known, label_key, label_variants
from core.languages import is_language_name, resolve_language
from profiles.skill_words import NEVER_ALONE, NOT_TECHNOLOGY, QUALIFIERS

__all__ = [
    "NEVER_ALONE",
    "NOT_TECHNOLOGY",
    "TYPO_MIN_CHARS",
    "Resolution",
    "Resolved",
    "SkillResolver",
    "near_form",
    "resolver_for",
]


class Resolved(StrEnum):
    """How a label was resolved: the rule that matched (the module docstring lists them in order)."""

    EMPTY = "empty"
    NOT_TECHNOLOGY = "not-technology"
    ALIAS = "alias"
    STRIPPED = "stripped"
    NEAR = "near"
    JOINED = "joined"
    PHRASE = "phrase"
    TYPO = "typo"
    NEW = "new"


@dataclass(frozen=True, slots=True)
class Resolution:
    label: str  # as written
    key: str  # its label key: what a new skill is created under
    slugs: tuple[str, ...]  # the known skills it names, in the label's order; () when none
    how: Resolved
    warning: str | None = None

    @property
    def not_technology(self) -> bool:
        return self.how is Resolved.NOT_TECHNOLOGY

    @property
    def known(self) -> bool:
        return bool(self.slugs)


# Neither the label nor the skill it is read as may be shorter than this: short names are one letter from each other
# (Go, Rust, Java, Vue, Dart) and from common words.
TYPO_MIN_CHARS = 5
_TYPO_MAX_CHARS = 40  # a longer label is a sentence, not a misspelt name
# Labels whose resolution a resolver remembers (each once as written and once as a key): far more than the labels a
# vocabulary version sees, few enough that a flood of made-up labels cannot fill a worker's memory.
_CACHED_LABELS = 100_000

# A version as a word of its own: "5", "5.*", "3.x", "4-alpha" (split at the hyphen), "v17", "2+", "rc1", "lts".
_VERSION_WORD_RE = re.compile(r"(?:v?\d+(?:\.(?:\d+|\*|x))*[+*]?|\*|x|alpha|beta|rc\d*|lts|preview|latest)")
_GLUED_NUMBER_RE = re.compile(r"^(?P<stem>[a-z][a-z.+#-]*[a-z])-?(?P<number>\d{1,2})$")
_JOINERS_RE = re.compile(r"/|-&-|-and-|-\+-|\+(?=[a-z])(?<![+#]\+)")
_WORD_RE = re.compile(r"[^-]+")
_PARENTHESES_RE = re.compile(r"\(([^()]+)\)$")
_MAX_PHRASE_WORDS = 4  # the longest known label a phrase is searched for, in words
_LOOSE_DROP_RE = re.compile(r"[^\w+#]|_")  # punctuation and spaces; letters of every script stay


def _plain(key: str) -> str:
    """``key`` without accents: "comunicación" and "comunicacion" are one word to the lists above."""
    if key.isascii():  # most labels: nothing to take off
        return key
    return "".join(ch for ch in unicodedata.normalize("NFKD", key) if not unicodedata.combining(ch))


def near_form(key: str) -> str:
    """The form two near-identical labels share (rule 4): "redux-toolkit" and "reduxtoolkit", "gruntjs" and
    "grunt"."""
    return _loose(key)


def _loose(key: str) -> str:
    """The near-identical form of a key (rule 4): letters (of any script, accents aside), digits, "+" and "#" only,
    without a "js" or "ci" suffix."""
    loose = _LOOSE_DROP_RE.sub("", _plain(key))
    for suffix in ("js", "ci"):
        if loose.endswith(suffix) and len(loose) - len(suffix) >= 3:
            return loose[: -len(suffix)]
    return loose


def _stripped(key: str) -> str:
    """``key`` without parentheses, version words and qualifier words at its ends (rule 3)."""
    key = re.sub(r"-?\([^()]*\)?", "", key).strip("-")
    words = key.split("-")
    while words and (_VERSION_WORD_RE.fullmatch(words[-1]) or words[-1] in QUALIFIERS):
        words.pop()
    while words and words[0] in QUALIFIERS:
        words.pop(0)
    return "-".join(words)


class SkillResolver:
    """Resolves labels against one vocabulary (label key → slug). Build it once per vocabulary (``resolver_for``):
    it indexes the vocabulary, and remembers what it resolved."""

    def __init__(self, slugs: Mapping[str, str]):
        self._slugs = slugs
        self._loose_slugs: dict[str, set[str]] = {}  # near-identical form → every skill a label of it names
        self._loose: dict[str, str] = {}  # the forms of one skill only (rule 4)
        self._typo_choices: list[str] = []
        self._index(slugs)
        self._cache: dict[str, Resolution] = {}  # by label key
        self._by_label: dict[str, Resolution] = {}  # by label as written
        self._direct_cache: dict[str, str | None] = {}  # slug_of's answers

    def _index(self, labels: Mapping[str, str]) -> None:
        """Add ``labels`` (label key → slug) to the indexes of rules 4 and 7."""
        if not self._loose_slugs:  # a resolver built anew: the whole index at once
            loose: dict[str, set[str]] = {}
            for label, slug in labels.items():
                loose.setdefault(_loose(label), set()).add(slug)
            self._loose_slugs = loose  # sets never changed in place: ``extended`` gives a form a new one
            self._loose = {
                form: next(iter(found)) for form, found in loose.items() if len(found) == 1 and len(form) >= 3
            }
            self._typo_choices = sorted({label for label in labels if TYPO_MIN_CHARS <= len(label) <= _TYPO_MAX_CHARS})
            return
        touched: dict[str, set[str]] = {}
        for label, slug in labels.items():
            form = _loose(label)
            found = touched.get(form)
            if found is None:
                found = touched[form] = set(self._loose_slugs.get(form, ()))
            found.add(slug)
        for form, found in touched.items():
            self._loose_slugs[form] = found
            if len(found) == 1 and len(form) >= 3:
                self._loose[form] = next(iter(found))
            else:
                self._loose.pop(form, None)
        if choices := {label for label in labels if TYPO_MIN_CHARS <= len(label) <= _TYPO_MAX_CHARS}:
            self._typo_choices = sorted(choices.union(self._typo_choices))

    def extended(self, slugs: Mapping[str, str]) -> SkillResolver | None:
        """The resolver of ``slugs``, made from this one when ``slugs`` holds every label this one knows with the same
        skill (a vocabulary read again after skills were added): this one's indexes with the new labels added, and
        the answers no new label can change (an exact alias, a label on the no-technology list) kept. None when a
        label went or leads elsewhere now (a merge): then a resolver is built anew. This one is left as it was."""
        added = {label: slug for label, slug in slugs.items() if self._slugs.get(label) != slug}
        if len(slugs) - len(added) != len(self._slugs):
            return None
        resolver = copy.copy(self)
        resolver._slugs = slugs
        resolver._loose_slugs = dict(self._loose_slugs)
        resolver._loose = dict(self._loose)
        resolver._index(added)

        def lasting(result: Resolution) -> bool:
            return result.how is Resolved.ALIAS or (result.not_technology and self._no_technology(result.key))

        resolver._cache = {key: result for key, result in self._cache.items() if lasting(result)}
        resolver._by_label = {label: result for label, result in self._by_label.items() if lasting(result)}
        resolver._direct_cache = {
            key: slug for key, slug in self._direct_cache.items() if slug is not None and self._slugs.get(key) == slug
        }
        return resolver

    def resolve(self, label: str) -> Resolution:
        """What ``label`` names (the rules of the module docstring)."""
        cached = self._by_label.get(label)  # the same few thousand labels, written the same way, recur
        if cached is not None:
            return cached
        key = label_key(label)
        cached = self._cache.get(key)
        if cached is not None:
            result = cached if cached.label == label else _relabelled(cached, label)
        else:
            result = self._resolve(label, key)
        if len(label) <= MAX_CACHED_LABEL_CHARS and len(self._by_label) < _CACHED_LABELS:
            self._cache.setdefault(key, result)
            self._by_label[label] = result
        return result

    def slug_of(self, key: str) -> str | None:
        """The one skill a label key names by rules 2 to 4 (no phrase, no guess), or None."""
        if key in self._direct_cache:
            return self._direct_cache[key]
        slug = self._direct(key)
        if len(key) <= MAX_CACHED_LABEL_CHARS and len(self._direct_cache) < _CACHED_LABELS:
            self._direct_cache[key] = slug
        return slug

    # --- The rules

    def _resolve(self, label: str, key: str) -> Resolution:
        if not key:
            return Resolution(label, key, (), Resolved.EMPTY)
        if self._no_technology(key):
            return Resolution(
                label,
                key,
                (),
                Resolved.NOT_TECHNOLOGY,
                f"“{label[:100]}” is not a technology; it is kept on the profile as written, not as a skill.",
            )
        if (slug := self._slugs.get(key)) is not None:
            return Resolution(label, key, (slug,), Resolved.ALIAS)
        if (slug := self._stripped_slug(key)) is not None:
            return Resolution(label, key, (slug,), Resolved.STRIPPED)
        if (slug := self._near_slug(key)) is not None:
            return Resolution(label, key, (slug,), Resolved.NEAR)
        if self._human_language(label, key):
            return Resolution(
                label,
                key,
                (),
                Resolved.NOT_TECHNOLOGY,
                f"“{label[:100]}” is a spoken language, not a technology; it is kept on the profile as written.",
            )
        if slugs := self._joined(key):
            return Resolution(label, key, slugs, Resolved.JOINED)
        if slugs := self._phrase(key):
            return Resolution(label, key, slugs, Resolved.PHRASE)
        if (slug := self._typo(key)) is not None:
            return Resolution(
                label,
                key,
                (slug,),
                Resolved.TYPO,
                f"“{label[:100]}” looks like a misspelling of the skill {slug}; it was read as {slug}.",
            )
        return Resolution(label, key, (), Resolved.NEW)

    def _no_technology(self, key: str) -> bool:
        plain = _plain(key)
        return plain in NOT_TECHNOLOGY or plain.removesuffix("-skills") in NOT_TECHNOLOGY

    def _human_language(self, label: str, key: str) -> bool:
        """A human language's name (English, "Inglés", "Español"); codes ("ada", "elm") and short words are not."""
        if len(key) < 4 or "-" in key:
            return False
        return is_language_name(label.strip()) or resolve_language(label.strip(), exact=True) is not None

    def _stripped_slug(self, key: str) -> str | None:
        for form in (_stripped(key), *label_variants(key)[1:]):
            if form and form != key and (slug := first_known(self._slugs, form)) is not None:
                return slug
        # A spelled-out name with its abbreviation: "Continuous integration and continuous delivery (CI/CD)".
        if (inner := _PARENTHESES_RE.search(key)) and (slug := self._slugs.get(inner[1].strip("-"))) is not None:
            return slug
        return None

    def _near_slug(self, key: str) -> str | None:
        loose = _loose(_stripped(key) or key)
        return self._loose.get(loose) if len(loose) >= 3 else None

    def _direct(self, key: str) -> str | None:
        """Rules 2 to 4 for one part of a label."""
        if not key:
            return None
        return self._slugs.get(key) or self._stripped_slug(key) or self._near_slug(key)

    def _joined(self, key: str) -> tuple[str, ...]:
        parts = [part.strip("-") for part in _JOINERS_RE.split(key)]
        if len(parts) < 2 or not all(parts):
            return ()
        slugs: list[str] = []
        previous: tuple[str, str] | None = None  # (stem of the previous part, its skill)
        for part in parts:
            slug = self._direct(part)
            glued = _GLUED_NUMBER_RE.match(part)
            if slug is None and glued and previous and glued["stem"] == previous[0]:
                slug = previous[1]  # "ES6/ES7", "Dagger/Dagger2": another version of the part before
            if slug is None and glued and len(glued["stem"]) >= 3:
                slug = self._slugs.get(glued["stem"])
            if slug is None:
                return ()
            stem = glued["stem"] if glued else part
            previous = (stem, slug)
            slugs.append(slug)
        return tuple(dict.fromkeys(slugs))

    def _phrase(self, key: str) -> tuple[str, ...]:
        words = _WORD_RE.findall(_stripped(key) or key)
        if len(words) < 2:
            return ()
        spans: list[tuple[int, int, str]] = []  # (start, end, slug) of each known label standing as whole words
        for size in range(min(_MAX_PHRASE_WORDS, len(words)), 0, -1):
            for start in range(len(words) - size + 1):
                end = start + size
                if any(s <= start and end <= e for s, e, _ in spans):
                    continue  # inside a longer known label: "continuous-integration" is not "integration"
                form = "-".join(words[start:end])
                if len(form) <= 2 and form in self._slugs:
                    return ()  # "Go kit": the short name may be what the phrase is about, not kit
                if len(form) <= 2 or form in NEVER_ALONE or _plain(form) in NOT_TECHNOLOGY:
                    continue
                slug = self._slugs.get(form)  # as written only: "office" is not Office.js inside a phrase
                if slug is not None:
                    spans.append((start, end, slug))
        found = tuple(dict.fromkeys(slug for _, _, slug in sorted(spans)))
        if len(found) == 1:
            return found
        covered = {i for s, e, _ in spans for i in range(s, e)}
        if found and all(i in covered or w in NEVER_ALONE for i, w in enumerate(words)):
            return found  # "PHP MVC": known skills and nothing else, each of them
        return ()

    def _typo(self, key: str) -> str | None:
        if not (TYPO_MIN_CHARS <= len(key) <= _TYPO_MAX_CHARS) or not self._typo_choices:
            return None
        # Levenshtein distance 2 finds every slip (a swap is two edits); _is_slip then keeps only the slips.
        near = process.extract(key, self._typo_choices, scorer=Levenshtein.distance, score_cutoff=2, limit=None)
        slugs = {self._slugs[label] for label, _, _ in near if _is_slip(key, label)}
        return next(iter(slugs)) if len(slugs) == 1 else None


def _is_slip(written: str, known: str) -> bool:
    """Whether ``written`` is ``known`` with one slip of the hand (rule 7). Letters added at either end of a known
    name make another name ("preact", "polars", "scalar"), so only a doubled last letter counts there; a letter
    left off or added inside is a slip only in a long name, where a shorter word is rarely another technology."""
    if written == known or len(known) < TYPO_MIN_CHARS:
        return False
    if len(written) == len(known):
        differ = [i for i, (a, b) in enumerate(zip(written, known, strict=True)) if a != b]
        if len(differ) == 1:  # a changed end letter often makes another name: "scalar" and Scalaz
            return len(known) >= 6 and 0 < differ[0] < len(known) - 1
        first = differ[0]
        return (
            differ == [first, first + 1] and written[first] == known[first + 1] and written[first + 1] == known[first]
        )
    longer, shorter = (written, known) if len(written) > len(known) else (known, written)
    if len(longer) != len(shorter) + 1:
        return False
    cut = next((i for i, (a, b) in enumerate(zip(shorter, longer, strict=False)) if a != b), len(shorter))
    if longer[:cut] + longer[cut + 1 :] != shorter:
        return False
    if cut == len(shorter):  # a letter at the end: a doubled one written, or the known name's last one left off
        return longer[cut] == longer[cut - 1] if longer is written else True
    return cut > 0 and len(longer) >= 8


def _relabelled(result: Resolution, label: str) -> Resolution:
    """A remembered resolution of the same key, for this spelling of the label."""
    warning = result.warning.replace(f"“{result.label[:100]}”", f"“{label[:100]}”", 1) if result.warning else None
    return Resolution(label, result.key, result.slugs, result.how, warning)


class Labels(Protocol):
    """What the resolver reads of a vocabulary (``profiles.vocabulary.SkillVocabulary``, which builds on this module):
    its label keys mapped to skill slugs."""

    @property
    def slugs(self) -> Mapping[str, str]: ...


# The resolvers of the last few vocabulary copies used, most recent last, by identity: a copy is immutable, and a
# process keeps one per vocabulary version (``profiles.vocabulary_copy.skill_vocabulary``), so a resolver is built
# once per version (an import chunk's own small copy is used beside it, and does not push it out).
_RESOLVERS: list[tuple[Labels, SkillResolver]] = []
_RESOLVERS_KEPT = 4


def _extended(slugs: Mapping[str, str]) -> SkillResolver | None:
    """A kept resolver extended to ``slugs`` (``SkillResolver.extended``): the largest kept one that is at least half
    its size, when ``slugs`` holds all of its labels."""
    kept = [resolver for _, resolver in _RESOLVERS if len(slugs) // 2 <= len(resolver._slugs) <= len(slugs)]
    if not kept:
        return None
    return max(kept, key=lambda resolver: len(resolver._slugs)).extended(slugs)


def resolver_for(vocabulary: Labels) -> SkillResolver:
    """The resolver of ``vocabulary`` (of its own labels), built on its first use and kept while the copy is among
    the last few used."""
    if _RESOLVERS and _RESOLVERS[-1][0] is vocabulary:
        return _RESOLVERS[-1][1]
    for index, (known, resolver) in enumerate(_RESOLVERS):
        if known is vocabulary:
            _RESOLVERS.append(_RESOLVERS.pop(index))  # the most recently used last: the process's copy stays
            return resolver
    resolver = _extended(vocabulary.slugs) or SkillResolver(vocabulary.slugs)
    _RESOLVERS.append((vocabulary, resolver))
    del _RESOLVERS[:-_RESOLVERS_KEPT]
    return resolver
