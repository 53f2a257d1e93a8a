"""Where a job is, read from its text: the countries it is in or limited to, and whether it can be done remotely.
Pure: the cities come from the caller (the service layer reads them from the database).

- A country is named by its ISO 3166 names (pycountry: name, common and official names) or a common name
  (``core.countries.COUNTRY_ALIASES``: UK, USA, Holland...); the short ones (UK, US, USA, UAE) only in capitals, so
  "us" the pronoun is no country. A city of the ``cities`` mapping (name -> alpha-2) gives its country, written with
  a capital.
- Only the job's own place counts, not every country the text names ("shops in Spain and Portugal" is the market):
  a place in the heading block (the lines before the first blank line), on a line or under a heading about the place
  ("Location", "Where"), or after a cue in its sentence ("based in", "office is in", "remote within", "anywhere in").
- ``remote``: False when the text says remote work is not offered ("we can't offer fully remote") or asks for
  presence (hybrid, on-site, in the office on Mondays) and never offers full remote; True when it offers the whole
  job remotely ("fully remote", "100% remote within Spain", "remote-first", "work from anywhere", an overview's
  "Location Type: Remote" or "Remote: yes"), even with occasional meetings; None when it says neither (a "lab with a
  good canteen" is not a rule about presence).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping

import ahocorasick
import pycountry

from core.countries import COUNTRY_ALIASES

_SHORT_CODES = {"uk": "GB", "us": "US", "usa": "US", "uae": "AE", "u.k.": "GB", "u.s.": "US", "u.s.a.": "US"}

_PLACE_CUES = (
    "based", "located", "office", "studio", "lab", "remote", "remotely", "within", "anywhere", "relocate",
    "relocation", "resident", "residents", "reside", "live", "eligible to work", "right to work", "work from",
    "working from", "onsite", "on-site", "hybrid", "location", "candidates", "applicants", "open to", "hiring in",
    "hire in", "hire from", "work in", "working in",
)  # fmt: skip
# Places that are someone else's: the company's other offices and headquarters, its team, customers and partners.
# The nearest of these or of a cue before a place decides ("our HQ is in Paris; this role is based in Lyon").
_OTHERS_RE = re.compile(
    r"\b(?:offices|hq|headquarter(?:s|ed)|customers?|clients?|users|partners|team members|teammates|colleagues|"
    r"employees|people|founders?|investors|subsidiar(?:y|ies)|engineers|hubs?|also in|presence)\b"
)
# "a U.S.-based company", "a Berlin-headquartered scale-up": the company's place, not the job's.
_COMPANY_PLACE_AFTER_RE = re.compile(
    r"-?\s?(?:based|headquartered|born)\s+(?:\w+\s+)?(?:company|startup|start-up|firm|business|organi[sz]ation|"
    r"scale-?up|group|provider|leader|agency|platform|bank|retailer|team)\b"
)
# "Freiburg (D)": a city with its country's letters (a car's country code) in brackets.
_COUNTRY_LETTERS = {
    "D": "DE", "DE": "DE", "A": "AT", "AT": "AT", "CH": "CH", "F": "FR", "FR": "FR", "NL": "NL", "B": "BE", "BE": "BE",
    "I": "IT", "IT": "IT", "E": "ES", "ES": "ES", "PL": "PL", "DK": "DK", "UK": "GB", "GB": "GB", "IRL": "IE",
    "IE": "IE", "P": "PT", "PT": "PT", "S": "SE", "SE": "SE", "N": "NO", "NO": "NO", "FIN": "FI", "FI": "FI",
    "CZ": "CZ", "L": "LU", "LU": "LU", "US": "US", "USA": "US",
}  # fmt: skip
_CITY_LETTERS_RE = re.compile(r"\b[A-Z][\w.-]{0,40}?[a-z] \(([A-Z]{1,3})\)")
_CUE_DISTANCE = 40  # a cue counts up to this many characters before the place, in its sentence
_PLACE_CUE_RE = re.compile(
    r"\b(?:" + "|".join(re.escape(cue) for cue in _PLACE_CUES) + r")\b[^.;!?\n]{0," + str(_CUE_DISTANCE) + "}$"
)
# How far back a cue may start: only that much of the line before a place is searched, whatever the line's length.
_CUE_REACH = _CUE_DISTANCE + max(len(cue) for cue in _PLACE_CUES) + 1
_PLACE_HEADING_RE = re.compile(r"\b(?:location|where|place|based|office|remote)\b")
_PLACE_LINE_RE = re.compile(r"^\W*(?:location|based in|where|office)\b")

_NOT_REMOTE_RE = re.compile(
    r"\b(?:can't|cannot|can not|don't|do not|doesn't|does not|won't|will not|unable to|not able to)\s+"
    r"(?:offer|support|do|allow|consider|provide|hire)\s+(?:\w+\s+)?(?:fully\s+|full\s+|100% )?remote|"
    r"\bno\s+(?:fully\s+|full\s+)?remote\b|\bnot\s+(?:a\s+)?(?:fully\s+|full\s+)?remote\b|"
    r"\bremote(?:\s+work(?:ing)?)?\s+(?:is\s+)?not\s+(?:possible|available|an option|offered)"
)
_REMOTE_RE = re.compile(
    r"\b(?:fully|100%|100 %|completely|entirely|full|totally|permanently)[- ]remote(?:ly)?\b|"
    r"\bremote[- ](?:first|only)\b|\bremote(?:ly)?\s+(?:within|from anywhere|anywhere|across|in)\b|"
    r"\bwork(?:ing)?\s+(?:from\s+anywhere|from\s+home|remotely)\b|"
    r"\b(?:role|job|position|team|company) is\s+(?:fully\s+)?remote\b|"
    r"\bremote\s+(?:role|position|job|contract|opportunity)\b|\(remote\)|^[^\w\n]*remote[^\w\n]*$",
    re.MULTILINE,
)
# An overview's field saying the job is remote: "Location Type: Remote", "Workplace type: Remote", "Remote: yes",
# "Location: Remote (US)". A field naming a place or presence ("Location: London", "Location Type: Hybrid") says
# nothing, nor does one offering a choice ("Remote or hybrid").
_REMOTE_FIELD_RE = re.compile(
    r"^[^\w\n]*(?:(?:job |work |workplace |work location |location |employment )?(?:type|model|arrangement|setup)|"
    r"location|workplace|work location)\s*:[ \t]*(?:fully |100% )?remote\b"
    r"(?![ \t]*(?:or|/|,)[ \t]*(?:hybrid|on-?site))|"
    r"^[^\w\n]*remote(?: work)?(?: possible| option)?\s*:[ \t]*(?:yes|possible|allowed|available|true)\b",
    re.MULTILINE,
)
_PRESENCE_RE = re.compile(
    r"\bhybrid\b|\bhome office \(partial(?:ly)?\)|\bpartial(?:ly)? home office\b|"
    r"\bon[- ]?site\b|\bin[- ]office\b|\boffice[- ]based\b|\bin[- ]person\b|"
    r"\b(?:in|at) the (?:office|studio|lab)\s+(?:on|every|\d|one|two|three|four)|"
    r"\bdays? (?:a|per) week (?:in|at|from) (?:the|our)\b|"
    r"\b(?:is|are|be) in (?:the office )?(?:on|every) (?:mondays|tuesdays|wednesdays|thursdays|fridays|weekdays)\b"
)


# Cities a job is often in, known without the candidates' cities ("Location: London, Barcelona"): the tech hubs of the
# countries posts come from. Names that are also common words or people's names (Nice, Reading, Phoenix) and names
# several countries share (Cambridge, Santiago) are left out; the caller's cities add to them and win.
WELL_KNOWN_CITIES: dict[str, str] = {
    **dict.fromkeys(("London", "Manchester", "Edinburgh", "Glasgow", "Bristol", "Leeds", "Birmingham", "Belfast",
                     "Cardiff", "Oxford", "Brighton", "Liverpool", "Newcastle", "Sheffield", "Nottingham"), "GB"),
    **dict.fromkeys(("Dublin", "Cork", "Galway"), "IE"),
    **dict.fromkeys(("Berlin", "Munich", "München", "Hamburg", "Frankfurt", "Cologne", "Köln", "Stuttgart",
                     "Düsseldorf", "Leipzig", "Dresden", "Karlsruhe", "Nuremberg", "Nürnberg", "Hannover", "Freiburg",
                     "Bonn", "Aachen", "Darmstadt", "Heidelberg"), "DE"),
    **dict.fromkeys(("Vienna", "Wien", "Graz", "Linz"), "AT"),
    **dict.fromkeys(("Zurich", "Zürich", "Geneva", "Genève", "Basel", "Lausanne", "Bern"), "CH"),
    **dict.fromkeys(("Paris", "Lyon", "Toulouse", "Marseille", "Bordeaux", "Lille", "Nantes", "Grenoble",
                     "Montpellier", "Rennes", "Strasbourg", "Sophia Antipolis"), "FR"),
    **dict.fromkeys(("Madrid", "Barcelona", "Valencia", "Seville", "Sevilla", "Málaga", "Malaga", "Bilbao",
                     "Zaragoza", "Alicante"), "ES"),
    **dict.fromkeys(("Lisbon", "Lisboa", "Porto", "Braga", "Coimbra"), "PT"),
    **dict.fromkeys(("Milan", "Milano", "Rome", "Roma", "Turin", "Torino", "Bologna"), "IT"),
    **dict.fromkeys(("Amsterdam", "Rotterdam", "Utrecht", "Eindhoven", "The Hague", "Delft"), "NL"),
    **dict.fromkeys(("Brussels", "Antwerp", "Ghent"), "BE"),
    **dict.fromkeys(("Copenhagen", "Aarhus"), "DK"),
    **dict.fromkeys(("Stockholm", "Gothenburg", "Malmö"), "SE"),
    **dict.fromkeys(("Oslo", "Trondheim"), "NO"),
    **dict.fromkeys(("Helsinki", "Espoo", "Tampere"), "FI"),
    **dict.fromkeys(("Warsaw", "Kraków", "Krakow", "Wrocław", "Wroclaw", "Gdańsk", "Gdansk", "Poznań", "Poznan"), "PL"),
    **dict.fromkeys(("Prague", "Brno"), "CZ"),
    **dict.fromkeys(("Budapest",), "HU"),
    **dict.fromkeys(("Bucharest", "Cluj-Napoca", "Iași"), "RO"),
    **dict.fromkeys(("Sofia",), "BG"),
    **dict.fromkeys(("Athens", "Thessaloniki"), "GR"),
    **dict.fromkeys(("Tallinn",), "EE"),
    **dict.fromkeys(("Vilnius",), "LT"),
    **dict.fromkeys(("Riga",), "LV"),
    **dict.fromkeys(("Kyiv", "Kiev", "Lviv", "Kharkiv"), "UA"),
    **dict.fromkeys(("Istanbul", "Ankara"), "TR"),
    **dict.fromkeys(("Tel Aviv", "Haifa"), "IL"),
    **dict.fromkeys(("Dubai", "Abu Dhabi"), "AE"),
    **dict.fromkeys(("Bangalore", "Bengaluru", "Pune", "Hyderabad", "Chennai", "Mumbai", "New Delhi", "Delhi",
                     "Gurgaon", "Gurugram", "Noida", "Kolkata", "Ahmedabad", "Kochi", "Coimbatore"), "IN"),
    **dict.fromkeys(("São Paulo", "Sao Paulo", "Rio de Janeiro", "Belo Horizonte", "Curitiba", "Porto Alegre",
                     "Florianópolis", "Florianopolis", "Recife", "Campinas"), "BR"),
    **dict.fromkeys(("Buenos Aires",), "AR"),
    **dict.fromkeys(("Mexico City", "Ciudad de México", "Guadalajara", "Monterrey"), "MX"),
    **dict.fromkeys(("Bogotá", "Bogota", "Medellín", "Medellin"), "CO"),
    **dict.fromkeys(("Toronto", "Vancouver", "Montreal", "Montréal", "Ottawa", "Calgary", "Waterloo"), "CA"),
    **dict.fromkeys(("New York", "New York City", "NYC", "San Francisco", "Seattle", "Boston", "Chicago",
                     "Los Angeles", "Austin", "Denver", "Atlanta", "San Jose", "Palo Alto", "Mountain View",
                     "Sunnyvale", "San Diego", "Pittsburgh", "Washington, D.C.", "Philadelphia", "Miami",
                     "Salt Lake City", "Raleigh", "Dallas", "Houston", "Minneapolis", "Detroit"), "US"),
    **dict.fromkeys(("Singapore",), "SG"),
    **dict.fromkeys(("Tokyo", "Osaka"), "JP"),
    **dict.fromkeys(("Seoul",), "KR"),
    **dict.fromkeys(("Sydney", "Melbourne", "Brisbane", "Perth"), "AU"),
    **dict.fromkeys(("Auckland", "Wellington"), "NZ"),
    **dict.fromkeys(("Cape Town", "Johannesburg"), "ZA"),
    **dict.fromkeys(("Lagos", "Abuja"), "NG"),
    **dict.fromkeys(("Nairobi",), "KE"),
    **dict.fromkeys(("Cairo",), "EG"),
}  # fmt: skip


def _fold_key(name: str) -> str:
    return name.casefold().replace("\u2019", "'")


@functools.cache
def _country_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for country in pycountry.countries:
        for attr in ("name", "common_name", "official_name"):
            if value := getattr(country, attr, None):
                names.setdefault(_fold_key(value), country.alpha_2)
    for alias, code in COUNTRY_ALIASES.items():
        if len(alias) > 3:
            names[alias] = code
    return names


class _ByIdentity:
    __slots__ = ("mapping",)

    def __init__(self, mapping: Mapping[str, str] | None) -> None:
        self.mapping = mapping

    def __hash__(self) -> int:
        return id(self.mapping)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByIdentity) and other.mapping is self.mapping


@functools.lru_cache(maxsize=4)
def _place_automaton(key: _ByIdentity) -> ahocorasick.Automaton:
    """Place names -> (length, alpha-2, kind): countries, the capitals-only short codes, then the cities."""
    automaton = ahocorasick.Automaton()
    for name, code in {**WELL_KNOWN_CITIES, **(key.mapping or {})}.items():
        if (folded := _fold_key(name.strip())) and len(folded) > 1 and code:
            automaton.add_word(folded, (len(folded), code.upper(), "city"))
    for name, code in _country_names().items():
        automaton.add_word(name, (len(name), code, "country"))
    for name, code in _SHORT_CODES.items():
        automaton.add_word(name, (len(name), code, "code"))
    automaton.make_automaton()
    return automaton


def _mentions(text: str, folded: str, cities: Mapping[str, str] | None) -> list[tuple[int, int, str]]:
    found = []
    for last, (length, code, kind) in _place_automaton(_ByIdentity(cities)).iter(folded):
        start, end = last - length + 1, last + 1
        if (start and folded[start - 1].isalnum()) or (end < len(folded) and folded[end].isalnum()):
            continue
        surface = text[start:end]
        if kind == "code" and surface != surface.upper():
            continue
        if kind != "code" and not surface[:1].isupper():
            continue
        found.append((start, end, code))
    found.sort(key=lambda m: (m[0], m[0] - m[1]))
    chosen, reach = [], -1
    for start, end, code in found:  # the longest at each place ("United States" over "States"... and no overlaps)
        if start >= reach:
            chosen.append((start, end, code))
            reach = end
    return chosen


def named_places(text: str, folded: str, cities: Mapping[str, str] | None) -> list[tuple[int, int, str]]:
    """The places ``text`` names, written with a capital (``folded`` its lower-cased text), as (start, end, alpha-2) in
    text order, the longest at each place: countries, the capitals-only short codes, the well-known cities and
    ``cities``."""
    return _mentions(text, folded, cities)


# What a line that only says where the job is holds besides its places: "Based in Lisbon, Portugal", "Barcelona,
# Spain (hybrid)", "London or remote".
_PLACE_LINE_REST_RE = re.compile(
    r"(?:[\W\d_]|\b(?:remote|hybrid|on-?site|office|or|and|in|based|located|area|region|metro|greater)\b)*"
)
_PLACE_LINE_START_RE = re.compile(r"[^\w\n]*(?:based|located)\s+in\b")


def is_place_line(line: str, folded: str, cities: Mapping[str, str] | None) -> bool:
    """Whether a line (``folded``: lower-cased, of the same length) only says where the job is: "Based in Lisbon,
    Portugal", "Barcelona, Spain (hybrid)"."""
    mentions = _mentions(line, folded, cities)
    if not mentions and not _PLACE_LINE_START_RE.match(folded):
        return False
    rest, position = [], 0
    for start, end, _ in mentions:
        rest.append(folded[position:start])
        position = end
    rest.append(folded[position:])
    return all(_PLACE_LINE_REST_RE.fullmatch(part) for part in rest)


def job_countries(
    text: str, folded: str, *, header_end: int, place_spans: list[tuple[int, int]], cities: Mapping[str, str] | None
) -> list[str]:
    """The alpha-2 codes of the places the job is in or limited to, in the order the text names them.

    ``header_end``: where the heading block ends; ``place_spans``: the lines under a heading about the place (in text
    order). Each line is read once, however many places it names.
    """
    countries: list[str] = []
    span_starts = [start for start, _ in place_spans]
    newlines = [match.start() for match in _NEWLINE_RE.finditer(folded)]
    place_lines: dict[int, int | None] = {}  # line start -> where its "Location:" (or the like) ends, None: no such
    for start, end, code in _mentions(text, folded, cities):
        line_start = newlines[index - 1] + 1 if (index := bisect_left(newlines, start)) else 0
        if line_start not in place_lines:
            line_end = newlines[index] if index < len(newlines) else len(folded)
            place_line = _PLACE_LINE_RE.match(folded[line_start:line_end])
            place_lines[line_start] = line_start + place_line.end() if place_line else None
        span = bisect_right(span_starts, start) - 1
        place_line_end = place_lines[line_start]
        own_place = (
            start < header_end
            or (span >= 0 and start < place_spans[span][1])
            or (place_line_end is not None and place_line_end <= start)
            or _cued(folded, max(line_start, start - _CUE_REACH), start)
        )
        if own_place and _COMPANY_PLACE_AFTER_RE.match(folded, end, end + 40):
            own_place = False
        if own_place and code not in countries:
            countries.append(code)
    for match in _CITY_LETTERS_RE.finditer(text):
        code = _COUNTRY_LETTERS.get(match.group(1))
        line_start = text.rfind("\n", 0, match.start()) + 1
        if code and code not in countries and not _others_before(folded, line_start, match.start()):
            countries.append(code)
    return countries


def _cued(folded: str, low: int, start: int) -> bool:
    """A cue of the job's own place stands before ``start`` in its sentence, and the sentence speaks of no one else's
    place (offices, customers, the team) unless it turns to the job after that ("our HQ is in Paris; the role is in
    Lyon")."""
    if _PLACE_CUE_RE.search(folded, low, start) is None:
        return False
    return not _others_before(folded, low, start)


_JOB_RE = re.compile(r"\b(?:th(?:is|e) (?:role|job|position)|you|you'll|you will|you're|candidates)\b")


def _others_before(folded: str, low: int, start: int) -> bool:
    """Whether the sentence before ``start`` (from ``low``) names someone else's place after its last word about
    the job."""
    window = folded[low:start]
    window = window[max(window.rfind("."), window.rfind(";")) + 1 :]
    others = [match.end() for match in _OTHERS_RE.finditer(window)]
    if not others:
        return False
    return not any(match.start() >= others[-1] for match in _JOB_RE.finditer(window))


_NEWLINE_RE = re.compile(r"\n")


def names_others(folded_line: str) -> bool:
    """Whether a (lower-cased) line speaks of someone else's places: offices, headquarters, customers, the team."""
    return _OTHERS_RE.search(folded_line) is not None


def is_place_heading(heading: str) -> bool:
    return _PLACE_HEADING_RE.search(heading) is not None


# A remote job open across the world: "fully remote (global)", "from anywhere in the world"; not "anywhere in Spain".
_WORLDWIDE_RE = re.compile(
    r"\bremote[^.;\n]{0,40}?\b(?:global(?:ly)?|worldwide|anywhere in the world|from anywhere(?! in\b))|"
    r"\b(?:global(?:ly)?|worldwide|anywhere in the world)\b[^.;\n]{0,20}?\bremote|"
    r"\b(?:from|work from) anywhere in the world\b"
)


def open_worldwide(folded: str) -> bool:
    """Whether the post offers the job remotely from anywhere in the world: then it is in no country."""
    return ("remote" in folded or "anywhere" in folded) and _WORLDWIDE_RE.search(folded) is not None


def job_remote(folded: str, *, header_end: int) -> bool | None:
    """True, False or None (see the module docstring); ``folded`` is the lower-cased text."""
    # Each pattern of remote work holds "remote" (or "work", for "work from anywhere"): a text without them is not
    # searched, a long one would be read once per pattern for nothing.
    if "remote" in folded and _NOT_REMOTE_RE.search(folded):
        return False
    header = folded[:header_end]
    if (
        (("remote" in folded or "work" in folded) and _REMOTE_RE.search(folded))
        or re.search(r"\bremote\b", header)
        or ("remote" in folded and _REMOTE_FIELD_RE.search(folded))
    ):
        return True
    if _PRESENCE_RE.search(folded):
        return False
    return None
