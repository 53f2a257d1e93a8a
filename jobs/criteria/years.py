"""The years of experience a post asks of the candidate."""

from __future__ import annotations

import re

from jobs.criteria.result import MENTIONED
from jobs.criteria.sections import Line, line_of

_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "a couple of": 2, "a few": 3, "several": 3,
}  # fmt: skip
_NUMBER = r"(\d{1,2}|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + ")"
_YEARS_RE = re.compile(
    r"(?<![\w.,])(?:at least |minimum of |minimum |min\.? |over |more than |a minimum of )?"
    + _NUMBER
    + r"(?:\s*\+|\s*plus)?(?:\s*(?:-|\u2013|to)\s*\d{1,2}\s*\+?)?(?:\s+or more)?\s+(?:full\s+)?(?:years?|yrs?)\b"
    r"(?:'|\u2019)?(?P<after>[^.;\n]{0,60})"
)
_YEARS_CONTEXT_RE = re.compile(
    r"^\s*(?:of|in|with|building|writing|working|as|doing|professional|commercial|industry|hands-on|coding|"
    r"programming|developing|experience|engineering|shipping|running|designing|leading|using|\(|,)"
)
_NOT_EXPERIENCE_RE = re.compile(r"^\s*(?:ago|old|of age|history|in business|warranty|and counting)\b")


def min_years(folded: str, lines: list[Line]) -> int | None:
    years = []
    for match in _YEARS_RE.finditer(folded):
        after = match.group("after")
        if _NOT_EXPERIENCE_RE.match(after):
            continue
        prefix = folded[max(0, match.start() - 30) : match.start()]
        if re.search(r"\b(?:for the (?:past|last)|over the (?:past|last|next)|in the (?:past|last|next)|founded|"
                     r"since|within|every)\s+$", prefix):  # fmt: skip
            continue
        line = line_of(lines, match.start())
        if not (_YEARS_CONTEXT_RE.match(after) or line.role != MENTIONED or "experience" in after):
            continue
        raw = match.group(1)
        value = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
        if 0 < value <= 40:
            years.append(value)
    return max(years) if years else None
