"""A job description read into search criteria: ``extract_criteria(text, vocabulary) -> Criteria``. Pure: the
vocabulary (``profiles.selectors.skill_vocabulary()``) and the cities come from the caller; no database, no network.

How the text is read (the README's "Job criteria from text" says the same for recruiters):

1. **Skills** are the vocabulary's aliases found by one Aho-Corasick automaton (``jobs.matching``): multi-word,
   punctuation-aware (C++17, .NET 8, Node.js, CI/CD), longest match first, versions kept with their name.
2. **Ambiguous words** count only in a technical context. A match is ambiguous when it is one letter (C, R), when
   the issue names it (Go, React, Spark, Rust, Swift, Dart, Elm, Chef, Puppet, Ruby, Scheme...), or when its alias
   is one common English word (ten million web occurrences or more in wordsegment's table: move, reason, help,
   console, database, payments). It counts when nothing speaks against it and something speaks for it:
   - against: an idiom ("go to market", "R&D", "react quickly", "spark joy", "guard rails", "pension scheme"); a
     person's name (capitalised next to another capitalised word that is no skill: "Ruby Okonkwo", "Taylor Swift");
     lower case ("fluent in C++", "the reason we are hiring"), unless a cue, a version or a list says otherwise;
   - for: a version after it ("R 4.4", "Go 1.22"); a cue right before it ("experience with", "in", "using",
     "fluent", "years of"); a neighbouring skill with only list punctuation between (commas, slashes, "and", "or",
     "+"), or another ambiguous one that stands ("Chef or Puppet"); heading a list item ("- Payments, banking",
     "Must have: Elm", and in a requirements list "- Spark for the big joins"); a capital in mid-sentence after a
     lower-case word ("services in Go"; Title Case headings do not count). One letter needs the capital and one
     of the first four. Once a skill has a strong context in the text, its other capitalised mentions count too.
   - against, too: a noun phrase ending in it after "our", "the", "a" ("our old API.", "the reason."). A name of
     several words ("Apache Spark", "Ruby on Rails") is never ambiguous.
   - Human languages (English, Polish, Spanish: ``core.languages.is_language_name``) are never skills.
3. **Sections** decide required or preferred. Headings ("Requirements", "What you'll need", "You have", "Must
   have" -> required; "Nice to have", "Bonus", "Preferred", "Plus" -> preferred; any other heading, the heading
   block and the prose before the first heading -> a mere mention) set the default for their lines; cues in a
   sentence override it ("... is a plus", "would be useful", "is welcome" -> preferred; "we are looking for", "you
   should", "must" -> required, where the section said nothing). A skill asked for anywhere is required, else
   preferred if preferred anywhere. Skills only mentioned (what the team does, what another squad builds) are no
   criteria when the text asks for anything at all; when it asks for nothing, every skill named is required.
4. **Negations and migrations** drop a skill's mention: "we don't use Unity", "no Java needed", "you will not write
   PHP", "we are moving off PHP" (the target of "moving off X to Y" stays), "Perl scripts that we are retiring",
   "Legacy: ..."; so do substitutes ("Stripe or another payments API", "RenderDoc or a similar GPU tool"). They go
   to ``Criteria.ignored`` with the reason, never to ``excluded``: a team not using Unity is no reason to turn away
   people who know it. ``excluded`` is the recruiter's to fill.
5. **Years**: "5+ years", "at least three years", "8 or more years of professional experience", "2+ yrs"; the
   largest of those that speak of experience (in "7+ years, three of them in Kotlin" it is 7), never "10 years ago".
6. **Place and remote**: ``jobs.places``. **Keywords**: the seniority words of the title or of "we are hiring a
   senior ...", and the title's other words that are no skill and no generic role noun (engineer, developer).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field

from core.languages import is_language_name
from core.topics import word_count
from jobs import places
from jobs.matching import Match, find_skills, fold
from profiles.vocabulary import SkillVocabulary

__all__ = [
    "DEFAULT_MAX_CHARS",
    "DEFAULT_MIN_SCORE",
    "IGNORED_REASONS",
    "STRONG_MIN_SCORE",
    "Criteria",
    "CriteriaError",
    "Ignored",
    "checked_text",
    "extract_criteria",
]

DEFAULT_MAX_CHARS = 100_000  # a settings value will carry it; 100,000 characters is twenty pages of job post
DEFAULT_MIN_SCORE = 5  # a required skill's minimum score (0-10): an unqualified level reads as 5 in imports too
STRONG_MIN_SCORE = 7  # "deep", "strong", "expert" knowledge: the "Proficient" level of the import table

REQUIRED, PREFERRED, MENTIONED = "required", "preferred", "mentioned"
# Why a mention was left out of the criteria: the ``reason`` of an ``Ignored`` (and of the API's ``ignored`` items).
NEGATED, MIGRATED, SUBSTITUTE = "negated", "migrated-off", "substitute"
ONLY_MENTIONED, NOT_A_SKILL = "only-mentioned", "not-a-skill"
IGNORED_REASONS = (NEGATED, MIGRATED, SUBSTITUTE, ONLY_MENTIONED, NOT_A_SKILL)


class CriteriaError(ValueError):
    """A description that cannot be read at all (empty, too long, binary); the message says which."""


@dataclass(frozen=True, slots=True)
class Ignored:
    """A mention of a known skill that the criteria leave out, and why (one of ``IGNORED_REASONS``)."""

    label: str  # as the text wrote it ("Unity", "EQ")
    skill: str  # the slug it names, which a recruiter may add back
    reason: str

    def to_dict(self) -> dict:
        return {"label": self.label, "skill": self.skill, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Criteria:
    required: tuple[tuple[str, int], ...] = ()  # (slug, min_score)
    preferred: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    min_years_coding: int | None = None
    countries: tuple[str, ...] = ()  # ISO 3166-1 alpha-2
    remote: bool | None = None
    keywords: tuple[str, ...] = ()
    ignored: tuple[Ignored, ...] = ()  # named in the text but not taken, each with its reason
    unrecognised: tuple[str, ...] = ()  # technology-looking terms of requirement lines that the vocabulary lacks
    warnings: tuple[str, ...] = field(default=())

    @property
    def skills(self) -> tuple[str, ...]:
        return tuple(slug for slug, _ in self.required) + self.preferred

    def to_dict(self) -> dict:
        """The API's ``criteria`` object (issue 16's contract)."""
        return {
            "required": [{"skill": slug, "min_score": score} for slug, score in self.required],
            "preferred": [{"skill": slug} for slug in self.preferred],
            "excluded": list(self.excluded),
            "min_years_coding": self.min_years_coding,
            "countries": list(self.countries),
            "remote": self.remote,
            "keywords": list(self.keywords),
            "ignored": [item.to_dict() for item in self.ignored],
            "unrecognised": list(self.unrecognised),
        }


# --- Input checks -----------------------------------------------------------------------------------------------------

_BAD_CHARACTER_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")  # controls but tab and newlines


def checked_text(text: object, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """``text`` as the extractor reads it (NFC, newlines as ``\\n``); ``CriteriaError`` for text it cannot read
    (empty, longer than ``max_chars``, bytes or another type, control characters): every check of
    ``extract_criteria`` and none of its reading, for a caller that only needs to know a description is acceptable."""
    if isinstance(text, bytes | bytearray | memoryview):
        raise CriteriaError("The description must be text, not bytes.")
    if not isinstance(text, str):
        raise CriteriaError(f"The description must be text, not {type(text).__name__}.")
    if len(text) > max_chars:
        raise CriteriaError(f"The description is {len(text):,} characters long; at most {max_chars:,} are read.")
    if not text.strip():
        raise CriteriaError("The description is empty.")
    if bad := _BAD_CHARACTER_RE.search(text):
        position, char = bad.start(), bad.group()
        if "\ud800" <= char <= "\udfff":
            raise CriteriaError(f"The description holds a broken character at character {position + 1}.")
        raise CriteriaError(
            f"The description holds a control character (U+{ord(char):04X} at character {position + 1}): "
            "is it a binary file? Paste the text of the job post."
        )
    return unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")


# --- Lines, headings and sentences ------------------------------------------------------------------------------------

_BULLET_RE = re.compile(r"^\s*(?:[-*\u2022\u2023\u25e6\u2043\u2219\u00b7\u25aa\u25cf\u2013\u2014]|\d{1,2}[.)])\s+")
_PREFERRED_HEADING_RE = re.compile(
    r"^(?:nice[- ]to[- ]haves?|(?:(?:it'?s|it is|would be)\s+)?(?:a\s+)?(?:big\s+)?(?:plus(?:es)?|bonus(?:\s+points)?)"
    r"(?:\s+if(?:\s+you)?(?:\s+\w+)?)?|"
    r"bonus points?|preferred(?:\s+\w+)?|desirable(?:\s+\w+)?|good to have|even better|extra (?:credit|points)|"
    r"(?:it )?would be (?:great|nice)(?: if)?|optional|what would be a plus|brownie points|ideally(?:\s+\w+)?)$"
)
_REQUIRED_HEADING_RE = re.compile(
    r"^(?:(?:key |minimum |basic |essential |technical )?requirements?|required(?:\s+\w+)?|must[- ]haves?|"
    r"(?:what )?you(?:'ll)? (?:have|need|bring)|what you(?:'ll| will)? need|what we(?:'re| are) looking for|"
    r"what we look for|who you are|about you|you are|your (?:profile|skills|experience|background)|"
    r"(?:minimum |basic |required )?qualifications|skills(?: (?:and|&) experience)?|(?:the )?essentials?|"
    r"what we expect|we expect|you should have|what you bring|experience|ideal candidate|the ideal candidate)$"
)


_HEADING_MARKS_RE = re.compile(r"^[#\s*_]+|[*_]+")
_HEADING_END_RE = re.compile(r"[\s:!.]*")  # matched on the reversed text: the run of these that ends it


def _heading_text(line: str) -> str:
    line = _HEADING_MARKS_RE.sub("", line)
    return line[: len(line) - _HEADING_END_RE.match(line[::-1]).end()].strip().lower()


def _is_heading(line: str, next_line: str | None) -> bool:
    stripped = line.strip()
    if not stripped or _BULLET_RE.match(line) or len(stripped) > 60 or len(stripped.split()) > 8:
        return False
    if stripped.endswith(":") or stripped.startswith("#"):
        return True
    if stripped.endswith((".", ",", ";")):
        return False
    heading = _heading_text(stripped)
    if _PREFERRED_HEADING_RE.match(heading) or _REQUIRED_HEADING_RE.match(heading):
        return True
    return next_line is not None and next_line.strip() != "" and (stripped[:1].isupper() or stripped[:1].isdigit())


def _heading_role(heading: str) -> str:
    if _PREFERRED_HEADING_RE.match(heading):
        return PREFERRED
    if _REQUIRED_HEADING_RE.match(heading):
        return REQUIRED
    return MENTIONED


@dataclass(slots=True)
class _Line:
    start: int
    end: int
    role: str  # the section's default for its skills
    bullet_end: int | None  # where a list item's text starts (after its bullet), None when the line is no item


def _lines(text: str) -> tuple[list[_Line], int, list[tuple[int, int]]]:
    """The lines with their section roles, where the heading block ends, and the spans of place sections."""
    raw = text.split("\n")
    offsets, pos = [], 0
    for line in raw:
        offsets.append(pos)
        pos += len(line) + 1
    header_end = 0
    for index, line in enumerate(raw):  # the heading block: up to three lines before the first blank one
        if not line.strip() or index == 3 or len(line) > 150 or _BULLET_RE.match(line):
            break
        if _inline_heading(line) or _heading_role(_heading_text(line)) != MENTIONED or line.rstrip().endswith(":"):
            break
        header_end = offsets[index] + len(line)
    lines, role, place_spans, place_start = [], MENTIONED, [], None
    for index, line in enumerate(raw):
        start, end = offsets[index], offsets[index] + len(line)
        nxt = next((r for r in raw[index + 1 : index + 2]), None)
        if start >= header_end and _is_heading(line, nxt) and not _inline_heading(line):
            heading = _heading_text(line)
            role = _heading_role(heading)
            if place_start is not None:
                place_spans.append((place_start, start))
                place_start = None
            if places.is_place_heading(heading):
                place_start = start
            lines.append(_Line(start, end, MENTIONED, None))
            continue
        bullet = _BULLET_RE.match(line)
        line_role = MENTIONED if start < header_end else role
        item_start = start + bullet.end() if bullet else None
        if inline := _inline_heading(line):  # "Must have: Go, Kafka": the items start after the colon
            line_role = inline
            colon = line.index(":") + 1
            item_start = start + colon + len(line[colon:]) - len(line[colon:].lstrip())
        lines.append(_Line(start, end, line_role, item_start))
    if place_start is not None:
        place_spans.append((place_start, len(text)))
    return lines, header_end, place_spans


def _inline_heading(line: str) -> str | None:
    """The role of a line like "Must have: Go, Kafka" (a heading and its items on one line)."""
    head, colon, rest = line.partition(":")
    if not colon or not rest.strip() or len(head) > 40:
        return None
    heading = _heading_text(head)
    if _PREFERRED_HEADING_RE.match(heading):
        return PREFERRED
    if _REQUIRED_HEADING_RE.match(heading):
        return REQUIRED
    return None


_SENTENCE_END_RE = re.compile(r"(?<=[.!?;])\s+|\n")
_CLAUSE_END_RE = re.compile(r"[,;.!?()\n]|\s(?:but|although|though|while|whereas)\s")

_PREFERRED_CUE_RE = re.compile(
    r"\b(?:nice[- ]to[- ]have|(?:is|are|a|as a|would be a) (?:big )?(?:plus|bonus)|bonus (?:points?|if)|welcome[ds]?|"
    r"useful|not essential|not required|not a must|not mandatory|ideally|preferred|preferably|advantage|advantageous|"
    r"an asset|desirable|helpful|would be great|great if|optional|appreciated|even better|good to have|would help|"
    r"is a bonus|counts? in your favou?r)\b"
)
_REQUIRED_CUE_RE = re.compile(
    r"\b(?:we(?:'re| are) (?:looking for|seeking|after)|looking for someone|you should|you must|must|"
    r"(?:is|are) required|required|essential|you(?:'ll| will)? need|we need|you have|you bring|you know|"
    r"you(?:'ve| have) (?:shipped|built|worked)|strong (?:experience|knowledge|background)|proven|"
    r"hands-on experience|experience (?:with|in|of)|years of|demonstrable)\b"
)
_STRONG_CUE_RE = re.compile(r"\b(?:deep|strong|expert|extensive|advanced|in-depth|solid|fluent|excellent)\b")

_NEGATION_RE = re.compile(
    r"\b(?:no|not|never|don't|do not|doesn't|does not|won't|will not|isn't|aren't|needn't|neither|nor|"
    r"no longer|nothing to do with)\b(?![- ](?:only|just|merely)\b)"
)
# Matched at a skill's end (``match(folded, end, sentence_end)``), not searched.
_NEGATION_AFTER_RE = re.compile(
    r"[^,;.!?\n]{0,12}?\b(?:(?:is|are)\s+)?(?:not (?:needed|used|necessary|wanted)|isn't (?:needed|used)|"
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


# --- Ambiguous words --------------------------------------------------------------------------------------------------

# The ambiguous words and a few more that read as English or as names; with the common-English-word rule
# (ten million web occurrences) they need a technical context.
AMBIGUOUS_SLUGS = frozenset(
    {
        "go",
        "r",
        "c",
        "d",
        "react",
        "spark",
        "rust",
        "swift",
        "dart",
        "elm",
        "chef",
        "puppet",
        "ruby",
        "scheme",
        "move",
        "reason",
        "fluent",
        "rails",
        "julia",
        "crystal",
        "pascal",
        "ada",
        "io",
        "pony",
        "red",
        "pure",
        "clean",
        "self",
        "factor",
        "boo",
        "ring",
        "nit",
        "slash",
        "unity",
        "salt",
        "vault",
        "consul",
        "nomad",
        "helm",
        "express",
        "next",
        "ember",
        "meteor",
        "backbone",
        "electron",
        "ionic",
        "flask",
        "celery",
        "storm",
        "beam",
        "hive",
        "pig",
        "jest",
        "mocha",
        "jasmine",
        "karma",
        "gulp",
        "grunt",
        "ant",
        "make",
        "berry",
        "help",
        "batchfile",
        "console",
    }
)
COMMON_WORD_COUNT = 10_000_000

_IDIOM_BEFORE_RE = re.compile(
    r"(?:\bguard|\bpension|\bbonus|\bcycle[- ]to[- ]work|\bshare|\bsavings|\bhead|\bsous|\bseries|\bvitamin|\bplan|"
    r"\bmr\.?|\bmrs\.?|\bms\.?|\bdr\.?|\bon the|\blet|\bready to|\bto|\bhow to)\s$"
)
_IDIOM_AFTER_RE = re.compile(
    r"^(?:[&-]|\s&|\s?-?\s?(?:to[- ]market|live\b|to\b|through|beyond|above|ahead|wrong|far\b|for it|getter|suite|"
    r"level\b|quickly|fast\b|swiftly|calmly|joy\b|curiosity|interest\b|ideas?\b|conversations?|a\b|an\b|the\b|out\b|"
    r"into\b|on\b|off\b|with\b|around\b|about\b|'s\b))"
)
_CUE_BEFORE_RE = re.compile(
    r"\b(?:with|in|using|use|uses|need|needs|of|fluent|fluency|proficient|proficiency|know|knows|knowledge|write|writing|"
    r"written|code|coding|program|programming|modern|strong|solid|expert|experienced|experience|like|including|"
    r"build|building|develop|developing|maintain|maintaining|design|designing|debug|debugging|background in|"
    r"on|years|yrs|e\.g\.|eg|such as)\s+$"
)
_HEAD_USE_RE = re.compile(r" (?:for|in|with|experience|knowledge|skills|development|programming|expertise)\b")
_THING_BEFORE_RE = re.compile(
    r"\b(?:our|your|their|its|the|this|that|an?)\s+(?:(?:old|new|own|current|internal|public|main|first)\s+)?$"
)
# What follows a skill that heads its list item: the line's end (the end of that line, not of the text: "- Go\n-
# Python"), a punctuation mark, or "or"/"and" and another.
_HEADS_ITEM_RE = re.compile(r"[ \t]*(?:\r?\n|$)|[.,;:(]|\s(?:or|and)\b")
_PHRASE_END_RE = re.compile(r"\s*(?:$|[.,;:!?)\n])")
_LIST_GAP_RE = re.compile(r"^(?:\s*(?:,|/|\+|&|;|\band\b|\bor\b|\band/or\b)\s*)+$|^\s*/\s*$")


def _is_common_word(surface: str) -> bool:
    word = surface.lower()
    return word.isascii() and word.isalpha() and word_count(word) >= COMMON_WORD_COUNT


@dataclass(slots=True)
class _Found:
    match: Match
    surface: str  # as written, without its version
    line: _Line
    ambiguous: bool
    role: str = MENTIONED
    dropped: str | None = None


class _Words:
    """The text's words (runs of non-space characters), found once, so that the word before a position is a
    bisection away however long its line; and where the skills found start and end."""

    __slots__ = ("_ends", "_starts", "skill_ends", "skill_starts", "text")

    def __init__(self, text: str, found: list[_Found]) -> None:
        self.text = text
        self.skill_starts = {item.match.start for item in found}
        self.skill_ends = {item.match.end for item in found}
        self._starts: list[int] | None = None
        self._ends: list[int] = []

    def last_before(self, position: int, floor: int) -> tuple[int, int] | None:
        """The span of the last word before ``position``, cut at ``floor`` and at ``position``; None when only
        spaces lie between them."""
        if self._starts is None:
            spans = [match.span() for match in _WORD_RE.finditer(self.text)]
            self._starts, self._ends = [start for start, _ in spans], [end for _, end in spans]
        index = bisect_left(self._starts, position) - 1
        if index < 0:
            return None
        end = min(self._ends[index], position)
        if end <= floor:
            return None
        return max(self._starts[index], floor), end


_WORD_RE = re.compile(r"\S+")


@dataclass(slots=True)
class _Sentence:
    """What ``_place_in_section`` asks of one sentence, each found in one pass over it: the ends of its clause
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
    migration_verb: bool  # "retiring", "replacing"...: whether _MIGRATION_AFTER_RE can match after any skill


class _Sentences:
    """The sentences of a text and what is in them, each line and each sentence scanned once however many skills it
    names: a mention looks up its own by bisection, so that reading a text stays linear in its length."""

    __slots__ = ("_lines", "_sentences", "folded")

    def __init__(self, folded: str) -> None:
        self.folded = folded
        self._lines: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        self._sentences: dict[tuple[int, int], _Sentence] = {}

    def bounds(self, line: _Line, position: int) -> tuple[int, int]:
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
            )
        return found


def _first_within(starts: list[int], ends: list[int], low: int, high: int) -> bool:
    """Whether one of the spans (in text order, none overlapping) lies within [low, high)."""
    index = bisect_left(starts, low)
    return index < len(starts) and ends[index] <= high


# --- The extractor ----------------------------------------------------------------------------------------------------


def extract_criteria(
    text: str,
    vocabulary: SkillVocabulary,
    *,
    cities: Mapping[str, str] | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
) -> Criteria:
    """The criteria a job description asks for (the module docstring gives the rules).

    ``cities``: city name -> ISO alpha-2 (the database's cities; none by default). Raises ``CriteriaError`` for text
    that cannot be read (empty, longer than ``max_chars``, control characters); a text with no skill is no error:
    its criteria say so in ``warnings``.
    """
    text = checked_text(text, max_chars)
    folded = fold(text)
    lines, header_end, place_spans = _lines(text)
    found = _found_skills(text, folded, lines, vocabulary)
    required, preferred, ignored, warnings = _decide(found)
    return Criteria(
        required=tuple(required),
        preferred=tuple(preferred),
        min_years_coding=_min_years(folded, lines),
        countries=tuple(
            places.job_countries(text, folded, header_end=header_end, place_spans=place_spans, cities=cities)
        ),
        remote=places.job_remote(folded, header_end=header_end),
        keywords=tuple(_keywords(text, folded, header_end, {f.match.slug for f in found}, cities)),
        ignored=tuple(ignored),
        warnings=tuple(warnings),
    )


def _ambiguous(surface: str, slug: str) -> bool | None:
    """Whether a match written ``surface`` is ambiguous (the module docstring), None when it names a human language."""
    if is_language_name(surface) and not (len(surface) == 1 or surface.isupper()):
        return None
    one_word = surface.isalpha() or len(surface) == 1
    return one_word and (len(surface) == 1 or slug in AMBIGUOUS_SLUGS or _is_common_word(surface))


def _line_of(lines: list[_Line], position: int) -> _Line:
    low, high = 0, len(lines) - 1
    while low < high:
        mid = (low + high + 1) // 2
        if lines[mid].start <= position:
            low = mid
        else:
            high = mid - 1
    return lines[low]


def _found_skills(text: str, folded: str, lines: list[_Line], vocabulary: SkillVocabulary) -> list[_Found]:
    found = []
    line_starts = [line.start for line in lines]
    kinds: dict[tuple[str, str], bool | None] = {}  # (surface, slug) -> ambiguous, None: a human language
    for match in find_skills(folded, vocabulary):
        surface = text[match.start : match.name_end]
        if (key := (surface, match.slug)) not in kinds:
            kinds[key] = _ambiguous(surface, match.slug)
        if (kind := kinds[key]) is None:
            continue  # English, Polish, Spanish: the people speak them
        found.append(_Found(match, surface, lines[bisect_right(line_starts, match.start) - 1], kind))
    _judge_ambiguous(text, folded, found)
    sentences = _Sentences(folded)
    for item in found:
        if item.dropped is None:
            _place_in_section(folded, sentences, item)
    return [item for item in found if item.dropped != "ambiguous"]


def _judge_ambiguous(text: str, folded: str, found: list[_Found]) -> None:
    """Mark the ambiguous matches without a technical context ``dropped = "ambiguous"`` (the module docstring)."""
    words = _Words(text, found)
    verdicts = {i: _context(words, folded, found, i) for i, item in enumerate(found) if item.ambiguous}
    for index, verdict in verdicts.items():  # "Chef or Puppet": one vouches for the other once it stands
        if verdict == "neutral" and any(
            verdicts.get(other) == "strong"
            and _listed_together(folded, found[min(index, other)], found[max(index, other)])
            for other in (index - 1, index + 1)
        ):
            verdicts[index] = "strong-by-list"
    strong = {found[i].match.slug for i, verdict in verdicts.items() if verdict.startswith("strong")}
    for index, verdict in verdicts.items():
        item = found[index]
        if not (verdict.startswith("strong") or (verdict == "neutral" and item.match.slug in strong)):
            item.dropped = "ambiguous"


def _context(words: _Words, folded: str, found: list[_Found], index: int) -> str:
    """ "strong", "neutral" (capitalised, nothing for or against) or "against"."""
    text = words.text
    item = found[index]
    start, end, name_end = item.match.start, item.match.end, item.match.name_end
    surface = item.surface
    line_start = item.line.bullet_end if item.line.bullet_end is not None else item.line.start
    before = folded[max(line_start, start - 30) : start]
    after = folded[name_end : name_end + 20]
    capitalised = surface[:1].isupper()
    one_letter = len(surface) == 1
    if one_letter and not surface.isupper():
        return "against"
    if _idiom_before(before) or (end == name_end and _idiom_after(after)):
        return "against"
    if capitalised and _is_name(words, item, line_start):
        return "against"
    if end == name_end and _thing_before(before) and _PHRASE_END_RE.match(text, end):
        return "against"  # "our old API.", "the reason.": a thing the company has, not a skill asked for
    if (
        end > name_end  # a version
        or _cue_before(before)
        or _list_neighbour(folded, found, index)
        or (
            item.line.bullet_end == start  # heading its list item
            and (
                _HEADS_ITEM_RE.match(text, end, end + 5)
                or (item.line.role != MENTIONED and _HEAD_USE_RE.match(text, end))
            )
        )
    ):
        return "strong" if not one_letter or capitalised else "against"
    if one_letter or not capitalised:
        return "against"
    if start > line_start and _mid_sentence(words, start, line_start):
        return "strong"
    return "neutral"


# What the few words before a skill or after it say, asked of the same short windows again and again in a long list
# ("Python, Go, Python, ..."): each answer is kept for the next mention with the same window.
@functools.lru_cache(maxsize=4096)
def _idiom_before(before: str) -> bool:
    return _IDIOM_BEFORE_RE.search(before) is not None


@functools.lru_cache(maxsize=4096)
def _idiom_after(after: str) -> bool:
    return _IDIOM_AFTER_RE.match(after) is not None


@functools.lru_cache(maxsize=4096)
def _thing_before(before: str) -> bool:
    return _THING_BEFORE_RE.search(before) is not None


@functools.lru_cache(maxsize=4096)
def _cue_before(before: str) -> bool:
    return _CUE_BEFORE_RE.search(before) is not None


@functools.lru_cache(maxsize=4096)
def _negation_before(before: str) -> bool:
    return _NEGATION_RE.search(before) is not None


_NAME_AFTER_RE = re.compile(r" ([A-Z][a-z\u00e0-\u024f'-]+)")
_NAME_BEFORE_RE = re.compile(r"([A-Z][a-z\u00e0-\u024f'-]+) $")


def _is_name(words: _Words, item: _Found, line_start: int) -> bool:
    """A capitalised word next to another capitalised one that is no skill: "Ruby Okonkwo", "Taylor Swift"."""
    text = words.text
    after = _NAME_AFTER_RE.match(text, item.match.end, item.match.end + 40)
    if after:
        word_start = item.match.end + 1
        if word_start not in words.skill_starts:
            return True
    if name_length := _name_before(text[max(line_start, item.match.start - 40) : item.match.start]):
        word_start = item.match.start - name_length - 1
        if word_start > line_start and word_start + name_length not in words.skill_ends:
            return _mid_sentence(words, word_start, line_start)
    return False


@functools.lru_cache(maxsize=4096)
def _name_before(before: str) -> int:
    """The length of the capitalised word that ends ``before`` followed by one space, 0 when there is none."""
    found = _NAME_BEFORE_RE.search(before)
    return len(found.group(1)) if found else 0


def _mid_sentence(words: _Words, start: int, line_start: int) -> bool:
    """The word at ``start`` follows a lower-case word or a comma in the same sentence."""
    last = words.last_before(start, line_start)  # the word before, spaces skipped
    if last is None:
        return False
    text, (word_start, word_end) = words.text, last
    if text[word_end - 1] in _SENTENCE_BREAKS:
        return False
    return text[word_end - 1] == "," or text[word_start].islower()


_SENTENCE_BREAKS = frozenset(".!?:(\u2014\u2013-|\u00b7")


def _list_neighbour(folded: str, found: list[_Found], index: int) -> bool:
    item = found[index]
    for other_index in (index - 1, index + 1):
        if not 0 <= other_index < len(found):
            continue
        other = found[other_index]
        if other.ambiguous:
            continue  # two ambiguous words do not vouch for each other ("move and reason")
        first, second = (other, item) if other_index < index else (item, other)
        if _listed_together(folded, first, second):
            return True
    return False


def _listed_together(folded: str, first: _Found, second: _Found) -> bool:
    a, b = first.match.end, second.match.start
    return 0 < b - a <= 12 and _LIST_GAP_RE.match(folded[a:b]) is not None


def _place_in_section(folded: str, sentences: _Sentences, item: _Found) -> None:
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
    if migrations and not _first_within(
        sentence.target_starts, sentence.target_ends, sentence.migration_ends[migrations - 1], start
    ):
        item.dropped = MIGRATED
        return
    if sentence.migration_verb and _MIGRATION_AFTER_RE.match(folded, end, sentence_end):
        item.dropped = MIGRATED
        return
    if _first_within(sentence.substitute_starts, sentence.substitute_ends, clause_start, start):
        item.dropped = SUBSTITUTE
        return
    role = item.line.role
    if sentence.preferred_cue:
        role = PREFERRED
    elif role == MENTIONED and sentence.required_cue:
        role = REQUIRED
    item.role = role
    if (
        role == REQUIRED
        and sentence.strong_cue
        and _STRONG_CUE_RE.search(folded, max(sentence_start, start - 40), start)
    ):
        item.role = "required-strong"


def _decide(found: list[_Found]) -> tuple[list[tuple[str, int]], list[str], list[Ignored], list[str]]:
    roles: dict[str, set[str]] = {}
    dropped: dict[str, str] = {}
    labels: dict[str, str] = {}  # slug -> its first mention as written
    for item in found:
        slug = item.match.slug
        labels.setdefault(slug, item.surface)
        if item.dropped is not None:
            dropped.setdefault(slug, item.dropped)
        else:
            roles.setdefault(slug, set()).add(item.role)
    warnings = []
    asked = any(r != {MENTIONED} for r in roles.values())
    if roles and not asked:
        warnings.append("The description has no requirements section or cue: every skill it names is required.")
    required: list[tuple[str, int]] = []
    preferred: list[str] = []
    ignored: dict[str, str] = {}
    for slug, slug_roles in roles.items():
        if "required-strong" in slug_roles:
            required.append((slug, STRONG_MIN_SCORE))
        elif REQUIRED in slug_roles or not asked:
            required.append((slug, DEFAULT_MIN_SCORE))
        elif PREFERRED in slug_roles:
            preferred.append(slug)
        else:
            ignored[slug] = ONLY_MENTIONED
    for slug, why in dropped.items():
        if slug not in roles:
            ignored.setdefault(slug, why)
    if not required and not preferred:
        warnings.append("No skill found in the description: the criteria hold no skills.")
    return (
        required,
        preferred,
        [Ignored(labels[slug], slug, why) for slug, why in sorted(ignored.items())],
        warnings,
    )


# --- Years ------------------------------------------------------------------------------------------------------------

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


def _min_years(folded: str, lines: list[_Line]) -> int | None:
    years = []
    for match in _YEARS_RE.finditer(folded):
        after = match.group("after")
        if _NOT_EXPERIENCE_RE.match(after):
            continue
        prefix = folded[max(0, match.start() - 30) : match.start()]
        if re.search(r"\b(?:for the (?:past|last)|over the (?:past|last|next)|in the (?:past|last|next)|founded|"
                     r"since|within|every)\s+$", prefix):  # fmt: skip
            continue
        line = _line_of(lines, match.start())
        if not (_YEARS_CONTEXT_RE.match(after) or line.role != MENTIONED or "experience" in after):
            continue
        raw = match.group(1)
        value = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
        if 0 < value <= 40:
            years.append(value)
    return max(years) if years else None


# --- Keywords ---------------------------------------------------------------------------------------------------------

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


def _keywords(
    text: str, folded: str, header_end: int, skill_slugs: set[str], cities: Mapping[str, str] | None
) -> list[str]:
    title = folded.split("\n", 1)[0]
    section, colon, _ = title.partition(":")
    if colon and (
        _REQUIRED_HEADING_RE.match(_heading_text(section)) or _PREFERRED_HEADING_RE.match(_heading_text(section))
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
            and len(word) > 1
        ):
            keywords.append(word)
    return keywords
