"""Pure text helpers shared by the profile parsers: countries, labels, dates, durations and topic splitting.

Nothing here touches the database or the network; pycountry's bundled data is the only lookup.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata

import pycountry

from ingestion.documents import Location

__all__ = [
    "clean_paragraphs",
    "clean_text",
    "country_code",
    "country_name",
    "is_country_name",
    "is_language_name",
    "label_key",
    "location_from_text",
    "months_from_duration",
    "parse_month",
    "split_topics",
]

# --------------------------------------------------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------------------------------------------------

_WS_RE = re.compile(r"\s+")
_SPACES_RE = re.compile(r"[^\S\n]+")


_CONTROL_SPACE_RE = re.compile(r"[\t\n\r\x0b\x0c\x1c-\x1f\x85]")
_CONTROL_SPACE_NO_NL_RE = re.compile(r"[\t\r\x0b\x0c\x1c-\x1f\x85]")
# Control characters, and unpaired surrogates (JSON can smuggle them in as "\ud800"; no database can store them).
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_NO_NL_RE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _strip_controls(s: str, keep_newlines: bool = False) -> str:
    """Drop control characters (Unicode category Cc); whitespace controls become spaces, newlines optionally kept."""
    if keep_newlines:
        return _CONTROL_NO_NL_RE.sub("", _CONTROL_SPACE_NO_NL_RE.sub(" ", s))
    return _CONTROL_RE.sub("", _CONTROL_SPACE_RE.sub(" ", s))


def clean_text(s: str) -> str:
    """NFC-normalise, drop control characters and collapse every run of whitespace to one space."""
    if not s:
        return ""
    if s.isprintable() and "  " not in s:
        # The common case: no control character, and no whitespace but single spaces (every other whitespace
        # character is unprintable), so only NFC can change anything, and only outside ASCII.
        return (s if s.isascii() else unicodedata.normalize("NFC", s)).strip()
    s = unicodedata.normalize("NFC", s)
    s = _strip_controls(s)
    return _WS_RE.sub(" ", s).strip()


def clean_paragraphs(s: str) -> str:
    """Like :func:`clean_text` but keeps line breaks (at most one blank line in a row)."""
    if not s:
        return ""
    s = unicodedata.normalize("NFC", s).replace("\r\n", "\n").replace("\r", "\n")
    s = s.replace("\u2028", "\n").replace("\u2029", "\n")
    s = _strip_controls(s, keep_newlines=True)
    lines = [_SPACES_RE.sub(" ", line).strip() for line in s.split("\n")]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


@functools.lru_cache(maxsize=100_000)
def label_key(label: str) -> str:
    """The lookup key of a skill/topic label: lower-case, stripped, inner whitespace runs turned into '-'.

    Cached: a worker sees the same few thousand labels over and over.
    """
    return _WS_RE.sub("-", clean_text(label).lower())


# --------------------------------------------------------------------------------------------------------------------
# Countries
# --------------------------------------------------------------------------------------------------------------------

# Common names pycountry does not resolve by itself (keys are casefolded, dots removed).
COUNTRY_ALIASES: dict[str, str] = {
    "usa": "US",
    "us": "US",
    "united states of america": "US",
    "america": "US",
    "the united states": "US",
    "uk": "GB",
    "united kingdom": "GB",
    "great britain": "GB",
    "britain": "GB",
    "england": "GB",
    "scotland": "GB",
    "wales": "GB",
    "northern ireland": "GB",
    "russia": "RU",
    "south korea": "KR",
    "korea": "KR",
    "republic of korea": "KR",
    "north korea": "KP",
    "turkey": "TR",
    "turkiye": "TR",
    "ivory coast": "CI",
    "cote d'ivoire": "CI",
    "palestine": "PS",
    "macedonia": "MK",
    "holland": "NL",
    "the netherlands": "NL",
    "brunei": "BN",
    "cape verde": "CV",
    "drc": "CD",
    "dr congo": "CD",
    "democratic republic of the congo": "CD",
    "republic of the congo": "CG",
    "micronesia": "FM",
    "swaziland": "SZ",
    "burma": "MM",
    "east timor": "TL",
    "vatican": "VA",
    "vatican city": "VA",
    "uae": "AE",
    "czech republic": "CZ",
    "the bahamas": "BS",
    "the gambia": "GM",
    "prc": "CN",
    "mainland china": "CN",
    "hong kong sar": "HK",
    "macau": "MO",
    "kosovo": "XK",
}

# Names that pycountry does not carry at all (alpha-2 -> display name).
_EXTRA_COUNTRY_NAMES = {"XK": "Kosovo"}


def _country_alias_key(s: str) -> str:
    s = clean_text(s).casefold().replace(".", "").replace("\u2019", "'")
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return s.strip()


@functools.cache
def _country_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for country in pycountry.countries:
        for attr in ("name", "common_name", "official_name"):
            value = getattr(country, attr, None)
            if value:
                index.setdefault(_country_alias_key(value), country.alpha_2)
    for alias, code in COUNTRY_ALIASES.items():
        index[alias] = code
    return index


def _country_by_name(key: str) -> str:
    index = _country_index()
    if key in index:
        return index[key]
    if key.startswith("the ") and key[4:] in index:
        return index[key[4:]]
    return ""


def country_code(name_or_code: str, *, allow_codes: bool = True) -> str:
    """ISO 3166-1 alpha-2 code for a country name, common name, alpha-3 or alpha-2 code; "" when unknown.

    ``allow_codes=False`` only accepts names (so "CA" in "Palo Alto, CA" is not read as Canada).
    """
    if not isinstance(name_or_code, str):
        return ""
    raw = clean_text(name_or_code)
    if not raw or len(raw) > 80:
        return ""
    return _country_code_of_clean(raw, allow_codes)


@functools.lru_cache(maxsize=10_000)
def _country_code_of_clean(raw: str, allow_codes: bool) -> str:
    """country_code of a cleaned string of at most 80 characters: places recur, each is looked up once per process."""
    key = _country_alias_key(raw)
    if not key:
        return ""
    if allow_codes and raw.isascii() and raw.isalpha():
        if len(raw) == 2:
            up = raw.upper()
            if up in _EXTRA_COUNTRY_NAMES or pycountry.countries.get(alpha_2=up) is not None:
                return up
            if up == "UK":
                return "GB"
        elif len(raw) == 3:
            country = pycountry.countries.get(alpha_3=raw.upper())
            if country is not None:
                return country.alpha_2
    if not allow_codes and len(key) <= 3 and key not in ("usa", "uk", "uae", "drc", "prc"):
        return ""
    return _country_by_name(key)


def is_country_name(s: str) -> bool:
    """True when ``s`` names a country (names and common abbreviations such as USA/UK; bare codes like "CA" do not)."""
    return bool(country_code(s, allow_codes=False))


def country_name(code: str) -> str:
    """Display name of an alpha-2 (or alpha-3) code: the common name where pycountry has one; "" when unknown."""
    if not isinstance(code, str):
        return ""
    code = clean_text(code).upper()
    if code in _EXTRA_COUNTRY_NAMES:
        return _EXTRA_COUNTRY_NAMES[code]
    country = None
    if len(code) == 2 and code.isascii() and code.isalpha():
        country = pycountry.countries.get(alpha_2=code)
    elif len(code) == 3 and code.isascii() and code.isalpha():
        country = pycountry.countries.get(alpha_3=code)
    if country is None:
        return ""
    if code == "RU":
        return "Russia"
    return getattr(country, "common_name", None) or country.name


def location_from_text(line: str) -> Location:
    """Read "City, Region, Country" (one to three comma-separated parts, more are folded into the region).

    One part: a country when it names one, else a city. Two parts: city + country when the second names a country,
    else city + region.
    """
    parts = [p for p in (clean_text(x) for x in (line or "").split(",")) if p]
    if not parts:
        return Location()
    if len(parts) == 1:
        code = country_code(parts[0], allow_codes=False)
        if code:
            return Location(country=parts[0], country_code=code)
        return Location(city=parts[0])
    if len(parts) == 2:
        code = country_code(parts[1], allow_codes=False)
        if code:
            return Location(city=parts[0], country=parts[1], country_code=code)
        return Location(city=parts[0], region=parts[1])
    country = parts[-1]
    return Location(
        city=parts[0],
        region=", ".join(parts[1:-1]),
        country=country,
        country_code=country_code(country),
    )


# --------------------------------------------------------------------------------------------------------------------
# Spoken languages
# --------------------------------------------------------------------------------------------------------------------

_LANGUAGE_ALIASES = frozenset(
    {
        "greek",
        "swahili",
        "malay",
        "punjabi",
        "nepali",
        "farsi",
        "mandarin",
        "cantonese",
        "hokkien",
        "taiwanese",
        "shanghainese",
        "flemish",
        "castilian",
        "brazilian portuguese",
        "american sign language",
        "sign language",
        "uzbek",
        "pashto",
        "azerbaijani",
        "albanian",
        "quechua",
        "oromo",
        "estonian",
        "latvian",
        "mongolian",
        "konkani",
        "rajasthani",
        "kurdish",
        "serbo-croatian",
    }
)


@functools.cache
def _language_names() -> frozenset[str]:
    names: set[str] = set(_LANGUAGE_ALIASES)
    for lang in pycountry.languages:
        if getattr(lang, "type", "L") not in ("L", "C", "H"):
            continue
        for attr in ("name", "common_name"):
            value = getattr(lang, attr, None)
            if not value:
                continue
            names.add(value.casefold())
            bare = re.sub(r"\s*\([^)]*\)\s*$", "", value).strip()
            if bare:
                names.add(bare.casefold())
            if bare.startswith("Modern "):
                names.add(bare[7:].casefold())
    return frozenset(names)


def is_language_name(s: str) -> bool:
    """True when ``s`` is the English name of a human language known to pycountry (or a common alias)."""
    s = clean_text(s)
    return bool(s) and len(s) <= 60 and s.casefold() in _language_names()


# --------------------------------------------------------------------------------------------------------------------
# Dates and durations
# --------------------------------------------------------------------------------------------------------------------

_MONTHS = {
    "jan": 1,
    "january": 1,
    "feb": 2,
    "february": 2,
    "mar": 3,
    "march": 3,
    "apr": 4,
    "april": 4,
    "may": 5,
    "jun": 6,
    "june": 6,
    "jul": 7,
    "july": 7,
    "aug": 8,
    "august": 8,
    "sep": 9,
    "sept": 9,
    "september": 9,
    "oct": 10,
    "october": 10,
    "nov": 11,
    "november": 11,
    "dec": 12,
    "december": 12,
}
_MIN_YEAR, _MAX_YEAR = 1900, 2100

_ISO_RE = re.compile(r"^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?:[T ].*)?$")
_MONTH_NAME_RE = re.compile(r"^([A-Za-z]+)\.?,?\s+(?:\d{1,2},?\s+)?(\d{4})$")
_NUM_MONTH_YEAR_RE = re.compile(r"^(\d{1,2})[-/.](\d{4})$")


def _ym(year: int, month: int) -> str | None:
    if _MIN_YEAR <= year <= _MAX_YEAR and 1 <= month <= 12:
        return f"{year:04d}-{month:02d}"
    return None


def parse_month(s: str | None) -> str | None:
    """ "YYYY-MM" from "May 2020", "2020-05", "2020-05-17", "05/2020" or "2020" (January); None when not a date."""
    if not isinstance(s, str):
        return None
    s = clean_text(s)
    if not s or len(s) > 40:
        return None
    return _parse_clean_month(s)


@functools.lru_cache(maxsize=10_000)
def _parse_clean_month(s: str) -> str | None:
    """parse_month of a cleaned string of at most 40 characters: dates recur, each is read once per process."""
    m = _ISO_RE.match(s)
    if m:
        year = int(m.group(1))
        if m.group(2) is None:
            return _ym(year, 1)
        month = int(m.group(2))
        if m.group(3) is not None and not 1 <= int(m.group(3)) <= 31:
            return None
        return _ym(year, month)
    m = _MONTH_NAME_RE.match(s)
    if m:
        month = _MONTHS.get(m.group(1).lower())
        return _ym(int(m.group(2)), month) if month else None
    m = _NUM_MONTH_YEAR_RE.match(s)
    if m:
        return _ym(int(m.group(2)), int(m.group(1)))
    return None


_DURATION_PART_RE = re.compile(r"(\d{1,4}|an?|one)\s*(years?|yrs?|months?|mos?)\b", re.IGNORECASE)
_LESS_THAN_A_MONTH_RE = re.compile(r"less than a month", re.IGNORECASE)
_MAX_DURATION_MONTHS = 1200  # a hundred years: anything longer is not a duration


def months_from_duration(s: str | None) -> int | None:
    """Total months in "2 years 6 months", "1 year", "7 months", "a month"; None when no (plausible) duration."""
    if not isinstance(s, str) or len(s) > 200:
        return None
    return _months_from_short_duration(s)


@functools.lru_cache(maxsize=10_000)
def _months_from_short_duration(s: str) -> int | None:
    """months_from_duration of at most 200 characters: durations recur, each is read once per process."""
    total = 0
    found = False
    for m in _DURATION_PART_RE.finditer(s):
        qty = m.group(1).lower()
        n = 1 if qty in ("a", "an", "one") else int(qty)
        unit = m.group(2).lower()
        total += n * 12 if unit.startswith("y") else n
        found = True
    if not found and _LESS_THAN_A_MONTH_RE.search(s):
        return 0
    return total if found and total <= _MAX_DURATION_MONTHS else None


# --------------------------------------------------------------------------------------------------------------------
# Topic splitting
# --------------------------------------------------------------------------------------------------------------------

# Costs of the topic segmentation. Tuned on glued runs of real GitHub topic names (the featured topics and their
# aliases, some left out of the vocabulary) and on the synthetic profiles; both reference lines must come out right.
UNKNOWN_SEGMENT_COST = 4  # A: paid once per unknown segment; a known word of A+1 letters or fewer between two
# unknown runs is swallowed by them, so A stays small
UNKNOWN_CHAR_COST = 1  # B: paid per character of an unknown segment
KNOWN_SEGMENT_COST = 1
# One- to three-letter known words ("c", "go", "boo", "lib" are all Linguist names) cost their length or more, so
# carving them off the edge of an unknown word never pays ("bootloader" is not "boo" + "tloader") and a run of them
# does not beat an unknown word ("jvm" is not "j" + "v" + "m"); between two known words they still split.
SHORT_KNOWN_COSTS = {1: 4, 2: 3, 3: 3}
# Unknown stubs of one to three characters pay extra, so a known word is not carved off an unknown one when that
# leaves a stub ("awesome-lists" is not "awesome-list" + "s"). Longer stubs are not protected: with "unity" known and
# "community" unknown, "community" glued alone reads as "comm" + "unity" (the hyphen rule saves "community-driven").
SHORT_UNKNOWN_PENALTY = {1: 20, 2: 3, 3: 1}
_LONG_UNKNOWN = max(SHORT_UNKNOWN_PENALTY) + 1
DIGIT_START_PENALTY = 6  # an unknown topic starting with a digit ("laravel" + "54") is unlikely
_MAX_KNOWN_LEN = 64
MAX_TOKEN_LENGTH = 2000
_TOPIC_SPLIT_RE = re.compile(r"[\s,;|]+")


def _known_cost(length: int) -> int:
    return SHORT_KNOWN_COSTS.get(length, KNOWN_SEGMENT_COST)


def _unknown_cost(length: int) -> int:
    return UNKNOWN_SEGMENT_COST + UNKNOWN_CHAR_COST * length + SHORT_UNKNOWN_PENALTY.get(length, 0)


@functools.lru_cache(maxsize=16)
def _reversed_trie(vocabulary: frozenset[str]) -> dict:
    """The vocabulary's words spelled backwards as nested dicts ("" marks a word's start), to find every known
    word ending at a position by walking back from it."""
    root: dict = {}
    for word in vocabulary:
        if not isinstance(word, str) or not word or len(word) > _MAX_KNOWN_LEN:
            continue
        node = root
        for ch in reversed(word):
            node = node.setdefault(ch, {})
        node[""] = True
    return root


# The segmentation packs each (cost, number of segments) pair into one integer, cost * _PACKED + segments: integers
# compare and add faster than tuples, in the same order (a token has fewer than _PACKED segments).
_PACKED = 1 << 12
assert MAX_TOKEN_LENGTH < _PACKED
_UNREACHED = 1 << 62  # no segmentation of the prefix yet: above every reachable packed cost
# Packed costs of one more segment: a long unknown one opened (then growing by _PACKED_CHAR a character), a short
# unknown one of each length below _LONG_UNKNOWN, a known word of each length; the digit-start penalty.
_PACKED_CHAR = UNKNOWN_CHAR_COST * _PACKED
_PACKED_LONG_UNKNOWN = (UNKNOWN_SEGMENT_COST + UNKNOWN_CHAR_COST * _LONG_UNKNOWN) * _PACKED + 1
_PACKED_SHORT_UNKNOWN = tuple((length, _unknown_cost(length) * _PACKED + 1) for length in range(1, _LONG_UNKNOWN))
_PACKED_KNOWN = tuple(_known_cost(length) * _PACKED + 1 for length in range(_MAX_KNOWN_LEN + 1))
_PACKED_DIGIT_START = DIGIT_START_PENALTY * _PACKED


def _segment(token: str, vocabulary: frozenset[str], extra: frozenset[str] = frozenset()) -> list[str]:
    """Minimum-cost segmentation of one glued token into known words and unknown runs (see split_topics).

    Costs are (cost, number of segments) pairs, so among equally cheap readings the one with fewer topics wins.
    ``vocabulary`` is walked through a trie built once per vocabulary; the few ``extra`` words are matched directly.
    """
    s = token.strip("-")
    n = len(s)
    if n == 0:
        return []
    if n > MAX_TOKEN_LENGTH:
        return [s]  # not a line of topics; do not spend time on it
    low = s.lower()
    trie = _reversed_trie(vocabulary)
    # Unknown topics rarely start with a digit once glued to a previous one ("laravel" + "54"): a penalty.
    lead = [0] + [_PACKED_DIGIT_START if ch.isdigit() else 0 for ch in s[1:]]
    # A topic boundary may fall between s[i-1] and s[i]: not next to '-', not inside a run of digits.
    cut = [True]
    cut += [a != "-" and b != "-" and not (a.isdigit() and b.isdigit()) for a, b in itertools.pairwise(s)]
    cut.append(True)
    # best[i]: the cheapest segmentation of s[:i], its last segment s[start[i]:i], known or not. A candidate built on
    # an unreached prefix costs _UNREACHED or more, so it never beats best[i] (at most _UNREACHED): no test needed.
    best = [_UNREACHED] * (n + 1)
    start = [0] * (n + 1)
    known = [False] * (n + 1)
    # Unknown segments of _LONG_UNKNOWN letters or more have linear cost: keep the cheapest one still open at i.
    long_open = [_UNREACHED] * (n + 1)
    long_start = [0] * (n + 1)
    best[0] = 0
    # Where each ``extra`` word occurs, by the position it ends at: (start, packed cost), in the order of ``extra``.
    extra_ending: dict[int, list[tuple[int, int]]] = {}
    for word in extra:
        if word and word in low:
            cost = _known_cost(len(word)) * _PACKED + 1
            j = low.find(word)
            while j >= 0:
                extra_ending.setdefault(j + len(word), []).append((j, cost))
                j = low.find(word, j + 1)

    for i in range(1, n + 1):
        j = i - _LONG_UNKNOWN
        extended = long_open[i - 1] + _PACKED_CHAR
        if (
            j >= 0
            and cut[j]
            and best[j] < _UNREACHED
            and (fresh := best[j] + _PACKED_LONG_UNKNOWN + lead[j]) <= extended
        ):
            long_open[i], long_start[i] = fresh, j
        else:
            long_open[i], long_start[i] = extended, long_start[i - 1]
        if not cut[i]:
            continue
        best_i = best[i]
        if long_open[i] < best_i:
            best_i, start[i] = long_open[i], long_start[i]
        for length, cost in _PACKED_SHORT_UNKNOWN:
            j = i - length
            if j < 0:
                break
            if cut[j] and (cand := best[j] + cost + lead[j]) < best_i:
                best_i, start[i] = cand, j
        known_at = -1  # the start of the last segment when it is a known word
        node = trie
        j = i
        while j > 0:
            node = node.get(low[j - 1])
            if node is None:
                break
            j -= 1
            if "" in node and cut[j] and (cand := best[j] + _PACKED_KNOWN[i - j]) < best_i:
                best_i, known_at = cand, j
        for j, cost in extra_ending.get(i, ()):
            if cut[j] and (cand := best[j] + cost) < best_i:
                best_i, known_at = cand, j
        if known_at >= 0:
            start[i], known[i] = known_at, True
        best[i] = best_i
    if best[n] >= _UNREACHED:
        return [s]
    segments: list[tuple[str, bool]] = []
    i = n
    while i > 0:
        j = start[i]
        segments.append((s[j:i], known[i]))
        i = j
    segments.reverse()
    merged: list[tuple[str, bool]] = []
    for seg, is_known in segments:
        if merged and not is_known and not merged[-1][1]:
            merged[-1] = (merged[-1][0] + seg, False)  # adjacent unknown runs are one topic
        else:
            merged.append((seg, is_known))
    return [seg for seg, _ in merged]


@functools.lru_cache(maxsize=50_000)
def _segment_cached(token: str, vocabulary: frozenset[str], extra: frozenset[str]) -> tuple[str, ...]:
    """Repositories recur across profiles: their topic lines are split once per worker process."""
    return tuple(_segment(token, vocabulary, extra))


def split_topics(raw: str, vocabulary: frozenset[str], extra: frozenset[str] = frozenset()) -> list[str]:
    """Split a line of GitHub topics glued into one word ("pythondata-sciencedeep-learning") into topics.

    Dynamic programming over the cut points: a segment found in ``vocabulary`` (label keys) costs 1, an unknown
    segment costs ``A + B*len`` (A=4, B=1), so a run of unknown text between known words stays one topic; very
    short known words cost more and very short unknown stubs pay a penalty, so short known words are not carved out
    of longer unknown ones. No segment starts or ends with '-' and no cut falls inside a run of digits. Whitespace or
    commas, when present, are hard boundaries. Duplicates are dropped, order kept. Two unknown topics glued together
    cannot be told apart and come out as one.

    ``extra`` holds a few more known words (a document's own labels): kept apart from ``vocabulary`` so the large,
    shared vocabulary's index is built once, not once per document.
    """
    if not isinstance(raw, str):
        return []
    if not isinstance(vocabulary, frozenset):
        vocabulary = frozenset(vocabulary)
    out: list[str] = []
    seen: set[str] = set()
    for token in _TOPIC_SPLIT_RE.split(clean_text(raw)):
        low = token.lower()
        relevant = frozenset(word for word in extra if word in low and word not in vocabulary)
        for topic in _segment_cached(token, vocabulary, relevant):
            if topic and topic not in seen:
                seen.add(topic)
                out.append(topic)
    return out
