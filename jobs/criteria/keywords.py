"""The keywords of a post: the seniority and the title's words that are no skill."""

from __future__ import annotations

import re
from collections.abc import Mapping

from jobs.criteria.result import MAX_TERM_CHARS
from jobs.criteria.sections import PREFERRED_HEADING_RE, REQUIRED_HEADING_RE, heading_text

SENIORITY_WORDS = ("intern", "junior", "graduate", "mid-level", "senior", "staff", "lead", "principal", "head")
_SENIORITY_RE = re.compile(r"\b(" + "|".join(SENIORITY_WORDS) + r")\b")
_HIRING_SENIORITY_RE = re.compile(
    r"\b(?:hiring|looking for|seeking|join us as|you(?:'ll| will) be|as) (?:a|an|our) (" + "|".join(SENIORITY_WORDS)
    + r")\b"
)  # fmt: skip
_GENERIC_TITLE_WORDS = frozenset({
    "engineer", "engineers", "developer", "developers", "programmer", "programmers", "architect", "specialist",
    "consultant", "manager", "role", "job", "position", "team", "the", "a", "an", "and", "or", "of", "for", "in", "at",
    "with", "to", "remote", "hybrid", "on-site", "onsite", "m", "f", "d", "w", "x", "f/m/d", "m/f/d", "m/w/d",
    "full-time", "part-time", "contract", "permanent", "freelance", "ii", "iii", "iv", "sr", "jr", "core",
})  # fmt: skip


# Where a title's role ends: "Engineer - Acme", "Engineer at Acme", "Engineer (Berlin)". A run of spaces before "at" is
# tried from its first space only, so that a long run is read once, not once per space.
_ROLE_END_RE = re.compile(r"\s[\u2013\u2014|@-]\s|(?<!\s)\s+at\s|\(")


_TITLE_LINE_RE = re.compile(r"^[^\w\n]*(?:job |position |role )?title\s*:[ \t]*(\S[^\n]*)$", re.MULTILINE)
_TITLE_LINE_REACH = 1_000  # an overview's lines come first


def title_keywords(
    text: str, folded: str, header_end: int, skill_slugs: set[str], cities: Mapping[str, str] | None
) -> list[str]:
    title = folded.split("\n", 1)[0]
    if board_title := _TITLE_LINE_RE.search(folded, 0, _TITLE_LINE_REACH):
        title = board_title.group(1)  # a job board's overview: "Job Title: Android Developer (Payments)"
    section, colon, _ = title.partition(":")
    if colon and (
        REQUIRED_HEADING_RE.match(heading_text(section)) or PREFERRED_HEADING_RE.match(heading_text(section))
    ):
        title = ""  # the text starts with a section and its content ("Requirements: Python, 3+ years"): no title
    keywords = list(dict.fromkeys(_SENIORITY_RE.findall(title) + _HIRING_SENIORITY_RE.findall(folded)))
    role = _ROLE_END_RE.split(title, maxsplit=1)[0]
    place_words = {name.casefold() for name in (cities or {})}
    for word in re.findall(r"[a-z][a-z0-9+#.-]*[a-z0-9+#]|[a-z]", role):
        if (
            word not in _GENERIC_TITLE_WORDS
            and word not in keywords
            and word not in skill_slugs
            and word not in place_words
            and 1 < len(word) <= MAX_TERM_CHARS
        ):
            keywords.append(word)
    return keywords
