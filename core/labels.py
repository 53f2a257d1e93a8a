"""Skill and topic labels: the lookup key every layer agrees on (parsers, normaliser, loader, filters), and the
equivalent forms of a key that a lookup tries when the key itself is unknown.

Django-free, so the parsers and the domain share one definition.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from core.text import clean_text

__all__ = ["MAX_LABEL_CHARS", "MAX_LABEL_PIECES", "first_known", "label_key", "label_variants"]

# What a parser reads of one skill or topic label as a file writes it (a list of skills in one field included, before
# it is split): its first MAX_LABEL_CHARS characters, and the first MAX_LABEL_PIECES skills it splits into. No skill's
# name comes near either (the alias column holds 200 characters); past them a label is a list pasted into one field or
# an attack, and what is cut is a warning on the file.
MAX_LABEL_CHARS = 1_000
MAX_LABEL_PIECES = 50

_WS_RE = re.compile(r"\s+")

# Labels up to this length are cached (the alias column's length: a longer label names no skill). A longer one is
# computed each time, so that a file of huge labels cannot fill a worker's memory through the caches.
MAX_CACHED_LABEL_CHARS = 200


def label_key(label: str) -> str:
    """The lookup key of a skill/topic label: lower-case, stripped, inner whitespace runs turned into '-'.

    Cached: a worker sees the same few thousand labels over and over.
    """
    return _cached_label_key(label) if len(label) <= MAX_CACHED_LABEL_CHARS else _label_key(label)


def _label_key(label: str) -> str:
    return _WS_RE.sub("-", clean_text(label).lower())


_cached_label_key = functools.lru_cache(maxsize=100_000)(_label_key)


# The equivalence rule (README, "Skills"): one skill's name written with decorations that do not change what it names.
# - A parenthetical qualifier goes: "python-(langage-de-programmation)" -> "python".
# - A trailing version goes when it stands apart from the name ("vue-3", "angular-2+", "python-3.12", "java-8.x",
#   "angular-v17"), when it has a dot ("python3.12"), or when it follows a symbol ("c++11", "c#10"). A number glued
#   straight to letters is part of the name: Web3, S3, ES6, D3, K8s, HTML5, Python3 (a few of those are curated
#   aliases instead: html5 and python3 lead to html and python because someone decided so, not by this rule).
# - A JavaScript library's ".js" / "js" / "-js" suffix: the glued form ("expressjs"), the dotted and hyphenated
#   ones, then the bare name ("express"), with a stem of two characters at least ("djs" is not D).
# - "&" and "and" between words are one another.
# Variants are tried after the exact key, in this order, and only the first known one counts: a label the vocabulary
# knows as written (Node.js, Next.js, Web3) is never reinterpreted.
# Each version form is found from the end of the key, where it stands, in one pass: a pattern that searched for the
# stem from the start (``^(.*?[a-z].*?)[-_]v?\d+...$``) tried every split of the key, which costs time quadratic in its
# length.
_PARENTHETICAL_RE = re.compile(r"-?\([^()]*\)")
_SEPARATE_VERSION_RE = re.compile(r"v?\d+(?:\.\d+)*(?:\.x|\+)?")  # after the last "-" or "_"
_DOTTED_VERSION_RE = re.compile(r"\d+(?:\.\d+)+(?:\.x|\+)?")  # glued to the stem's last letter
_SYMBOL_VERSION_RE = re.compile(r"\d+(?:\.\d+)*")  # glued to a "+" or "#"
_LETTER_RE = re.compile(r"[a-z]")
_VERSION_CHARS = "0123456789."
_JS_SUFFIX_RE = re.compile(r"^(?P<stem>[a-z0-9][a-z0-9.+-]*?[a-z0-9])[-.]?js$")


def _without_version(key: str) -> str:
    """``key`` without a trailing version (the rule above), or ``key``. The stem must hold a letter."""
    # "vue-3", "angular_v17": the version holds no "-" or "_", so it follows the last one.
    cut = max(key.rfind("-"), key.rfind("_"))
    if cut > 0 and _SEPARATE_VERSION_RE.fullmatch(key, cut + 1) and _LETTER_RE.search(key, 0, cut):
        return key[:cut]
    # "python3.12", "java8.x": the version holds no letter but a final "x", so the stem ends at the letter before it.
    body = key[:-2] if key.endswith(".x") else key[:-1] if key.endswith("+") else key
    stem = body.rstrip(_VERSION_CHARS)
    if stem and "a" <= stem[-1] <= "z" and _DOTTED_VERSION_RE.fullmatch(key, len(stem)):
        return stem
    # "c++11", "c#10": digits and dots after the stem's last "+" or "#".
    stem = key.rstrip(_VERSION_CHARS)
    if (
        len(stem) > 1
        and stem[-1] in "+#"
        and _SYMBOL_VERSION_RE.fullmatch(key, len(stem))
        and _LETTER_RE.search(stem, 0, len(stem) - 1)
    ):
        return stem
    return key


def label_variants(key: str) -> tuple[str, ...]:
    """``key`` (a ``label_key``) and then its equivalent forms, most specific first (the rule above); empty for an
    empty key. Cached as ``label_key`` is."""
    return _cached_label_variants(key) if len(key) <= MAX_CACHED_LABEL_CHARS else _label_variants(key)


def _label_variants(key: str) -> tuple[str, ...]:
    if not key:
        return ()
    variants = [key]
    stripped = _PARENTHETICAL_RE.sub("", key).strip("-") or key
    stripped = _without_version(stripped)
    variants.append(stripped)
    if match := _JS_SUFFIX_RE.match(stripped):
        stem = match["stem"]
        variants.extend([f"{stem}js", f"{stem}.js", f"{stem}-js", stem])
    for form in list(variants):
        if "-&-" in form:
            variants.append(form.replace("-&-", "-and-"))
        elif "-and-" in form:
            variants.append(form.replace("-and-", "-&-"))
    return tuple(dict.fromkeys(variants))


_cached_label_variants = functools.lru_cache(maxsize=100_000)(_label_variants)


def first_known(known: Mapping[str, str], key: str) -> str | None:
    """What ``known`` holds for ``key`` as written, else for the first of its equivalent forms that it holds (the
    rule above); None when it holds none. The vocabulary's ``slug_of`` and the resolver's stripped forms both read
    labels by it."""
    found = known.get(key)
    if found is None:
        found = next((value for form in label_variants(key)[1:] if (value := known.get(form)) is not None), None)
    return found
