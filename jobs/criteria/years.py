"""The years of experience a post asks of the candidate."""

from __future__ import annotations

import re

from jobs.criteria.result import MENTIONED
from jobs.criteria.sections import Line, line_of

_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "a couple of": 2,
}  # fmt: skip  "several years", "a few years": no number
_NUMBER = r"(\d{1,2}|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + ")"
_YEARS_RE = re.compile(
    r"(?<![\w.,])(?:at least |minimum of |minimum |min\.? |over |more than |a minimum of )?"
    + _NUMBER
    + r"(?:\s*\+|\s*plus)?(?:\s*(?:-|\u2013|to)\s*\d{1,2}\s*\+?)?(?:\s+or more)?\s+(?:full\s+)?(?:years?|yrs?)\b"
    r"(?:'|\u2019)?(?P<after>[^.;\n]{0,60})"
)
_YEARS_CONTEXT_RE = re.compile(
    r"^\s*(?:of|in|with|building|writing|working|as|doing|professional|commercial|industry|hands-on|coding|"
    r"programming|developing|experience|engineering|shipping|running|designing|leading|using|\()"
)
_NOT_EXPERIENCE_RE = re.compile(r"^\s*(?:ago|old|of age|history|in business|warranty|and counting)\b")


# A sentence about the company ("In over 35 years, the company has grown") rather than about the candidate.
_COMPANY_RE = re.compile(
    r"\b(?:we|we've|we're|our|us|company|firm|founded|established|history|clients|customers|business|"
    r"has grown|have grown|been around|in operation|existence)\b"
)
_EXPERIENCE_FIELD_RE = re.compile(r"[^\w\n]*(?:required |minimum )?experience(?: level| required)?\s*:")
_CANDIDATE_RE = re.compile(
    r"\b(?:you|your|you've|you're|yourself|candidates?|applicants?|someone|somebody|looking for|seeking|hiring)\b"
)
_SENTENCE_BREAK_RE = re.compile(r"[.!?\n]")
_BEFORE_RE = re.compile(
    r"\b(?:for the (?:past|last)|over the (?:past|last|next)|in the (?:past|last|next)|founded|since|within|every|"
    r"in|after|across|throughout|for almost|for nearly)\s+$"
)


def min_years(folded: str, lines: list[Line]) -> int | None:
    """The largest number of years a statement about the candidate's experience asks for, None when none does."""
    years = []
    for match in _YEARS_RE.finditer(folded):
        after = match.group("after")
        if _NOT_EXPERIENCE_RE.match(after):
            continue
        if _BEFORE_RE.search(folded, max(0, match.start() - 30), match.start()):
            continue
        line = line_of(lines, match.start())
        if not (
            _YEARS_CONTEXT_RE.match(after)
            or line.role != MENTIONED
            or "experience" in after
            or _EXPERIENCE_FIELD_RE.match(folded, line.start, match.start())  # "Experience level: 5-10 years"
        ):
            continue
        sentence = _sentence_around(folded, match.start(), match.end(), line)
        if _COMPANY_RE.search(sentence) and not _CANDIDATE_RE.search(sentence) and "experience" not in after:
            continue
        raw = match.group(1)
        value = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
        if 0 < value <= 40:
            years.append(value)
    return max(years) if years else None


def _sentence_around(folded: str, start: int, end: int, line: Line) -> str:
    """The sentence of the line that holds [start, end), at most 200 characters either side."""
    low, high = max(line.start, start - 200), min(line.end, end + 200)
    before = folded[low:start]
    breaks = list(_SENTENCE_BREAK_RE.finditer(before))
    sentence_start = low + breaks[-1].end() if breaks else low
    after = _SENTENCE_BREAK_RE.search(folded, end, high)
    return folded[sentence_start : after.start() if after else high]
