"""Skill and topic labels: the lookup key every layer agrees on (parsers, normaliser, loader, filters), and the
equivalent forms of a key that a lookup tries when the key itself is unknown.

Django-free, so the parsers and the domain share one definition.
"""

from __future__ import annotations

import functools
import re

from core.text import clean_text

__all__ = ["label_key", "label_variants"]

_WS_RE = re.compile(r"\s+")


@functools.lru_cache(maxsize=100_000)
def label_key(label: str) -> str:
    """The lookup key of a skill/topic label: lower-case, stripped, inner whitespace runs turned into '-'.

    Cached: a worker sees the same few thousand labels over and over.
    """
    return _WS_RE.sub("-", clean_text(label).lower())


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
_PARENTHETICAL_RE = re.compile(r"-?\([^()]*\)")
_SEPARATE_VERSION_RE = re.compile(r"^(?P<stem>.*?[a-z].*?)[-_]v?\d+(?:\.\d+)*(?:\.x|\+)?$")
_DOTTED_VERSION_RE = re.compile(r"^(?P<stem>.*?[a-z])\d+(?:\.\d+)+(?:\.x|\+)?$")
_SYMBOL_VERSION_RE = re.compile(r"^(?P<stem>.*?[a-z].*?[+#])\d+(?:\.\d+)*$")
_JS_SUFFIX_RE = re.compile(r"^(?P<stem>[a-z0-9][a-z0-9.+-]*?[a-z0-9])[-.]?js$")


def _without_version(key: str) -> str:
    for pattern in (_SEPARATE_VERSION_RE, _DOTTED_VERSION_RE, _SYMBOL_VERSION_RE):
        if match := pattern.match(key):
            return match["stem"]
    return key


@functools.lru_cache(maxsize=100_000)
def label_variants(key: str) -> tuple[str, ...]:
    """``key`` (a ``label_key``) and then its equivalent forms, most specific first (the rule above); empty for an
    empty key."""
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
