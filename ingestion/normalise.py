"""Pure text helpers shared by the profile parsers: countries, labels, dates, durations and topic splitting.

Nothing here touches the database or the network; pycountry's bundled data is the only lookup.
"""

from __future__ import annotations

import functools
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


def _strip_controls(s: str, keep: str = "") -> str:
    """Drop control characters (Unicode category Cc) except those in ``keep``; whitespace controls become spaces."""
    out = []
    for ch in s:
        if unicodedata.category(ch) == "Cc" and ch not in keep:
            if ch in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85":
                out.append(" ")
            continue
        out.append(ch)
    return "".join(out)


def clean_text(s: str) -> str:
    """NFC-normalise, drop control characters and collapse every run of whitespace to one space."""
    if not s:
        return ""
    s = unicodedata.normalize("NFC", s)
    s = _strip_controls(s)
    return _WS_RE.sub(" ", s).strip()


def clean_paragraphs(s: str) -> str:
    """Like :func:`clean_text` but keeps line breaks (at most one blank line in a row)."""
    if not s:
        return ""
    s = unicodedata.normalize("NFC", s).replace("\r\n", "\n").replace("\r", "\n")
    s = s.replace("\u2028", "\n").replace("\u2029", "\n")
    s = _strip_controls(s, keep="\n")
    lines = [_SPACES_RE.sub(" ", line).strip() for line in s.split("\n")]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def label_key(label: str) -> str:
    """The lookup key of a skill/topic label: lower-case, stripped, inner whitespace runs turned into '-'."""
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


_DURATION_PART_RE = re.compile(r"(\d+|an?|one)\s*(years?|yrs?|months?|mos?)\b", re.IGNORECASE)


def months_from_duration(s: str | None) -> int | None:
    """Total months in "2 years 6 months", "1 year", "7 months", "a month"; None when no duration is found."""
    if not isinstance(s, str) or len(s) > 200:
        return None
    total = 0
    found = False
    for m in _DURATION_PART_RE.finditer(s):
        qty = m.group(1).lower()
        n = 1 if qty in ("a", "an", "one") else int(qty)
        unit = m.group(2).lower()
        total += n * 12 if unit.startswith("y") else n
        found = True
    if not found and re.search(r"less than a month", s, re.IGNORECASE):
        return 0
    return total if found else None


# --------------------------------------------------------------------------------------------------------------------
# Topic splitting
# --------------------------------------------------------------------------------------------------------------------

UNKNOWN_SEGMENT_COST = 9  # A: paid once per unknown segment
UNKNOWN_CHAR_COST = 1  # B: paid per character of an unknown segment
KNOWN_SEGMENT_COST = 1
SHORT_KNOWN_SEGMENT_COST = 2  # one- and two-letter known words ("c", "go") are not carved off the edge of unknown words
_MAX_KNOWN_LEN = 64
_TOPIC_SPLIT_RE = re.compile(r"[\s,;|]+")


def _known_cost(length: int) -> int:
    return KNOWN_SEGMENT_COST if length >= 3 else SHORT_KNOWN_SEGMENT_COST


def _segment(token: str, vocabulary: frozenset[str] | set[str]) -> list[str]:
    """Minimum-cost segmentation of one glued token into topics (known words cost 1, unknown runs A + B*len)."""
    s = token.strip("-")
    n = len(s)
    if n == 0:
        return []
    low = s.lower()
    inf = (float("inf"), 0)
    best: list[tuple[float, int]] = [inf] * (n + 1)  # s[:i] segmented, last segment closed at i
    best_from: list[tuple[int, bool]] = [(0, False)] * (n + 1)  # (start of last segment, last segment known?)
    unk: list[tuple[float, int]] = [inf] * (n + 1)  # s[:i] with an open unknown last segment
    unk_start = [0] * (n + 1)
    best[0] = (0, 0)
    a, b = UNKNOWN_SEGMENT_COST, UNKNOWN_CHAR_COST
    for i in range(1, n + 1):
        ch = s[i - 1]
        # extend or open an unknown segment ending at i
        cand_ext = (unk[i - 1][0] + b, unk[i - 1][1])
        cand_new = (best[i - 1][0] + a + b, best[i - 1][1] + 1) if ch != "-" else inf
        if cand_new <= cand_ext:
            unk[i], unk_start[i] = cand_new, i - 1
        else:
            unk[i], unk_start[i] = cand_ext, unk_start[i - 1]
        if ch == "-":
            continue  # no segment may end with '-'
        best[i], best_from[i] = unk[i], (unk_start[i], False)
        for j in range(max(0, i - _MAX_KNOWN_LEN), i):
            if s[j] == "-" or best[j][0] == float("inf"):
                continue
            if low[j:i] in vocabulary:
                cand = (best[j][0] + _known_cost(i - j), best[j][1] + 1)
                if cand < best[i]:
                    best[i], best_from[i] = cand, (j, True)
    if best[n][0] == float("inf"):
        return [s]
    segments: list[tuple[str, bool]] = []
    i = n
    while i > 0:
        j, known = best_from[i]
        segments.append((s[j:i], known))
        i = j
    segments.reverse()
    merged: list[tuple[str, bool]] = []
    for seg, known in segments:
        if merged and not known and not merged[-1][1]:
            merged[-1] = (merged[-1][0] + seg, False)
        else:
            merged.append((seg, known))
    return [seg for seg, _ in merged]


def split_topics(raw: str, vocabulary: frozenset[str] | set[str]) -> list[str]:
    """Split a line of GitHub topics glued into one word ("pythondata-sciencedeep-learning") into topics.

    Dynamic programming over the cut points: a segment found in ``vocabulary`` (label keys) costs 1, an unknown
    segment costs ``A + B*len``, so a run of unknown text between known words stays one topic and short known words
    are not carved out of longer unknown ones. No segment starts or ends with '-'. Whitespace or commas, when
    present, are hard boundaries. Duplicates are dropped, order kept.
    """
    if not isinstance(raw, str):
        return []
    out: list[str] = []
    seen: set[str] = set()
    for token in _TOPIC_SPLIT_RE.split(clean_text(raw)):
        for topic in _segment(token, vocabulary):
            if topic and topic not in seen:
                seen.add(topic)
                out.append(topic)
    return out
