"""The employer's own name ("Docker" at Docker, "GitLab" at GitLab): no skill where the post speaks of the company,
a skill where it asks for it. The company is spoken of in the title's "at X", the heading block, an "About X"
heading, an "At X, we ..." sentence, a "Company:" line and the prose about its product ("keep the GitLab production
systems healthy"); the post asks for the name when it is an item under a required or preferred heading ("- C, Redis
internals"), follows a skill cue ("strong experience with Docker") or names its programming interface ("the Slack
API")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.labels import label_key
from jobs.criteria.mentions import Found
from jobs.criteria.result import MENTIONED
from jobs.criteria.sections import Line
from profiles.vocabulary import SkillVocabulary

# Where a post names its employer: "About GitLab", "At GitLab, we...", "Engineer at GitLab", "Join GitLab".
_EMPLOYER_HEADING_RE = re.compile(
    r"^[^\w\n]*(?:about|join|life at|working at|why join)\s+([^\n:]{2,40}?)[\s:!?.]*$", re.MULTILINE | re.IGNORECASE
)
_EMPLOYER_AT_RE = re.compile(
    r"(?:^|[.!?]\s+)(?:[-*\u2022]\s+)?(?:[Aa]t|[Jj]oin|[Jj]oining)\s+"
    r"([A-Z][\w&'-]*(?:\.[a-z]{2,3})?(?:\s[A-Z][\w&'-]*){0,2}),?\s+(?:we|our|you)\b",
    re.MULTILINE,
)
_TITLE_EMPLOYER_RE = re.compile(r"(?:\s+at\s+|\s*@\s*)([^\n(),|\u2013\u2014]{2,40}?)\s*(?:$|[(),|\u2013\u2014]|\s-\s)")
_SENTENCE_END_RE = re.compile(r"[.!?](?:\s|$)|\n")
_NAME_LINE_MAX_WORDS = 3
# A job board's overview line naming the company: "Company: Flink".
_COMPANY_LINE_RE = re.compile(r"[^\w\n]*(?:company|employer|client|organi[sz]ation|hiring company)\s*:[^\n]*$")
# What makes the employer's name a skill after all: its programming interface ("the Slack API").
_API_AFTER_RE = re.compile(r"[ \t]+(?:web[ \t]+|graph[ \t]+|ads[ \t]+|rest[ \t]+)?(?:apis?|sdks?)\b")
# A cue that asks for a skill, before the name in its sentence: "strong experience with Docker and Go", "knowledge of
# Redis". Only the words between the cue and the name that keep to one list of things may stand between them.
_SKILL_CUE_BEFORE_RE = re.compile(
    r"\b(?:experience|experienced|knowledge|proficiency|proficient|expertise|expert|familiarity|familiar|exposure|"
    r"fluency|fluent|skills?|background|understanding|hands-on|comfortable|competence|mastery)"
    r"\s+(?:with|of|in|to|using)\b[^.;:!?\n]{0,60}$"
)
# "Docker's mission": the company, even in a requirement.
_POSSESSIVE_AFTER_RE = re.compile(r"'s\b|'(?!\w)")


@dataclass(frozen=True, slots=True)
class Employer:
    """The skills named like the employer and the spans of the text that speak of the company."""

    slugs: frozenset[str]
    spans: tuple[tuple[int, int], ...]

    def speaks_of_company(self, start: int) -> bool:
        return any(low <= start < high for low, high in self.spans)


def read_employer(
    text: str, lines: list[Line], vocabulary: SkillVocabulary, title: tuple[int, int] | None, header_end: int
) -> Employer:
    """The employer named after "at" in the title, in an "About ..." heading, in "At ..., we", or alone on a line of
    the heading block, and the spans where the post speaks of it (those, and the whole heading block)."""
    names: list[str] = []
    spans: list[tuple[int, int]] = [(0, header_end)] if header_end else []
    for match in _EMPLOYER_HEADING_RE.finditer(text):
        names.append(match.group(1))
        spans.append(match.span())
    for match in _EMPLOYER_AT_RE.finditer(text):  # the whole sentence: "At Docker, we run Docker Hub"
        names.append(match.group(1))
        end = _SENTENCE_END_RE.search(text, match.end())
        spans.append((match.start(1), end.start() if end else len(text)))
    first_line_end = text.find("\n")
    first_line = text[: len(text) if first_line_end < 0 else first_line_end]
    if title is not None and (at := _TITLE_EMPLOYER_RE.search(first_line, title[1] - 1 if title[1] else 0)):
        names.append(at.group(1))
        spans.append(at.span(1))
    for line in lines[1:]:  # a name alone on a short line of the heading block: "GitLab", "Sky"
        if line.start >= header_end:
            break
        words = text[line.start : line.end].split()
        if 0 < len(words) <= _NAME_LINE_MAX_WORDS and words[0][:1].isupper():
            names.append(" ".join(words))
    slugs = set()
    for name in names:
        key = label_key(name.removesuffix(".com").removesuffix(".io").strip())
        if key and (slug := vocabulary.slugs.get(key)) is not None:
            slugs.add(slug)
    return Employer(frozenset(slugs), tuple(spans))


def names_company(folded: str, employer: Employer, item: Found) -> bool:
    """Whether a mention is the company, not a skill asked for: a "Company:" line's, or the employer's name where the
    post speaks of the company or names it in prose without asking for it."""
    start, end = item.match.start, item.match.end
    if _COMPANY_LINE_RE.match(folded, item.line.start, start):
        return True
    if item.match.slug not in employer.slugs or _API_AFTER_RE.match(folded, end):
        return False
    if employer.speaks_of_company(start):
        return True
    if _SKILL_CUE_BEFORE_RE.search(folded, max(item.line.start, start - 100), start):
        return False
    listed = item.line.role != MENTIONED  # an item under a required or preferred heading
    return not listed or _POSSESSIVE_AFTER_RE.match(folded, end) is not None
