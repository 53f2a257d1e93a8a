"""Parser for the Prog.AI profile text export (the format of shared/corpus/progai/jinliang-wei.txt).

The export is the text of a web page copied out line by line, so several fields are glued together: badges run
into each other and into the summary, education entries are written twice and run into the next one, skill labels
are glued to their 0-10 score, contribution roles are glued to "Contributions:", and a repository's topics are
glued into one word. Each quirk is undone by a small function below; every function copes with missing parts.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from core.countries import is_country_name
from core.dates import months_from_duration, parse_month
from core.labels import MAX_LABEL_CHARS, label_key
from core.languages import is_language_name, read_spoken_language
from core.text import clean_text
from core.topics import split_topics
from ingestion.documents import (
    ContributionEntry,
    EducationEntry,
    LanguageEntry,
    Location,
    ParseError,
    PositionEntry,
    ProfileDocument,
    SkillEntry,
)
from ingestion.parsers.decoding import normalise_text
from ingestion.parsers.locations import location_from_text

__all__ = [
    "ADVERTISEMENT",
    "AD_MARKER",
    "BADGES",
    "CONTRIBUTIONS_HEADING",
    "CONTRIBUTION_SUMMARY_LABEL",
    "DEGREES",
    "LANGUAGES_HEADING",
    "PRESENT",
    "ROLE_LABEL",
    "SKILLS_HEADING",
    "STATS_LABEL",
    "SUMMARY_HEADING",
    "YEARS_CODING_TEXT",
    "YEARS_EMPLOYED_TEXT",
    "looks_like_progai",
    "parse_progai",
]

NOT_A_PROFILE = "This is not a profile: no name on the first line."
MAX_WARNINGS = 40
MAX_NAME_LENGTH = 200

# Badge names Prog.AI shows above the summary, each after an emoji. Longest names are tried first.
BADGES: tuple[str, ...] = (
    "Rockstar",
    "Top School",
    "Top Company",
    "Open Source Contributor",
    "Influencer",
    "Hidden Gem",
    "Fast Learner",
    "Team Player",
    "Top Contributor",
    "Rising Star",
    "Expert",
    "Mentor",
    "Top Talent",
    "Top Performer",
    "Top Developer",
    "Top Open Source Contributor",
    "Open Source Maintainer",
    "Core Contributor",
    "Prolific Contributor",
    "Early Adopter",
    "Polyglot",
    "Problem Solver",
    "Community Leader",
    "Veteran",
    "Thought Leader",
)


def _by_initial(names: Iterable[str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Lower-cased first letter -> (name, lower-cased name) of the names starting with it, longest first: the only
    names worth trying at a position of a text."""
    longest_first = sorted(names, key=len, reverse=True)
    return {
        initial: tuple((name, name.lower()) for name in longest_first if name.lower().startswith(initial))
        for initial in {name.lower()[0] for name in longest_first}
    }


_BADGES_BY_INITIAL = _by_initial(BADGES)

# Degree names as Prog.AI (LinkedIn) writes them; matched case-insensitively at the start of an education entry.
DEGREES: tuple[str, ...] = (
    "Doctor of Philosophy (Ph.D.)",
    "Doctor of Philosophy (PhD)",
    "Doctor of Philosophy",
    "Doctor of Science (D.Sc.)",
    "Doctor of Medicine (M.D.)",
    "Doctor of Engineering (D.Eng.)",
    "Juris Doctor (J.D.)",
    "Doctorate",
    "Doctoral Degree",
    "Ph.D.",
    "PhD",
    "Master's Degree",
    "Masters Degree",
    "Master Degree",
    "Master of Science (M.Sc.)",
    "Master of Science (M.S.)",
    "Master of Science (MS)",
    "Master of Science",
    "Master of Arts (M.A.)",
    "Master of Arts",
    "Master of Business Administration (MBA)",
    "Master of Business Administration (M.B.A.)",
    "Master of Business Administration",
    "Master of Engineering (M.Eng.)",
    "Master of Engineering (ME)",
    "Master of Engineering",
    "Master of Technology (M.Tech.)",
    "Master of Technology",
    "Master of Computer Applications (MCA)",
    "Master of Philosophy (M.Phil.)",
    "Master of Fine Arts (MFA)",
    "Master of Applied Science (M.A.Sc.)",
    "Bachelor's Degree",
    "Bachelors Degree",
    "Bachelor Degree",
    "Bachelor of Science (B.Sc.)",
    "Bachelor of Science (B.S.)",
    "Bachelor of Science (BS)",
    "Bachelor of Science",
    "Bachelor of Arts (B.A.)",
    "Bachelor of Arts (BA)",
    "Bachelor of Arts",
    "Bachelor of Engineering (B.E.)",
    "Bachelor of Engineering (BE)",
    "Bachelor of Engineering (B.Eng.)",
    "Bachelor of Engineering",
    "Bachelor of Technology (B.Tech.)",
    "Bachelor of Technology (BTech)",
    "Bachelor of Technology",
    "Bachelor of Computer Applications (BCA)",
    "Bachelor of Business Administration (BBA)",
    "Bachelor of Fine Arts (BFA)",
    "Bachelor of Applied Science (B.A.Sc.)",
    "Associate's Degree",
    "Associates Degree",
    "Associate Degree",
    "Associate of Science (A.S.)",
    "Associate of Arts (A.A.)",
    "Associate of Applied Science (A.A.S.)",
    "High School Diploma",
    "Postgraduate Degree",
    "Postgraduate Diploma",
    "Graduate Certificate",
    "Engineer's Degree",
    "Specialist Degree",
    "Professional Degree",
    "Licentiate Degree",
    "Diploma",
    "Certificate",
    "MBA",
    "B.Sc.",
    "B.S.",
    "BSc",
    "B.A.",
    "B.E.",
    "B.Tech.",
    "B.Tech",
    "M.Sc.",
    "M.S.",
    "MSc",
    "M.A.",
    "M.Eng.",
    "M.Tech.",
    "M.Tech",
)
_DEGREES_LONGEST_FIRST = tuple(sorted(DEGREES, key=len, reverse=True))
_DEGREES_BY_INITIAL = _by_initial(DEGREES)
_LONG_DEGREES_LOWER = tuple(d.lower() for d in _DEGREES_LONGEST_FIRST if len(d) >= 6)
_GENERIC_DEGREE_RE = re.compile(
    r"(?:Bachelor|Master|Doctor|Associate)(?:'s|\u2019s)?\s+(?:[Dd]egree|of\s+[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3}"
    r"\s*\([^()]{1,20}\))"
)

# Labels whose trailing digits belong to the label, and common bare labels. Only used to tell "html510" (html5 / 10)
# from "python99" (python / 99: out of range) when the caller's vocabulary does not know the label.
DIGIT_LABELS = frozenset(
    {
        "html5", "css3", "web3", "web2", "python2", "python3", "es5", "es6", "es2015", "vue2", "vue3", "angular2",
        "d3", "s3", "ec2", "k8s", "3d", "2d", "ipv4", "ipv6", "http2", "http3", "oauth2", "mp3", "mp4", "x86",
        "x64", "arm64", "h264", "h265", "i18n", "l10n", "a11y", "base64", "sha256", "p2p", "gpt2", "gpt3", "gpt4",
        "yolov5", "yolov8", "resnet50", "php7", "php8", "java8", "java11", "java17", "qt5", "qt6", "gtk3", "gtk4",
        "opengl3", "directx11", "directx12", "unity3d", "cocos2d", "box2d", "log4j", "c99", "c11", "cpp11", "cpp14",
        "cpp17", "cpp20", "c++11", "c++14", "c++17", "c++20", "fortran90", "z80", "6502", "stm32", "esp32",
        "esp8266", "sqlite3", "win32", "e2e", "web3js", "three.js", "k3s", "s3fs", "bs4", "pix2pix", "word2vec",
        "seq2seq", "doc2vec", "node2vec", "llama2", "llama3", "t5", "g5", "m1", "m2", "ps4", "n64",
    }
)  # fmt: skip
COMMON_LABELS = frozenset(
    {
        "python", "java", "javascript", "typescript", "go", "golang", "rust", "ruby", "php", "c", "cpp", "c++",
        "csharp", "c#", "kotlin", "swift", "scala", "perl", "haskell", "html", "css", "sql", "shell", "bash", "r",
        "matlab", "lua", "dart", "elixir", "erlang", "clojure", "julia", "objective-c", "react", "vue", "angular",
        "node", "nodejs", "docker", "kubernetes", "linux", "git", "aws", "fortran", "cobol", "assembly", "opengl",
        "directx", "unity", "qt", "gtk", "http",
    }
)  # fmt: skip

AD_MARKER = "Find and Hire Top Developers"
# The line the export ends with: the marker glued to the rest of the advertisement. Parsing looks for the marker only.
ADVERTISEMENT = (
    AD_MARKER + "We’ve analyzed the programming source code of over 60 million software developers on GitHub and "
    "scored them by 50,000 skills. Sign-up on Prog,AI to search for software developers."
)

# Headings and labels as the export writes them; the patterns below also read other spellings (any case, "About",
# spaces around the colon, "Contribution summary").
SUMMARY_HEADING = "Summary"
SKILLS_HEADING = "Github Skills"
LANGUAGES_HEADING = "Programming languages"
CONTRIBUTIONS_HEADING = "Github contributions"
YEARS_CODING_TEXT = "of coding experience"
YEARS_EMPLOYED_TEXT = "of employment as a software developer"
ROLE_LABEL = "Role in this project:"
STATS_LABEL = "Contributions:"
CONTRIBUTION_SUMMARY_LABEL = "Contributions summary:"
PRESENT = "Present"  # the end of an ongoing contribution's date range
_FORMAT_MARKERS = (
    f"{SKILLS_HEADING} (",
    f"{CONTRIBUTIONS_HEADING} (",
    f"years {YEARS_CODING_TEXT}",
    f"{LANGUAGES_HEADING} (",
)

_YEARS_CODING_RE = re.compile(
    r"^(\d{1,3})\+?\s+years?\s+of\s+coding\s+experience\.?$|^less\s+than\s+(?:a|one|1)\s+years?\s+of\s+coding"
    r"\s+experience\.?$",
    re.IGNORECASE,
)
_YEARS_EMPLOYED_RE = re.compile(
    r"^(\d{1,3})\+?\s+years?\s+of\s+(?:professional\s+)?employment\b.*$|^less\s+than\s+(?:a|one|1)\s+years?\s+of"
    r"\s+(?:professional\s+)?employment\b.*$",
    re.IGNORECASE,
)
_COUNT = r"\(\s*(\d{1,3}(?:,\d{3})*|\d{1,7})\s*\)"
_SECTION_RES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("skills", re.compile(r"^github\s+skills\s*(?:" + _COUNT + r"\s*(.*))?$", re.IGNORECASE)),
    ("languages", re.compile(r"^programming\s+languages\s*(?:" + _COUNT + r"\s*(.*))?$", re.IGNORECASE)),
    ("contributions", re.compile(r"^github\s+contributions\s*(?:" + _COUNT + r"\s*(.*))?$", re.IGNORECASE)),
)
_SUMMARY_HEADER_RE = re.compile(r"^(?:summary|about)\s*:?$", re.IGNORECASE)
# How every line above starts (same flags): most lines do not, and one test rules out all six patterns.
_STRUCTURAL_START_RE = re.compile(r"github|programming|less|summary|about|\d", re.IGNORECASE)
_REPO_RE = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})$")
_DATE = r"(?:[A-Za-z]{3,9}\.?\s+\d{4}|\d{4}(?:-\d{1,2})?|\d{1,2}/\d{4})"
_DATE_RANGE_RE = re.compile(
    r"^(?P<start>" + _DATE + r")(?:\s*(?:-|\u2013|\u2014|to)\s*(?P<end>" + _DATE + r"|present|now|current|ongoing|"
    r"today))?$",
    re.IGNORECASE,
)
_ROLE_RE = re.compile(r"^role\s+in\s+this\s+project\s*:\s*(.*)$", re.IGNORECASE)
_CONTRIB_SUMMARY_RE = re.compile(r"^contributions?\s+summary\s*:\s*(.*)$", re.IGNORECASE)
_STATS_RE = re.compile(r"^(.*?)contributions\s*:\s*(.*)$", re.IGNORECASE)
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d{1,9})"
_COMMITS_RE = re.compile(_NUMBER + r"\s*commits?\b", re.IGNORECASE)
_COMMENTS_RE = re.compile(_NUMBER + r"\s*comments?\b", re.IGNORECASE)
_DURATION_RE = re.compile(r"\bin\s+(.+)$", re.IGNORECASE)
_TOPICS_RE = re.compile(r"^[a-z0-9][a-z0-9+#.-]{0,1999}$")
_DIGITS = "0123456789"


# --------------------------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------------------------


class _Warnings(list):
    """A list of warnings that stops growing after MAX_WARNINGS (a garbage file should not yield thousands)."""

    def add(self, message: str) -> None:
        if len(self) < MAX_WARNINGS:
            self.append(message)
        elif len(self) == MAX_WARNINGS:
            self.append("More problems were found; only the first ones are listed.")


MAX_CACHED_LINE = 200
_T = TypeVar("_T")


def _cached_for_short_lines(function: Callable[[str], _T]) -> Callable[[str], _T]:
    """Keep the results of a pure function of one line for lines of up to MAX_CACHED_LINE characters: such lines
    ("Contributor Contributions: 5 commits in 1 month") recur across profiles, and a worker reads each once."""
    cached = functools.lru_cache(maxsize=10_000)(function)

    @functools.wraps(function)
    def wrapper(line: str) -> _T:
        return cached(line) if len(line) <= MAX_CACHED_LINE else function(line)

    return wrapper


def _short(s: str, limit: int = 60) -> str:
    s = clean_text(s)
    return s if len(s) <= limit else s[: limit - 1] + "\u2026"


def _is_emoji_char(ch: str) -> bool:
    cp = ord(ch)
    if ch in "\u200d\ufe0f\ufe0e\u20e3" or 0xE0020 <= cp <= 0xE007F or 0x1F3FB <= cp <= 0x1F3FF:
        return True
    if 0x1F000 <= cp <= 0x1FAFF:
        return True
    return cp >= 0x2190 and unicodedata.category(ch) == "So"


def _is_emoji_only(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and all(_is_emoji_char(ch) or ch.isspace() for ch in stripped)


MAX_COUNT = 10_000_000  # commits, comments and declared totals above this are misreadings, not numbers


def _parse_int(s: str) -> int:
    return int(s.replace(",", ""))


def _count(s: str | None) -> int | None:
    """A count written with optional thousands separators; None when absent or implausibly large."""
    if not s or len(s) > 12:
        return None
    value = _parse_int(s)
    return value if value <= MAX_COUNT else None


def _match_section(line: str) -> tuple[str, int | None, str] | None:
    if line[:1] not in "gGpP":  # the headings start with "github" or "programming", in any case
        return None
    for kind, regex in _SECTION_RES:
        m = regex.match(line)
        if m:
            count = _count(m.group(1))
            rest = (m.group(2) or "").strip()
            return kind, count, rest
    return None


def _years(regex: re.Pattern[str], line: str) -> int | None:
    m = regex.match(line)
    if not m:
        return None
    return int(m.group(1)) if m.group(1) else 0


def _is_repository(line: str) -> bool:
    return "/" in line and _REPO_RE.match(line) is not None


def _match_date_range(line: str) -> re.Match[str] | None:
    """_DATE_RANGE_RE.match(line), without running the pattern on lines it cannot match: a date range starts with a
    digit, or with a month name followed by whitespace (a space, or one of the unprintable others)."""
    if line[:1].isdecimal() or " " in line or not line.isprintable():
        return _DATE_RANGE_RE.match(line)
    return None


def _is_structural(line: str) -> bool:
    return _STRUCTURAL_START_RE.match(line) is not None and bool(
        _match_section(line)
        or _YEARS_CODING_RE.match(line)
        or _YEARS_EMPLOYED_RE.match(line)
        or _SUMMARY_HEADER_RE.match(line)
    )


def _plausible_name(line: str) -> bool:
    if not line or len(line) > MAX_NAME_LENGTH or line[0] in "{[<":
        return False
    if not any(ch.isalpha() for ch in line):
        return False
    if _is_structural(line) or _is_repository(line) or _match_date_range(line):
        return False
    lowered = line.lower()
    if "://" in lowered or "<html" in lowered or "<!doctype" in lowered:
        return False
    return len(line.split()) <= 12


def looks_like_progai(text: str) -> bool:
    """Markers of the export, or its name / headline / location / "Summary" layout."""
    lowered = text.lower()
    if any(marker.lower() in lowered for marker in _FORMAT_MARKERS):
        return True
    lines = [line.strip() for line in text.split("\n", 12)[:12] if line.strip()]
    return bool(lines) and any(_SUMMARY_HEADER_RE.match(line) for line in lines[1:5])


def _drop_advertisement(text: str) -> str:
    idx = text.lower().find(AD_MARKER.lower())
    if idx >= 0:
        return text[:idx]
    # A file cut inside the advertisement: drop a trailing start of it ("Find and Hi").
    tail = text.rstrip()
    for n in range(len(AD_MARKER) - 1, 7, -1):
        if tail.endswith(AD_MARKER[:n]):
            return tail[: len(tail) - n]
    return text


# --------------------------------------------------------------------------------------------------------------------
# Headline, badges, summary
# --------------------------------------------------------------------------------------------------------------------


def _split_headline(headline: str) -> tuple[str, str]:
    """ "Staff Software Engineer at Google" -> (title, company), split on the last " at "."""
    for sep in (" at ", " @ "):
        idx = headline.rfind(sep)
        if idx > 0:
            return headline[:idx].strip(), headline[idx + len(sep) :].strip()
    return headline.strip(), ""


def _looks_like_location(line: str) -> bool:
    parts = [p.strip() for p in line.split(",") if p.strip()]
    if not parts or " at " in line or len(line) > 120:
        return False
    return is_country_name(parts[-1]) or (len(parts) >= 2 and all(len(p.split()) <= 4 for p in parts))


def _badge_at(text: str, pos: int, after_emoji: bool) -> tuple[str, int] | None:
    """A known badge name starting at ``pos`` and ending where a word cannot go on."""
    for badge, lowered in _BADGES_BY_INITIAL.get(text[pos : pos + 1].lower()[:1], ()):
        end = pos + len(badge)
        if text[pos:end].lower() != lowered:
            continue
        if end >= len(text):
            return badge, end
        nxt = text[end]
        if nxt == "\n" or _is_emoji_char(nxt) or nxt.isupper():
            return badge, end
        if after_emoji and not nxt.isalpha() and nxt != " ":
            return badge, end
    return None


def _summary_start(text: str, pos: int, name: str) -> int | None:
    """Where the summary starts inside ``text[pos:]`` when an unknown badge is glued to it."""
    window = text[pos : pos + 60]
    tokens = name.split()
    candidates = [name]
    if tokens and len(tokens[0]) >= 2:
        candidates.append(tokens[0])
    for cand in candidates:
        idx = window.find(cand, 1)
        if 0 < idx <= 45:
            return pos + idx
    for i in range(pos + 1, min(len(text), pos + 45)):
        if text[i - 1].islower() and text[i].isupper():
            return i
    return None


def _split_badges(text: str, name: str, warnings: _Warnings) -> tuple[list[str], str]:
    """Separate the badges (each after an emoji, glued together and to the summary) from the summary text."""
    badges: list[str] = []
    pos, n = 0, len(text)
    line_end = -1  # the end of the line ``pos`` is on, found again only once ``pos`` has passed it
    while pos < n:
        while pos < n and text[pos].isspace():
            pos += 1
        emoji_start = pos
        while pos < n and (_is_emoji_char(text[pos]) or (pos > emoji_start and text[pos] == " ")):
            pos += 1
        after_emoji = pos > emoji_start
        while pos < n and text[pos] in " \n":
            pos += 1
        found = _badge_at(text, pos, after_emoji)
        if found:
            badges.append(found[0])
            pos = found[1]
            continue
        if not after_emoji:
            break
        # An emoji announced a badge we do not know: it ends at the next emoji, at the end of a short line, or where
        # the summary (usually starting with the person's name) begins.
        if line_end < pos:
            line_end = text.find("\n", pos)
            line_end = n if line_end < 0 else line_end
        emoji_at = next((i for i in range(pos, min(line_end, pos + 41)) if _is_emoji_char(text[i])), None)
        if emoji_at is not None and emoji_at > pos:
            badges.append(clean_text(text[pos:emoji_at]))
            pos = emoji_at
            continue
        if 0 < line_end - pos <= 40 and line_end < n:
            badges.append(clean_text(text[pos:line_end]))
            pos = line_end
            continue
        start = _summary_start(text, pos, name)
        if start is not None:
            badge = clean_text(text[pos:start])
            if badge:
                badges.append(badge)
            pos = start
        elif pos < n:
            warnings.add("A badge could not be told apart from the summary; it was left in the summary.")
        break
    badges = [b for b in badges if b]
    return badges, text[pos:].strip()


# --------------------------------------------------------------------------------------------------------------------
# Education
# --------------------------------------------------------------------------------------------------------------------


def _degree_prefix(x: str) -> str:
    lowered = x.lower()
    for degree, lowered_degree in _DEGREES_BY_INITIAL.get(lowered[:1], ()):
        if lowered.startswith(lowered_degree):
            end = len(degree)
            if end == len(x) or x[end] in " ,(-" or degree.endswith((")", ".")):
                return x[:end]
    m = _GENERIC_DEGREE_RE.match(x)
    return m.group(0) if m else ""


_IN_PREFIX_RE = re.compile(r"^in\s+", re.IGNORECASE)
_MINOR_RE = re.compile(r"(?:^|\s|,)minor\s+in\s+", re.IGNORECASE)


def _entry_from_x(x: str, school: str) -> EducationEntry:
    x = clean_text(x)
    degree = _degree_prefix(x)
    rest = x[len(degree) :].strip(" ,-")
    rest = _IN_PREFIX_RE.sub("", rest)
    minor = ""
    m = _MINOR_RE.search(rest)
    if m:
        minor = rest[m.end() :].strip(" ,")
        rest = rest[: m.start()].strip(" ,")
    return EducationEntry(degree=degree, field=rest, minor=minor, school=clean_text(school))


def _find_all(text: str, sub: str, limit: int | None = None) -> list[int]:
    """Where ``sub`` occurs in ``text``, left to right, not overlapping (as re.finditer finds it); the first
    ``limit`` only."""
    found: list[int] = []
    i = text.find(sub)
    while i >= 0 and (limit is None or len(found) < limit):
        found.append(i)
        i = text.find(sub, i + len(sub))
    return found


def _duplication_matches(line: str) -> list[tuple[int, int, int]]:
    """(start, comma, at) for each "X, X at " in ``line``, left to right, not overlapping."""
    ats = _find_all(line, " at ", 60)
    commas = _find_all(line, ", ", 200)
    matches: list[tuple[int, int, int]] = []
    min_start = 0
    for a in ats:
        if a < min_start:
            continue
        best: tuple[int, int, int] | None = None
        for c in commas:
            if c < min_start or c + 2 >= a:
                continue
            length = a - (c + 2)
            s = c - length
            if s < min_start or line[s] != line[c + 2] or line[c - 1] != line[a - 1]:
                continue
            if line[s:c] == line[c + 2 : a] and (best is None or s < best[0]):
                best = (s, c, a)
        if best is not None:
            matches.append(best)
            min_start = best[2] + 4 + 1
    return matches


def _degree_starts(line: str) -> list[int]:
    """Positions where a known degree name starts (at 0 or glued right after the previous entry)."""
    starts = []
    lowered = line.lower()
    for degree in _LONG_DEGREES_LOWER:  # abbreviations are too ambiguous inside running text
        for i in _find_all(lowered, degree):
            if i == 0 or (line[i - 1] != " " and not line[i - 1].isupper()):
                starts.append(i)
    return sorted(set(starts))


_REPEATED_ENTRY_RE = re.compile(r"^(.+?), \1(?: at (.*))?$")


def _entries_without_duplication(chunk: str) -> list[EducationEntry]:
    out = []
    starts = _degree_starts(chunk) or [0]
    if starts[0] != 0:
        starts.insert(0, 0)
    bounds = [*starts, len(chunk)]
    for i in range(len(bounds) - 1):
        part = chunk[bounds[i] : bounds[i + 1]].strip()
        if not part:
            continue
        m = _REPEATED_ENTRY_RE.match(part)
        if m:
            out.append(_entry_from_x(m.group(1), m.group(2) or ""))
            continue
        idx = part.find(" at ")
        if idx >= 0:
            out.append(_entry_from_x(part[:idx], part[idx + 4 :]))
        else:
            out.append(_entry_from_x(part, ""))
    return out


def parse_education(line: str) -> list[EducationEntry] | None:
    """Entries of the education line, or None when the line is not one.

    Each entry is written "X, X at School" with the next entry glued after the school name; X is
    "Degree Field minor in Minor". The repeated X is the strongest signal of where an entry starts.
    """
    if len(line) > 3000:
        return None
    matches = _duplication_matches(line)
    if not matches:
        if " at " in line and _degree_prefix(line) and len(line) <= 400:
            return _entries_without_duplication(line)
        return None
    entries: list[EducationEntry] = []
    if matches[0][0] > 0:
        entries.extend(_entries_without_duplication(line[: matches[0][0]]))
    for i, (s, c, a) in enumerate(matches):
        school_end = matches[i + 1][0] if i + 1 < len(matches) else len(line)
        school, schoolless = _split_trailing_duplicate(line[a + 4 : school_end])
        entries.append(_entry_from_x(line[s:c], school))
        if schoolless:
            entries.append(_entry_from_x(schoolless, ""))
    return [e for e in entries if e.degree or e.field or e.school]


def _split_trailing_duplicate(school: str) -> tuple[str, str]:
    """ "Purdue UniversityMaster's Degree, Master's Degree" -> ("Purdue University", "Master's Degree"): an entry
    without a school glued after the previous school name."""
    for c in _find_all(school, ", "):
        length = len(school) - (c + 2)
        if length > 0 and c - length >= 1 and school[c - length : c] == school[c + 2 :]:
            return school[: c - length].strip(), school[c + 2 :]
    return school, ""


_TRAILING_PARENTHESES_RE = re.compile(r"\s*\([^)]*\)$")


def parse_spoken_language_entries(line: str) -> list[LanguageEntry] | None:
    """ "Chinese, English (Native)" -> a LanguageEntry each (core.languages: code, English name, fluency); None when a
    part is not a known human language (then the line is something else)."""
    if len(line) > 400:
        return None
    parts = [clean_text(p) for p in line.split(",")]
    if not parts or any(not p for p in parts):
        return None
    entries = []
    for part in parts:
        m = _TRAILING_PARENTHESES_RE.search(part)
        name = part[: m.start()] if m else part
        if not is_language_name(name):
            return None
        fluency = m.group(0).strip()[1:-1] if m else ""
        spoken = read_spoken_language(name, fluency)
        code, english = (spoken.code, spoken.name) if spoken and spoken.code else ("", name)
        entries.append(LanguageEntry(code=code, name=english, fluency=spoken.fluency if spoken else "", raw=part))
    return entries


def parse_spoken_languages(line: str) -> list[str] | None:
    """ "Chinese, English" -> ["Chinese", "English"] (English names); None when a part is not a known language."""
    entries = parse_spoken_language_entries(line)
    return None if entries is None else [entry.name for entry in entries]


# --------------------------------------------------------------------------------------------------------------------
# Skills
# --------------------------------------------------------------------------------------------------------------------


def _trailing_digits(line: str) -> tuple[str, str]:
    prefix = line.rstrip(_DIGITS)
    return prefix, line[len(prefix) :]


def _natural_label(line: str) -> str | None:
    prefix, digits = _trailing_digits(line)
    if prefix.strip() and digits and len(digits) <= 2 and int(digits) <= 10 and (digits == "0" or digits[0] != "0"):
        return prefix
    return None


def split_score(line: str, known: Callable[[str], bool]) -> tuple[str, int] | str:
    """Split "python9" / "c-language10" / "html510" into (label, score); a warning string when it cannot.

    Scores run 0-10 and labels may end in digits. The known-label test (vocabulary) decides first; otherwise the
    score takes all the trailing digits when that is in range, else "10" when the line ends in 10, else the last
    digit. When the digit-free label is known and no longer label is, the score is simply out of range.
    """
    line = line.strip()
    prefix, digits = _trailing_digits(line)
    if not digits:
        return f"Skill line '{_short(line, 40)}': no score found; skipped."
    if not prefix.strip() and len(digits) <= 2:
        return f"Skill line '{_short(line, 40)}': no label found; skipped."
    ten = (line[:-2], 10) if digits.endswith("10") and line[:-2].strip() else None
    if ten is not None and known(ten[0]):
        return ten
    last = (line[:-1], int(digits[-1])) if line[:-1].strip() else None
    if last is not None and known(last[0]):
        return last
    natural = _natural_label(line)
    if natural is not None:
        return natural, int(digits)
    if len(digits) > 12 or (prefix.strip() and known(prefix)) or (ten or last) is None:
        return f"Skill line '{_short(line, 40)}': score out of range 0-10; skipped."
    return ten or last


# --------------------------------------------------------------------------------------------------------------------
# Contributions
# --------------------------------------------------------------------------------------------------------------------


@dataclass
class _RawContribution:
    repository: str
    lines: list[str] = field(default_factory=list)
    complete: bool = False  # the "Contributions:" line or later parts were seen


_STATS_WORD_RE = re.compile(r"commit|comment|^in\s", re.IGNORECASE)


def _parse_stats(rest: str) -> tuple[int, int, int | None] | None:
    rest = rest.strip()
    if rest and not _STATS_WORD_RE.search(rest):
        return None
    commits = _COMMITS_RE.search(rest)
    comments = _COMMENTS_RE.search(rest)
    duration = _DURATION_RE.search(rest)
    return (
        (_count(commits.group(1)) or 0) if commits else 0,
        (_count(comments.group(1)) or 0) if comments else 0,
        months_from_duration(duration.group(1)) if duration else None,
    )


def _stats_line(line: str) -> tuple[str, tuple[int, int, int | None]] | None:
    if ":" not in line:  # _STATS_RE needs one: most lines are out at once
        return None
    return _stats_line_with_colon(line)


@_cached_for_short_lines
def _stats_line_with_colon(line: str) -> tuple[str, tuple[int, int, int | None]] | None:
    if _CONTRIB_SUMMARY_RE.match(line):
        return None
    m = _STATS_RE.match(line)
    if not m:
        return None
    stats = _parse_stats(m.group(2))
    if stats is None:
        return None
    return clean_text(m.group(1)), stats


def _parse_contribution(raw: _RawContribution, warnings: _Warnings) -> dict:
    """Fields of one contribution except the topics (those need the whole document's vocabulary)."""
    fields: dict = {"repository": raw.repository}
    description: list[str] = []
    summary: list[str] = []
    role_line = ""
    role_glued = ""
    role_pending = False
    phase = "head"  # head -> role -> stats -> summary
    topics_raw = ""
    saw_dates = False
    saw_stats = False
    for i, line in enumerate(raw.lines):
        if i == 0:
            m = _match_date_range(line)
            if m:
                saw_dates = True
                fields["start"] = parse_month(m.group("start"))
                end_text = m.group("end")
                if end_text is None:
                    fields["end"] = fields["start"]
                elif end_text.lower() in ("present", "now", "current", "ongoing", "today"):
                    fields["end"] = None
                    fields["is_current"] = True
                else:
                    fields["end"] = parse_month(end_text)
                continue
        has_colon = ":" in line  # the role, stats and summary labels all end in one
        m = _ROLE_RE.match(line) if has_colon else None
        if m:
            role_line = clean_text(m.group(1))
            role_pending = not role_line
            phase = "role"
            continue
        stats = _stats_line(line)
        if stats is not None:
            role_glued = stats[0]
            fields["commits"], fields["comments"], fields["active_months"] = stats[1]
            saw_stats = True
            role_pending = False
            phase = "stats"
            continue
        m = _CONTRIB_SUMMARY_RE.match(line) if has_colon else None
        if m:
            if m.group(1).strip():
                summary.append(m.group(1).strip())
            role_pending = False
            phase = "summary"
            continue
        if role_pending:
            role_line = clean_text(line)
            role_pending = False
            continue
        if phase == "head":
            description.append(clean_text(line))
        elif phase in ("stats", "summary") and not topics_raw and _TOPICS_RE.match(line):
            topics_raw = line.strip()
        elif phase == "summary" and not topics_raw:
            summary.append(line.strip())
        else:
            warnings.add(f"Contribution {raw.repository}: line '{_short(line)}' not understood; ignored.")
    if not role_line and role_glued and description and description[-1] == role_glued:
        description.pop()  # a role written on its own line without the "Role in this project:" label
    fields["repository_description"] = " ".join(d for d in description if d)
    fields["role"] = role_line or role_glued
    fields["summary"] = clean_text(" ".join(summary))
    fields["topics_raw"] = topics_raw
    if not saw_dates:
        warnings.add(f"Contribution {raw.repository}: no date range found.")
    if not saw_stats:
        warnings.add(f"Contribution {raw.repository}: no 'Contributions:' line (commits) found; the file may be cut.")
    return fields


_REPOSITORY_WORD_SEPARATORS_RE = re.compile(r"[-_.]+")


def _repository_words(repositories: Iterable[str]) -> set[str]:
    words: set[str] = set()
    for repo in repositories:
        for part in repo.lower().split("/"):
            if part:
                words.add(part)
                words.update(w for w in _REPOSITORY_WORD_SEPARATORS_RE.split(part) if w)
    return words


# --------------------------------------------------------------------------------------------------------------------
# The document
# --------------------------------------------------------------------------------------------------------------------


def _split_sections(lines: list[str], warnings: _Warnings):
    """Split the lines after the summary into the profile facts and the three counted sections."""
    head: list[str] = []
    sections: dict[str, list[str]] = {"skills": [], "languages": [], "contributions": []}
    declared: dict[str, int | None] = {"skills": None, "languages": None, "contributions": None}
    current: str | None = None
    for idx, line in enumerate(lines):
        section = _match_section(line)
        if section:
            kind, count, rest = section
            if declared[kind] is not None and count is not None:
                warnings.add(f"The '{line}' heading appears twice; the second count is used.")
            if count is not None or declared[kind] is None:
                declared[kind] = count
            current = kind
            if rest:
                sections[kind].append(rest)
            continue
        if current in ("skills", "languages") and _is_repository(line):
            nxt = lines[idx + 1] if idx + 1 < len(lines) else ""
            if _match_date_range(nxt):
                warnings.add("The 'Github contributions' heading is missing; contributions were read anyway.")
                current = "contributions"
        if current is None:
            head.append(line)
        else:
            sections[current].append(line)
    return head, sections, declared


def _group_contributions(lines: list[str], warnings: _Warnings) -> list[_RawContribution]:
    entries: list[_RawContribution] = []
    current: _RawContribution | None = None
    for idx, line in enumerate(lines):
        if _is_repository(line):
            nxt = lines[idx + 1] if idx + 1 < len(lines) else ""
            if current is None or current.complete or _match_date_range(nxt):
                current = _RawContribution(repository=line)
                entries.append(current)
                continue
        if current is None:
            warnings.add(f"Line '{_short(line)}' before the first repository was ignored.")
            continue
        current.lines.append(line)
        if ":" in line and (_stats_line(line) is not None or _CONTRIB_SUMMARY_RE.match(line)):
            current.complete = True
    return entries


def _parse_score_lines(lines: list[str], what: str, known: Callable[[str], bool], warnings: _Warnings):
    entries: list[SkillEntry] = []
    for line in lines:
        if len(line) > MAX_LABEL_CHARS:
            warnings.add(f"{what} line '{_short(line, 40)}' is longer than {MAX_LABEL_CHARS:,} characters; skipped.")
            continue
        if _match_date_range(line):
            warnings.add(f"{what} line '{_short(line)}' looks like a date; skipped.")
            continue
        result = split_score(line, known)
        if isinstance(result, str):
            warnings.add(result if what == "Skill" else result.replace("Skill line", f"{what} line", 1))
            continue
        label, score = result
        entries.append(SkillEntry(label=clean_text(label), score=score))
    return entries


def _read_head(lines: list[str], doc: ProfileDocument, warnings: _Warnings) -> list[str]:
    """Read the headline and location (the lines between the name and "Summary") into ``doc``; return the summary
    section's lines. The lines read are removed from ``lines``."""
    i = 0
    pre: list[str] = []
    while i < len(lines) and len(pre) < 2:
        line = lines[i]
        if _is_structural(line) or _is_emoji_only(line) or len(line) > 150:
            break
        pre.append(line)
        i += 1
    if len(pre) == 1 and _looks_like_location(pre[0]):
        doc.location = location_from_text(pre[0])
    elif pre:
        doc.headline = clean_text(pre[0])
        doc.title, doc.company = _split_headline(doc.headline)
        if doc.company:  # the headline's job is the current one; the export gives it no dates
            doc.positions = [PositionEntry(company=doc.company, title=doc.title, is_current=True)]
        if len(pre) == 2:
            doc.location = location_from_text(pre[1])
    if i < len(lines) and _SUMMARY_HEADER_RE.match(lines[i]):
        i += 1
    elif i < len(lines) and not _is_structural(lines[i]):
        warnings.add("The 'Summary' heading is missing.")
    summary_lines: list[str] = []
    while i < len(lines):
        line = lines[i]
        if _is_structural(line) or parse_education(line) is not None or parse_spoken_languages(line) is not None:
            break
        summary_lines.append(line)
        i += 1
    del lines[:i]
    return summary_lines


def parse_progai(text: str, *, vocabulary: frozenset[str] = frozenset()) -> ProfileDocument:
    """Parse the text of a Prog.AI profile export. Raises ParseError when there is no usable profile.

    ``vocabulary`` holds known skill/topic label keys (see ingestion.vocabulary); it helps split scores from labels
    that end in digits and split glued topic lines.
    """
    if not isinstance(text, str):
        raise ParseError("The file could not be read as text.")
    text = _drop_advertisement(normalise_text(text))
    lines = [line.strip() for line in text.split("\n")]
    lines = [line for line in lines if line]
    if not lines:
        raise ParseError("The file is empty.")
    name = clean_text(lines[0])
    if not _plausible_name(name):
        raise ParseError(NOT_A_PROFILE)
    warnings = _Warnings()
    doc = ProfileDocument(format="progai", name=name)
    rest = lines[1:]

    summary_lines = _read_head(rest, doc, warnings)
    if summary_lines:
        doc.badges, summary = _split_badges("\n".join(summary_lines), name, warnings)
        doc.summary = summary.strip()

    head, sections, declared = _split_sections(rest, warnings)
    for line in head:
        years = _years(_YEARS_CODING_RE, line)
        if years is not None:
            doc.years_coding = years
            continue
        years = _years(_YEARS_EMPLOYED_RE, line)
        if years is not None:
            doc.years_employed = years
            continue
        if _SUMMARY_HEADER_RE.match(line):
            continue
        education = parse_education(line)
        if education is not None:
            doc.education.extend(education)
            continue
        languages = parse_spoken_language_entries(line)
        if languages is not None:
            doc.languages.extend(languages)
            continue
        warnings.add(f"Line '{_short(line)}' not understood; ignored.")

    # Known labels: the caller's vocabulary, built-in labels, and this file's own labels that split unambiguously.
    own_labels = {
        label_key(natural)
        for line in sections["skills"] + sections["languages"]
        if (natural := _natural_label(line)) is not None
    }
    local_keys = DIGIT_LABELS | COMMON_LABELS | own_labels

    def known(label: str) -> bool:
        key = label_key(label)
        return key in vocabulary or key in local_keys

    doc.skills_declared = declared["skills"]
    doc.skills = _parse_score_lines(sections["skills"], "Skill", known, warnings)
    doc.programming_languages_declared = declared["languages"]
    doc.programming_languages = _parse_score_lines(sections["languages"], "Programming language", known, warnings)
    doc.contributions_declared = declared["contributions"]

    raw_contributions = _group_contributions(sections["contributions"], warnings)
    parsed = [_parse_contribution(raw, warnings) for raw in raw_contributions]
    own_words = frozenset(
        {label_key(s.label) for s in doc.skills + doc.programming_languages}
        | _repository_words(p["repository"] for p in parsed)
    )
    for fields in parsed:
        raw = fields["topics_raw"]
        fields["topics"] = split_topics(raw, vocabulary, own_words) if raw else []
        doc.contributions.append(ContributionEntry(**fields))

    for what, declared_count, listed in (
        ("skills", doc.skills_declared, len(doc.skills)),
        ("programming languages", doc.programming_languages_declared, len(doc.programming_languages)),
        ("contributions", doc.contributions_declared, len(doc.contributions)),
    ):
        if declared_count is not None and listed > declared_count:
            warnings.add(f"The file lists {listed} {what} but its heading says {declared_count}.")
    if doc.location == Location() and not doc.headline and not doc.summary and not rest:
        warnings.add("Only a name was found; the rest of the profile is missing.")
    first_of_each: dict[str, LanguageEntry] = {}
    for entry in doc.languages:
        first_of_each.setdefault(entry.code or entry.name.casefold(), entry)
    doc.languages = list(first_of_each.values())
    doc.spoken_languages = list(dict.fromkeys(entry.name for entry in doc.languages))
    doc.warnings = list(warnings)
    return doc
