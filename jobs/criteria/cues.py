"""What a sentence says about the skills in it: cues for required and preferred, negations, migrations and
substitutes, each bound to its sentence and clause."""

from __future__ import annotations

import functools
import itertools
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from jobs.criteria.mentions import Found
from jobs.criteria.result import (
    MENTIONED,
    MIGRATED,
    NEGATED,
    NOT_A_SKILL,
    ONLY_MENTIONED,
    PREFERRED,
    REQUIRED,
    REQUIRED_BASIC,
    REQUIRED_STRONG,
    SUBSTITUTE,
)
from jobs.criteria.sections import Line

_SENTENCE_END_RE = re.compile(r"(?<=[.!?;])\s+|\n")
_CLAUSE_END_RE = re.compile(r"[,;.!?()\n]|\s(?:but|although|though|while|whereas)\s")

_PREFERRED_CUE_RE = re.compile(
    r"\b(?:nice[- ]to[- ]have|(?:is|are|a|as a|would be a) (?:big |huge |great |real |definite )?(?:plus|bonus)|"
    r"bonus (?:points?|if)|welcome[ds]?|useful|beneficial|not essential|not required|not a must|not mandatory|"
    r"ideally|preferred|preferably|advantage|advantageous|"
    r"an asset|desirable|helpful|would be great|great if|optional|appreciated|even better|good to have|would help|"
    r"is a bonus|counts? in your favou?r)\b"
)
_REQUIRED_CUE_RE = re.compile(
    r"\b(?:we(?:'re| are) (?:looking for|seeking|after)|looking for someone|you should|you must|must|"
    r"(?:is|are) required|required|essential|you(?:'ll| will)? need|we need|you have|you bring|you know|"
    r"you(?:'ve| have) (?:shipped|built|worked)|strong (?:experience|knowledge|background)|proven|"
    r"hands-on experience|experience (?:with|in|of)|years of|demonstrable|mandatory|a must|requires|"
    r"skills should be|should be (?:strong|proficient|skilled|fluent|experienced|good|comfortable) (?:in|with|at)|"
    r"(?:is|are) (?:an? )?(?:implicit |hard |key |firm )?requirement)\b"
)
_STRONG_CUE_RE = re.compile(r"\b(?:deep|strong|expert|extensive|advanced|in-depth|solid|fluent|excellent)\b")
# A requirement with a lower bar: the skills named after one of these in their sentence.
_BASIC_CUE_RE = re.compile(
    r"\b(?:familiar(?:ity)?\s+with|(?:some\s+)?exposure\s+to|exposed\s+to|acquainted\s+with|awareness\s+of|"
    r"(?:basic|working|some|general|passing)\s+(?:knowledge|understanding|familiarity|grasp)(?:\s+(?:of|with|in))?)\b"
)
# A sentence about other people's work: the team's past employers, the founders' products, investors, customers.
# The skills after such a cue in a sentence that does not turn to the candidate are no criteria.
_OTHERS_CUE_RE = re.compile(
    r"\b(?:alumni|founders?|co-?founders?|founded by|investors?|backed by|trusted by|customers|clients|partners|"
    r"previously (?:at|worked at)|formerly (?:at|of))\b"
)
_CANDIDATE_RE = re.compile(r"\b(?:you|your|you'll|you've|you're|candidates?)\b")
_CUE_REACH = 80  # how far before a skill its sentence's "strong" or "familiarity with" may stand

_NEGATION_RE = re.compile(
    r"\b(?:no|not|never|don't|do not|doesn't|does not|won't|will not|isn't|aren't|needn't|neither|nor|"
    r"no longer|nothing to do with)\b(?![- ](?:only|just|merely|afraid|scared|shy|limited)\b)"
)
# Matched at a skill's end (``match(folded, end, sentence_end)``), not searched.
_NEGATION_AFTER_RE = re.compile(
    r"[^,;.!?\n]{0,12}?\b(?:(?:is|are)\s+)?(?:not (?:needed|used|necessary|wanted|acceptable|accepted)|"
    r"isn't (?:needed|used|acceptable)|"
    r"no longer (?:used|needed)|(?:is|are)n't part of|not part of)\b"
)
_MIGRATION_RE = re.compile(
    r"\b(?:mov(?:e|es|ing) (?:away )?(?:off|from)|migrat(?:e|es|ing|ion) (?:away )?(?:off|from)|"
    r"switch(?:es|ing)? (?:away )?(?:off|from)|replac(?:e|es|ing)|retir(?:e|es|ing)|sunsett?ing|"
    r"phas(?:e|es|ing) out|deprecat(?:e|es|ed|ing)|getting rid of|legacy|decommission(?:ing)?)\b"
)
_MIGRATION_TARGET_RE = re.compile(r"\b(?:to|into|onto|with|by|for|towards?|in favou?r of)\b")
# Matched at a skill's end too. The spaces are possessive (what follows them is a word): a long run of spaces is read
# once, not once per way of splitting it between ``\s+`` and ``\s*``.
_MIGRATION_AFTER_RE = re.compile(
    r"[^.;!?\n]{0,80}?\b(?:that|which|we)\s++(?:we\s++)?(?:are|'re|will be|'ll be|are being|is being|is|are now)?\s*+"
    r"(?:retiring|replacing|phasing out|moving (?:away )?(?:off|from)|migrating (?:away )?(?:off|from)|"
    r"sunsetting|deprecating|switching off|decommissioning|getting rid of)\b"
)
# The verbs of _MIGRATION_AFTER_RE, anywhere (no word boundary): a sentence without one has no skill it drops.
_MIGRATION_VERB_RE = re.compile(
    r"retiring|replacing|phasing out|moving|migrating|sunsetting|deprecating|switching off|decommissioning|"
    r"getting rid of"
)
_SUBSTITUTE_RE = re.compile(
    r"\bor (?:another|a similar|similar|any other|an equivalent|equivalent|comparable|some other|other)\b"
)


# The field of a degree is no skill ("a degree in Mathematics or Data Science"): from "in"/"of" after the degree to
# where the field's list ends.
_DEGREE_RE = re.compile(
    r"\b(?:degree|bachelor(?:'?s)?|master(?:'?s)?|b\.?sc|m\.?sc|b\.?s|m\.?s|b\.?a|m\.?a|b\.?eng|m\.?eng|ph\.?d|"
    r"doctorate|diploma|studies|studied|majored|graduated?)\b[^.;\n]{0,25}?\b(?:in|of)\s"
)
_FIELD_END_RE = re.compile(
    r"[.;:(\n]|\b(?:with|including|plus|e\.g|such as|experience|years?|you|where|which|who)\b|"
    r"\band\s+(?:\d|a\b|an\b|strong|solid|proven|hands-on|some|good)"
)


@dataclass(slots=True)
class _Sentence:
    """What ``place_in_section`` asks of one sentence, each found in one pass over it: the ends of its clause
    boundaries, the spans of its migration cues, of their targets and of its substitutes (each list in text order),
    and whether a preferred or a required cue stands in it."""

    clause_ends: list[int]
    migration_ends: list[int]
    target_starts: list[int]
    target_ends: list[int]
    substitute_starts: list[int]
    substitute_ends: list[int]
    preferred_cue: bool
    required_cue: bool
    strong_cue: bool  # somewhere in the sentence: whether to look before each skill
    basic_cue: bool  # "familiarity with", "exposure to" somewhere in the sentence
    others_start: int | None  # where a cue of other people's work starts, when the sentence has one and no "you"
    migration_verb: bool  # "retiring", "replacing"...: whether _MIGRATION_AFTER_RE can match after any skill
    scopes: _Scopes | None  # where a preferred cue binds, when the sentence has one
    degree_starts: list[int]  # the spans of the fields of degrees ("in Mathematics or Physics")
    degree_ends: list[int]

    def preferred_at(self, position: int) -> bool:
        """Whether a preferred cue binds the skill at ``position``: one in its brackets, or in its clause."""
        return self.scopes is not None and self.scopes.preferred_at(position)


@dataclass(slots=True)
class _Scopes:
    """The clauses of a sentence (split at ";", a dash, ", and", "but"...; brackets set aside) and its bracketed
    groups, each with whether a preferred cue stands in it. A cue binds to its clause, not the whole sentence:
    "mainly Python, and ideally also C" prefers only C; "Python (Java and Kotlin are a plus)" keeps Python."""

    clause_starts: list[int]
    clause_preferred: list[bool]
    bracket_starts: list[int]
    bracket_ends: list[int]
    bracket_preferred: list[bool]

    def preferred_at(self, position: int) -> bool:
        index = bisect_right(self.bracket_starts, position) - 1
        if index >= 0 and position < self.bracket_ends[index] and self.bracket_preferred[index]:
            return True
        index = bisect_right(self.clause_starts, position) - 1
        return index >= 0 and self.clause_preferred[index]


_SCOPE_BREAK_RE = re.compile(
    r";|\s[\u2013\u2014-]\s|,\s*(?:and(?! so\b| also\b| too\b)|but|while|whereas|though|although)\s|"
    r"\s(?:but|while|whereas|though|although)\s"
)
_BRACKETS_RE = re.compile(r"\([^()\n]{0,200}\)")
# Words that make a bracket's skills preferred there and only there: "C (C++ nice)", "Go (Rust a plus)".
_BRACKET_CUE_RE = re.compile(r"\b(?:nice|plus|bonus|optional)\b")
# What a bracket holds besides its cue when it only qualifies what stands before it: "Kafka (a plus)".
_CUE_ONLY_RE = re.compile(r"^[\s(),.!:;-]*(?:(?:is|are|would|be|a|an|very|big|huge|real|also|definitely|considered|"
                          r"as|strongly|but|not|required)\b[\s,.!-]*)*[\s()]*$")  # fmt: skip


def _scopes(folded: str, start: int, end: int) -> _Scopes:
    brackets = [match.span() for match in _BRACKETS_RE.finditer(folded, start, end)]
    outer = folded[start:end]
    if brackets:  # the brackets blanked out, offsets kept: a cue inside them is not the clause's
        chars = list(outer)
        for low, high in brackets:
            chars[low - start : high - start] = " " * (high - low)
        outer = "".join(chars)
    bounds = [0, *(match.end() for match in _SCOPE_BREAK_RE.finditer(outer)), len(outer)]
    clause_starts = [start + low for low in bounds[:-1]]
    clause_preferred = [
        _PREFERRED_CUE_RE.search(outer, low, high) is not None for low, high in itertools.pairwise(bounds)
    ]
    bracket_preferred = []
    for low, high in brackets:
        cue = _PREFERRED_CUE_RE.search(folded, low, high)
        bracket_preferred.append(cue is not None or _BRACKET_CUE_RE.search(folded, low, high) is not None)
        if cue is not None and _CUE_ONLY_RE.match(folded[low : cue.start()] + folded[cue.end() : high]):
            clause = bisect_right(clause_starts, low) - 1  # "Kafka (a plus)": the cue is its clause's
            clause_preferred[clause] = True
    return _Scopes(
        clause_starts, clause_preferred, [low for low, _ in brackets], [high for _, high in brackets], bracket_preferred
    )


class Sentences:
    """The sentences of a text and what is in them, each line and each sentence scanned once however many skills it
    names: a mention looks up its own by bisection, so that reading a text stays linear in its length."""

    __slots__ = ("_lines", "_sentences", "folded", "text")

    def __init__(self, text: str, folded: str) -> None:
        self.text = text  # the written case, which tells a field's capitalised words
        self.folded = folded
        self._lines: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        self._sentences: dict[tuple[int, int], _Sentence] = {}

    def bounds(self, line: Line, position: int) -> tuple[int, int]:
        """The sentence of ``line`` around ``position``: from the end of the last sentence boundary before it (or the
        line's text) to the start of the first after it (or the line's end)."""
        scan_start = line.bullet_end if line.bullet_end is not None else line.start
        key = (scan_start, line.end)
        if (boundaries := self._lines.get(key)) is None:
            spans = [match.span() for match in _SENTENCE_END_RE.finditer(self.folded, scan_start, line.end)]
            boundaries = self._lines[key] = ([start for start, _ in spans], [end for _, end in spans])
        starts, ends = boundaries
        before = bisect_right(ends, position)
        after = bisect_left(starts, position)
        return (ends[before - 1] if before else scan_start), (starts[after] if after < len(starts) else line.end)

    def sentence(self, start: int, end: int) -> _Sentence:
        if (found := self._sentences.get((start, end))) is None:
            folded = self.folded
            targets = [match.span() for match in _MIGRATION_TARGET_RE.finditer(folded, start, end)]
            substitutes = [match.span() for match in _SUBSTITUTE_RE.finditer(folded, start, end)]
            text = folded[start:end]
            found = self._sentences[(start, end)] = _Sentence(
                clause_ends=[match.end() for match in _CLAUSE_END_RE.finditer(folded, start, end)],
                migration_ends=[match.end() for match in _MIGRATION_RE.finditer(folded, start, end)],
                target_starts=[span[0] for span in targets],
                target_ends=[span[1] for span in targets],
                substitute_starts=[span[0] for span in substitutes],
                substitute_ends=[span[1] for span in substitutes],
                preferred_cue=_PREFERRED_CUE_RE.search(text) is not None,
                required_cue=_REQUIRED_CUE_RE.search(text) is not None,
                strong_cue=_STRONG_CUE_RE.search(text) is not None,
                migration_verb=_MIGRATION_VERB_RE.search(text) is not None,
                basic_cue=_BASIC_CUE_RE.search(text) is not None,
                others_start=start + others.start()
                if (others := _OTHERS_CUE_RE.search(text)) and not _CANDIDATE_RE.search(text)
                else None,
                scopes=_scopes(folded, start, end)
                if _PREFERRED_CUE_RE.search(text) or ("(" in text and _BRACKET_CUE_RE.search(text))
                else None,
                **_degree_fields(self.text, folded, start, end),
            )
        return found


# The field written before the word: "a Physics or Data Science degree", "Data Science degree preferred". It is the
# short run of words directly before it: capitalised ones joined by "or" (a comma, "and", a dash, a slash or a
# lower-case word ends it, so "Python, SQL, BSc degree" and "Python developer without degree" name no field), or, opened
# by an article, any words with their commas ("a Data Science, Statistics or Computer Science degree", "a computer
# science degree"). Words like "related" or "BSc" between the field and the word are no field. No field stands before
# the word when one follows it ("Java, Spring, degree in Computer Science": that is _DEGREE_RE's).
_DEGREE_WORD_RE = re.compile(r"\b(?:degree|degrees|diploma)\b(?! (?:of|to|in|in which)\b)")  # not "a degree of scale"
_FIELD_WORD_RE = re.compile(r"(,?)[ \t]+([\w'+#.]+)[ \t]*$")
_FIELD_FIRST_WORD_RE = re.compile(r"([\w'+#.]+)[ \t]*")
_FIELD_JOINERS = frozenset({"or", "and"})
_FIELD_ARTICLES = frozenset({"a", "an"})
_DEGREE_QUALIFIERS = frozenset(
    {"related", "relevant", "equivalent", "similar", "technical", "quantitative", "university", "college", "academic",
     "bachelor", "bachelor's", "bachelors", "master", "master's", "masters", "bsc", "msc", "bs", "ms", "ba", "ma",
     "beng", "meng", "phd", "b.sc", "m.sc", "b.s", "m.s", "undergraduate", "graduate", "postgraduate", "4-year",
     "four-year", "formal"}
)  # fmt: skip
_FIELD_MAX_WORDS = 8
# Words that tell a phrase from a field: "a strong background in Python and a CS degree".
_NO_FIELD_WORDS = frozenset(
    {"in", "of", "with", "for", "on", "to", "at", "by", "from", "using", "experience", "background", "knowledge",
     "years", "year", "skills", "plus", "ideally", "preferably", "have", "has", "hold", "holding", "having"}
)  # fmt: skip


def _field_before(text: str, folded: str, start: int, degree: int) -> int:
    """Where the field written directly before the word degree at ``degree`` starts (``degree`` when there is none)."""
    words: list[tuple[int, str, bool, bool]] = []  # (start, folded word, capitalised, a comma before it)
    position = degree
    low = max(start, degree - 120)
    while len(words) < _FIELD_MAX_WORDS + 2:
        if (word := _FIELD_WORD_RE.search(folded, low, position)) is not None:
            word_start, comma, position = word.start(2), bool(word.group(1)), word.start()
        elif first := _FIELD_FIRST_WORD_RE.fullmatch(folded, low, position):  # the sentence's first word
            word_start, comma = low, False
        else:
            break
        words.append((word_start, (word or first).group(2 if word else 1), text[word_start].isupper(), comma))
        if word is None or words[-1][1] in _FIELD_ARTICLES:
            break
    if words and words[-1][1] in _FIELD_ARTICLES:  # "a ... degree": the words after the article, commas and all
        field = words[:-1]
        while field and (field[0][1] in _DEGREE_QUALIFIERS or field[0][1] in _FIELD_JOINERS):
            field.pop(0)
        if field and not any(w[1] in _NO_FIELD_WORDS for w in field):
            return field[-1][0]
    field_start = degree
    seen_field = False
    for word_start, word, capitalised, comma_before in words:
        if (word in _DEGREE_QUALIFIERS and not seen_field) or (word == "or" and seen_field):
            pass  # "Data Science or related degree": between the field and the word, or inside the field
        elif not capitalised or word in _DEGREE_QUALIFIERS:
            break
        else:
            field_start, seen_field = word_start, True
        if comma_before:
            break
    return field_start


def _degree_fields(text: str, folded: str, start: int, end: int) -> dict[str, list[int]]:
    spans = []
    for degree in _DEGREE_RE.finditer(folded, start, end):
        reach = min(end, degree.end() + 120)  # a field is a few words: its search stays short
        field_end = _FIELD_END_RE.search(folded, degree.end(), reach)
        spans.append((degree.end(), field_end.start() if field_end else reach))
    for degree in _DEGREE_WORD_RE.finditer(folded, start, end):
        if (field_start := _field_before(text, folded, start, degree.start())) < degree.start():
            spans.append((field_start, degree.start()))
    spans.sort()
    starts: list[int] = []
    ends: list[int] = []
    for low, high in spans:  # merged: a field's lookup is a bisection over spans that do not overlap
        if ends and low <= ends[-1]:
            ends[-1] = max(ends[-1], high)
        else:
            starts.append(low)
            ends.append(high)
    return {"degree_starts": starts, "degree_ends": ends}


def first_within(starts: list[int], ends: list[int], low: int, high: int) -> bool:
    """Whether one of the spans (in text order, none overlapping) lies within [low, high)."""
    index = bisect_left(starts, low)
    return index < len(starts) and ends[index] <= high


@functools.lru_cache(maxsize=4096)
def _negation_before(before: str) -> bool:
    return _NEGATION_RE.search(before) is not None


def place_in_section(folded: str, sentences: Sentences, item: Found) -> None:
    start, end = item.match.start, item.match.end
    sentence_start, sentence_end = sentences.bounds(item.line, start)
    sentence = sentences.sentence(sentence_start, sentence_end)
    clauses = bisect_right(sentence.clause_ends, start)
    clause_start = sentence.clause_ends[clauses - 1] if clauses else sentence_start
    if _negation_before(folded[max(clause_start, start - 60) : start]) or _NEGATION_AFTER_RE.match(
        folded, end, sentence_end
    ):
        item.dropped = NEGATED
        return
    migrations = bisect_right(sentence.migration_ends, start)  # the nearest cue before the skill
    if migrations and not first_within(
        sentence.target_starts, sentence.target_ends, sentence.migration_ends[migrations - 1], start
    ):
        item.dropped = MIGRATED
        return
    if sentence.migration_verb and _MIGRATION_AFTER_RE.match(folded, end, sentence_end):
        item.dropped = MIGRATED
        return
    if first_within(sentence.substitute_starts, sentence.substitute_ends, clause_start, start):
        item.dropped = SUBSTITUTE
        return
    degree = bisect_right(sentence.degree_starts, start) - 1
    if degree >= 0 and start < sentence.degree_ends[degree]:
        item.dropped = NOT_A_SKILL  # the field of a degree
        return
    role = item.line.role
    if role == MENTIONED and sentence.others_start is not None and sentence.others_start < start:
        item.dropped = ONLY_MENTIONED  # "our engineers include the founders of RabbitMQ": someone else's work
        return
    if sentence.preferred_at(start):
        role = PREFERRED
    elif role == MENTIONED and sentence.required_cue:
        role = REQUIRED
    item.role = role
    if role != REQUIRED:
        return
    reach = max(sentence_start, start - _CUE_REACH)
    strong = sentence.strong_cue and _last_end(_STRONG_CUE_RE, folded, max(sentence_start, start - 40), start)
    basic = sentence.basic_cue and _last_end(_BASIC_CUE_RE, folded, reach, start)
    if strong > basic:
        item.role = REQUIRED_STRONG
    elif basic:
        item.role = REQUIRED_BASIC  # "familiarity with Docker": required, at a lower minimum


def _last_end(pattern: re.Pattern, folded: str, low: int, high: int) -> int:
    """Where the last match of ``pattern`` in [low, high) ends, 0 when there is none: the nearest cue decides."""
    return max((match.end() for match in pattern.finditer(folded, low, high)), default=0)
