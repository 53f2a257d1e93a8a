"""Words that are skills only in a technical context ("Go", "R", "React", "Less", "EQ"): judged by what stands
around each mention."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left

from core.labels import label_key
from core.languages import is_language_name
from core.topics import word_count
from jobs.criteria.mentions import Found
from jobs.criteria.result import MENTIONED
from profiles.shipped_vocabulary import ambiguous_labels, read_shipped

# Skill names that read as English words or as names of people and places; with the common-English-word rule
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
# Consumer platforms a post names as the company's product or its feature ("the Spotify UI layer", "our Instagram
# sharing flow"): a skill only as the platform's programming interface ("the Spotify API").
PLATFORM_SLUGS = frozenset({
    "spotify", "facebook", "youtube", "instagram", "linkedin", "gmail", "whatsapp", "discord", "twitch", "reddit",
    "pinterest", "tumblr", "vimeo", "twitter", "slack", "tiktok", "netflix", "snapchat",
})  # fmt: skip
_PLATFORM_API_RE = re.compile(r"[ \t]+(?:web[ \t]+|graph[ \t]+|ads[ \t]+|marketing[ \t]+)?(?:apis?|sdks?)\b")

_IDIOM_BEFORE_RE = re.compile(
    r"(?:\bguard|\bpension|\bbonus|\bcycle[- ]to[- ]work|\bshare|\bsavings|\bhead|\bsous|\bseries|\bvitamin|\bplan|"
    r"\bmr\.?|\bmrs\.?|\bms\.?|\bdr\.?|\bon the|\blet|\bready to|\bto|\bhow to)\s$"
)
_IDIOM_AFTER_RE = re.compile(
    r"^(?:[&-]|\s&|\s?-?\s?(?:to[- ]market|live\b|to\b|through|beyond|above|ahead|wrong|far\b|for it|getter|suite|"
    r"level\b|quickly|fast\b|swiftly|calmly|joy\b|curiosity|interest\b|ideas?\b|conversations?|a\b|an\b|the\b|out\b|"
    r"into\b|on\b|off\b|with\b|around\b|about\b|'s\b|experienced\b|than\b|often\b|likely\b|so\b))"
)
# Phrases in which a common word that names a skill is only English ("writing clean code", "basic understanding").
_PHRASE_RE = re.compile(
    r"(?:clean (?:code|coding|architecture|up)|basic (?:understanding|knowledge|skills|level)|"
    r"make sure|support (?:for|the|our|of)|less (?:than|important))\b"
)
_CUE_BEFORE_RE = re.compile(
    r"\b(?:with|in|using|use|uses|need|needs|of|fluent|fluency|proficient|proficiency|know|knows|knowledge|write|writing|"
    r"written|code|coding|program|programming|modern|strong|solid|expert|experienced|experience|like|including|"
    r"build|building|develop|developing|maintain|maintaining|design|designing|debug|debugging|background in|"
    r"on|years|yrs|e\.g\.,?|eg,?|i\.e\.,?|such as|mainly|mostly|primarily|ideally|preferably|ideally also|also)\s+$"
)
_HEAD_USE_RE = re.compile(r" (?:for|in|on|with|experience|knowledge|skills|development|programming|expertise)\b")
_THING_BEFORE_RE = re.compile(
    r"\b(?:our|your|their|its|the|this|that|an?)\s+(?:(?:old|new|own|current|internal|public|main|first)\s+)?$"
)
# What follows a skill that heads its list item: the line's end (the end of that line, not of the text: "- Go\n-
# Python"), a punctuation mark, or "or"/"and" and another.
_HEADS_ITEM_RE = re.compile(r"[ \t]*(?:\r?\n|$)|[.,;:(]|[ \t]\(|\s(?:or|and)\b")
# A lower-case word in -ing followed by its object is the verb ("processing large datasets", "testing our apps"); one
# followed by a joining word ("monitoring and alerting", "caching for APIs") or heading a compound as its first noun
# ("caching strategies", "logging infrastructure") is the practice, a skill.
_VERB_OBJECT_RE = re.compile(
    r" (?!(?:and|or|nor|but|with|without|for|in|of|on|to|at|by|from|via|into|across|as|is|are|was|be|using|like|"
    r"such|e\.g|i\.e|etc|skills?|experience|knowledge|expertise|strateg(?:y|ies)|tools?|tooling|systems?|solutions?|"
    r"infrastructure|stacks?|pipelines?|layers?|patterns?|techniques?|practices?|concepts?|principles?|frameworks?|"
    r"platforms?|protocols?|fundamentals|basics|setups?|architectures?|mechanisms?)\b)[a-z]"
)
_PHRASE_END_RE = re.compile(r"\s*(?:$|[.,;:!?)\n])")
# What stands between two skills of one list: a comma, a slash, "and", "or", or a bracket ("Kotlin (Spring)").
_LIST_GAP_RE = re.compile(r"^(?:\s*(?:,|/|\\|\+|&|;|\(|\band\b|\bor\b|\band/or\b)\s*)+$|^\s*/\s*$")


def _is_common_word(surface: str) -> bool:
    word = surface.lower()
    return word.isascii() and word.isalpha() and word_count(word) >= COMMON_WORD_COUNT


class _Words:
    """The text's words (runs of non-space characters), found once, so that the word before a position is a
    bisection away however long its line; and where the skills found start and end."""

    __slots__ = ("_ends", "_starts", "skill_ends", "skill_starts", "text")

    def __init__(self, text: str, found: list[Found]) -> None:
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


def is_ambiguous(surface: str, slug: str) -> bool | None:
    """Whether a match written ``surface`` is ambiguous (the module docstring), None when it names a human language."""
    if is_language_name(surface) and not (len(surface) == 1 or surface.isupper()):
        return None
    one_word = surface.isalpha() or len(surface) == 1
    if not one_word:
        return False
    key = label_key(surface)
    if len(surface) == 1 or slug in AMBIGUOUS_SLUGS or key in ambiguous_labels():
        return True
    # A common English word is ambiguous, unless it is written as a name (Python, MySQL) and the shipped vocabulary
    # knows it as a technology that needs no context ("Python", "Java", "Linux" are frequent words on the web too).
    written_as_name = surface.istitle() or (surface[1:] != surface[1:].lower() and surface != surface.upper())
    return _is_common_word(surface) and not (written_as_name and key in _shipped_labels())


@functools.cache
def _shipped_labels() -> frozenset[str]:
    return frozenset(label for label, _ in read_shipped().aliases)


def judge_ambiguous(text: str, folded: str, found: list[Found], title: tuple[int, int] | None = None) -> None:
    """Mark the ambiguous matches without a technical context ``dropped = "ambiguous"`` (the module docstring);
    ``title``: the span of the job's title, where a capitalised name is the job's technology ("Go Engineer")."""
    words = _Words(text, found)
    verdicts = {i: _context(words, folded, found, i) for i, item in enumerate(found) if item.ambiguous}
    if title is not None:
        for index, verdict in verdicts.items():
            item = found[index]
            if verdict != "strong" and title[0] <= item.match.start < title[1] and _named_in_title(folded, item):
                verdicts[index] = "strong"
    for index, item in enumerate(found):  # "the Spotify UI layer": the product, not a skill; "the Spotify API" is one
        if item.match.slug in PLATFORM_SLUGS and not _PLATFORM_API_RE.match(folded, item.match.end):
            verdicts[index] = "against"
            item.ambiguous = True
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
        if verdict == "phrase":
            item.dropped = "phrase"  # "basic knowledge", "clean code": English, never shown as a skill left out
        elif not (verdict.startswith("strong") or (verdict == "neutral" and item.match.slug in strong)):
            item.dropped = "ambiguous"


def _context(words: _Words, folded: str, found: list[Found], index: int) -> str:
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
    if surface.islower() and surface.endswith("ing") and _VERB_OBJECT_RE.match(text, end):
        return "against"  # "processing large datasets", "testing our apps": a verb and its object
    if end == name_end and _PHRASE_RE.match(folded, start):
        return "phrase"
    acronym_name = len(surface) >= 3 and surface.isupper()  # "limited to GCC": no idiom is written in capitals
    if (_idiom_before(before) and not acronym_name) or (
        end == name_end and _idiom_after(after) and not _runs_on(item, after) and not _acronym_listed(surface, after)
    ):
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
    # A capital in mid-sentence marks a name ("services in Go"), but not an acronym: "high EQ" is a trait.
    acronym = surface.isupper() and label_key(surface) in ambiguous_labels()
    if start > line_start and not acronym and _mid_sentence(words, start, line_start):
        return "strong"
    return "neutral"


def _named_in_title(folded: str, item: Found) -> bool:
    """A name in a title is the job's technology when written as one: capitalised, longer than a letter, followed by
    no idiom ("Go Engineer", "Rust Developer"; not "Go-to-market Lead")."""
    surface, end = item.surface, item.match.name_end
    return (
        len(surface) > 1
        and surface[:1].isupper()
        and not _idiom_after(folded[end : end + 20])
        and not _PHRASE_RE.match(folded, item.match.start)
    )


def _acronym_listed(surface: str, after: str) -> bool:
    """An acronym before "&" is one of a list ("GCC & CCS"), where a word before it is an idiom ("R&D", "Q & A")."""
    return len(surface) >= 3 and surface.isupper() and after.lstrip().startswith("&")


def _runs_on(item: Found, after: str) -> bool:
    """A named technology heading a requirement and run on something: "Rust on embedded targets", "Spark on
    Kubernetes" (where "go on" and "move on" are idioms)."""
    return (
        after.startswith(" on ")
        and item.surface[:1].isupper()
        and item.line.role != MENTIONED
        and item.line.bullet_end == item.match.start
    )


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


_NAME_AFTER_RE = re.compile(r" ([A-Z][a-z\u00e0-\u024f'-]+)")
_NAME_BEFORE_RE = re.compile(r"([A-Z][a-z\u00e0-\u024f'-]+) $")


def _is_name(words: _Words, item: Found, line_start: int) -> bool:
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


def _list_neighbour(folded: str, found: list[Found], index: int) -> bool:
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


def _listed_together(folded: str, first: Found, second: Found) -> bool:
    a, b = first.match.end, second.match.start
    if not (0 < b - a <= 12 and _LIST_GAP_RE.match(folded[a:b])):
        return False
    # A bracket joins only a skill that fills it alone, "Kotlin (Spring)"; "AWS (Batch, S3)" names parts of AWS.
    return "(" not in folded[a:b] or folded[second.match.end : second.match.end + 1] == ")"
