"""Terms of the requirement lines that look like technologies but that the vocabulary lacks ("Nextflow", "MockK",
"PostGIS" before a vocabulary knows them): shown to the recruiter as ``Criteria.unrecognised``, never criteria."""

from __future__ import annotations

import re

from core.languages import is_language_name
from core.topics import word_count
from jobs.criteria.mentions import Found
from jobs.criteria.result import MAX_TERM_CHARS, MENTIONED
from jobs.criteria.sections import Line

MAX_UNRECOGNISED = 20
RARE_WORD_COUNT = 2_000_000  # a capitalised word rarer than this on the web is likely a name of something

# A word with a capital or a digit in it (a lower-case word is no name of a product), with its dots and signs.
_TERM_RE = re.compile(r"(?<![\w.@/#+-])(?=[a-z]*+[A-Z0-9])[A-Za-z][A-Za-z0-9]*+(?:[.+#-][A-Za-z0-9]++)*+[+#]*+")
_MIXED_CASE_RE = re.compile(r"^[A-Za-z]+[a-z][A-Z]|^[A-Z]{2,}[a-z]+[A-Z]?|^[a-z]+[A-Z]")
_ACRONYM_RE = re.compile(r"^[A-Z]{3,6}s?$")
# Capitalised words of requirement lines that are no technology: degrees, documents, places of the world, months.
_NOT_TERMS = frozenset({
    "bsc", "msc", "phd", "ba", "ma", "mba", "cv", "cvs", "eu", "usa", "uk", "us", "emea", "apac", "latam", "ceo",
    "cto", "cfo", "vp", "hr", "kpi", "kpis", "okr", "okrs", "faq", "tbd", "asap", "etc", "gdpr", "soc", "iso", "eng",
    "dei", "api", "sdk", "ui", "ux", "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
    "saturday", "sunday",
})  # fmt: skip


def unrecognised_terms(text: str, lines: list[Line], found: list[Found]) -> list[str]:
    """The technology-looking terms of the lines under required or preferred headings that no skill covers, as first
    written, in text order, each once, at most ``MAX_UNRECOGNISED``."""
    covered = sorted((item.match.start, item.match.end) for item in found)
    terms: dict[str, str] = {}  # casefolded -> as first written
    index = 0
    for line in lines:
        if line.role == MENTIONED:
            continue
        start = line.bullet_end if line.bullet_end is not None else line.start
        for match in _TERM_RE.finditer(text, start, line.end):
            while index < len(covered) and covered[index][1] <= match.start():
                index += 1
            if index < len(covered) and covered[index][0] < match.end():
                continue  # a skill found here
            term = match.group().rstrip(".-")
            if term.casefold() not in terms and _looks_technical(text, term, match.start(), start):
                terms[term.casefold()] = term
                if len(terms) == MAX_UNRECOGNISED:
                    return list(terms.values())
    return list(terms.values())


def _looks_technical(text: str, term: str, position: int, line_start: int) -> bool:
    word = term.casefold()
    if word in _NOT_TERMS or word.removesuffix("s") in _NOT_TERMS or not 2 <= len(term) <= MAX_TERM_CHARS:
        return False
    if is_language_name(term):
        return False
    if _MIXED_CASE_RE.match(term) or (any(c.isdigit() for c in term) and any(c.isalpha() for c in term)):
        return True
    if _ACRONYM_RE.match(term):
        return word_count(word) < RARE_WORD_COUNT
    if not term[:1].isupper() or not term[1:].islower():
        return False
    before = text[max(line_start, position - 3) : position]
    mid_sentence = position > line_start and before[-1:] == " " and before[-2:-1] not in ".!?:"
    return mid_sentence and word_count(word) < RARE_WORD_COUNT
