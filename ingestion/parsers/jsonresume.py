"""Parser for JSON Resume documents (https://jsonresume.org, schema v1, plus the common legacy keys).

The JSON Schema is only used to produce warnings: a résumé with a usable ``basics.name`` always imports, whatever
else is wrong with it. Extension keys are ignored.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import jsonschema
import jsonschema_rs

from core.countries import country_code, country_name
from core.dates import months_worked, parse_month
from core.identity import identity_text, url_parts
from core.labels import MAX_LABEL_CHARS, MAX_LABEL_PIECES, label_key, label_variants
from core.languages import (
    ELEMENTARY,
    FULL_PROFESSIONAL,
    LIMITED_WORKING,
    NATIVE,
    PROFESSIONAL_WORKING,
    fluency_level,
    read_spoken_language,
)
from core.text import clean_paragraphs, clean_text
from ingestion.documents import (
    AwardEntry,
    ContributionEntry,
    EducationEntry,
    Identifiers,
    LanguageEntry,
    Location,
    ParseError,
    PositionEntry,
    ProfileDocument,
    SkillEntry,
)
from ingestion.parsers.locations import location_from_text

__all__ = ["LEVELS", "SCHEMA", "is_other_format", "level_score", "parse_jsonresume"]

NO_NAME = "No name found in basics.name."
MAX_SCHEMA_WARNINGS = 20

# --------------------------------------------------------------------------------------------------------------------
# Schema: the parts of the JSON Resume v1 schema (jsonresume/resume-schema, MIT) that describe the fields we read.
# Every object allows extra keys: extension keys are not an error here.
# --------------------------------------------------------------------------------------------------------------------

ISO8601_PATTERN = r"^([1-2][0-9]{3}-[0-1][0-9]-[0-3][0-9]|[1-2][0-9]{3}-[0-1][0-9]|[1-2][0-9]{3})$"
_STR: dict = {"type": "string"}
_DATE: dict = {"type": "string", "pattern": ISO8601_PATTERN}
_URL: dict = {"type": "string", "format": "uri"}
_STR_LIST: dict = {"type": "array", "items": _STR}


def _obj(**properties: dict) -> dict:
    return {"type": "object", "additionalProperties": True, "properties": properties}


def _arr(items: dict) -> dict:
    return {"type": "array", "items": items}


SCHEMA: dict = {
    "$schema": "http://json-schema.org/draft-04/schema#",
    "type": "object",
    "properties": {
        "basics": _obj(
            name=_STR,
            label=_STR,
            image=_STR,
            email={"type": "string", "format": "email"},
            phone=_STR,
            url=_URL,
            summary=_STR,
            location=_obj(address=_STR, postalCode=_STR, city=_STR, countryCode=_STR, region=_STR),
            profiles=_arr(_obj(network=_STR, username=_STR, url=_URL)),
        ),
        "work": _arr(
            _obj(
                name=_STR,
                location=_STR,
                description=_STR,
                position=_STR,
                url=_URL,
                startDate=_DATE,
                endDate=_DATE,
                summary=_STR,
                highlights=_STR_LIST,
            )
        ),
        "volunteer": _arr(
            _obj(
                organization=_STR,
                position=_STR,
                url=_URL,
                startDate=_DATE,
                endDate=_DATE,
                summary=_STR,
                highlights=_STR_LIST,
            )
        ),
        "education": _arr(
            _obj(
                institution=_STR,
                url=_URL,
                area=_STR,
                studyType=_STR,
                startDate=_DATE,
                endDate=_DATE,
                score=_STR,
                courses=_STR_LIST,
            )
        ),
        "awards": _arr(_obj(title=_STR, date=_DATE, awarder=_STR, summary=_STR)),
        "certificates": _arr(_obj(name=_STR, date=_DATE, url=_URL, issuer=_STR)),
        "publications": _arr(_obj(name=_STR, publisher=_STR, releaseDate=_DATE, url=_URL, summary=_STR)),
        "skills": _arr(_obj(name=_STR, level=_STR, keywords=_STR_LIST)),
        "languages": _arr(_obj(language=_STR, fluency=_STR)),
        "interests": _arr(_obj(name=_STR, keywords=_STR_LIST)),
        "references": _arr(_obj(name=_STR, reference=_STR)),
        "projects": _arr(
            _obj(
                name=_STR,
                description=_STR,
                highlights=_STR_LIST,
                keywords=_STR_LIST,
                startDate=_DATE,
                endDate=_DATE,
                url=_URL,
                roles=_STR_LIST,
                entity=_STR,
                type=_STR,
            )
        ),
        "meta": _obj(canonical=_URL, version=_STR, lastModified=_STR),
    },
}
_VALIDATOR = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())


# The same schema compiled by jsonschema-rs, about a hundred times faster. It only answers "nothing to report"; the
# messages still come from ``_VALIDATOR``. It checks formats with jsonschema's own checkers (without the optional
# packages those skip "uri" and only ask "email" for an "@"), and its patterns never accept more than Python's
# re.search (whose "$" also matches before a final newline), except blank dates, which ``_schema_warnings`` ignores:
# whatever it calls valid, ``_VALIDATOR`` has nothing to report about.
_ISO8601_OR_BLANK_PATTERN = ISO8601_PATTERN + r"|^[ \t\n\r]*$"


def _fast_schema(schema: Any) -> Any:
    """A copy of ``schema`` whose date pattern also accepts blank strings."""
    if isinstance(schema, dict):
        return {
            key: _ISO8601_OR_BLANK_PATTERN if key == "pattern" and value == ISO8601_PATTERN else _fast_schema(value)
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [_fast_schema(item) for item in schema]
    return schema


def _schema_formats(schema: Any) -> set[str]:
    """Every "format" the schema names."""
    if not isinstance(schema, dict):
        return set()
    found = {schema["format"]} if isinstance(schema.get("format"), str) else set()
    return found.union(*(_schema_formats(value) for value in schema.values()))


def _python_format_check(name: str) -> Callable[[str], bool]:
    return lambda value: _VALIDATOR.format_checker.conforms(value, name)


_FAST_VALIDATOR = jsonschema_rs.Draft4Validator(
    _fast_schema(SCHEMA),
    formats={name: _python_format_check(name) for name in _schema_formats(SCHEMA)},
    validate_formats=True,
)

# --------------------------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------------------------

_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "true/false", type(None): "null"}


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    return _JSON_TYPES.get(type(value), "a value")


def _short_repr(value: Any) -> str:
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:59] + "\u2026")
    if isinstance(value, (bool, int, float)) or value is None:
        return json.dumps(value)[:60]
    return _json_type(value)


def _path(error: jsonschema.ValidationError) -> str:
    out = ""
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "The résumé"


def _schema_valid(data: Any) -> bool:
    """True when ``data`` follows the schema (the fast check); False when it does not or cannot be checked here."""
    try:
        return _FAST_VALIDATOR.is_valid(data)
    except ValueError:  # e.g. a key that UTF-8 cannot encode: let the Python validator tell
        return False


def _schema_warnings(data: Any) -> list[str]:
    if _schema_valid(data):
        return []
    warnings: list[str] = []
    count = 0
    try:
        for error in _VALIDATOR.iter_errors(data):
            if error.validator == "additionalProperties":
                continue
            instance = error.instance
            if error.validator == "pattern" and isinstance(instance, str) and not instance.strip():
                continue  # an empty endDate is the usual way to say "current"
            if error.validator == "pattern" and error.validator_value == ISO8601_PATTERN and _readable_date(instance):
                continue  # a date read all the same ("2017-1-9", "May 2020", "Present") is not worth a warning
            count += 1
            if count > MAX_SCHEMA_WARNINGS:
                continue
            where = _path(error)
            if error.validator == "type":
                expected = error.validator_value
                expected = " or ".join(expected) if isinstance(expected, list) else expected
                article = "an" if str(expected)[:1] in "aeiou" else "a"
                warnings.append(f"{where}: expected {article} {expected}, found {_json_type(instance)}; ignored.")
            elif error.validator == "format":
                warnings.append(f"{where}: {_short_repr(instance)} is not a valid {error.validator_value}")
            elif error.validator == "pattern" and error.validator_value == ISO8601_PATTERN:
                warnings.append(f"{where}: {_short_repr(instance)} is not a date like 2014-06-29, 2014-06 or 2014.")
            else:
                warnings.append(f"{where}: does not follow the JSON Resume schema ({error.validator}).")
    except RecursionError:
        warnings.append("The résumé is nested too deeply to be checked completely against the JSON Resume schema.")
    if count > MAX_SCHEMA_WARNINGS:
        warnings.append(f"{count - MAX_SCHEMA_WARNINGS} more schema problems were not listed.")
    return warnings


def _readable_date(value: Any) -> bool:
    return isinstance(value, str) and (parse_month(value) is not None or clean_text(value).lower() in _CURRENT_WORDS)


def _s(obj: Any, *keys: str) -> str:
    """The first non-empty string among ``obj[key]`` for ``keys``, cleaned; numbers are read as text."""
    if not isinstance(obj, dict):
        return ""
    for key in keys:
        value = obj.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value)):
            value = str(value)  # (math.isfinite overflows on a 400-digit integer; an int is always finite)
        if isinstance(value, str):
            text = clean_text(value)
            if text:
                return text
    return ""


def _dicts(value: Any) -> list[dict]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [text for item in value if isinstance(item, str) and (text := clean_text(item))]


_EMAIL_PART_RE = re.compile(r"[^@\s]+")


def _is_email(text: str) -> bool:
    """One "@" between two runs of neither "@" nor whitespace, a dot inside the domain: what the pattern
    ``^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$`` accepts, checked in one pass (that pattern backtracks quadratically over a domain
    of many dots that ends badly)."""
    local, at, domain = text.partition("@")
    return bool(at and _EMAIL_PART_RE.fullmatch(local) and _EMAIL_PART_RE.fullmatch(domain) and "." in domain[1:-1])


_CURRENT_WORDS = ("", "present", "now", "current", "ongoing", "today")

# --------------------------------------------------------------------------------------------------------------------
# Skill levels
# --------------------------------------------------------------------------------------------------------------------

LEVELS: dict[str, int] = {
    "master": 9,
    "expert": 9,
    "guru": 9,
    "advanced": 8,
    "senior": 8,
    "strong": 8,
    "professional": 8,
    "proficient": 7,
    "intermediate": 6,
    "competent": 6,
    "familiar": 4,
    "junior": 4,
    "beginner": 3,
    "novice": 3,
    "basic": 3,
    "elementary": 3,
    "learning": 2,
    "上級": 8,
    "中級": 6,
    "初級": 3,
    # "Mid", "Mid-level": between junior and senior ("Mid-Senior" is the mean of its two words, below).
    "mid": 6,
    "middle": 6,
    "mid-level": 6,
    "midlevel": 6,
    # The same levels in Spanish, French, German, Portuguese and Italian.
    "experto": 9, "experta": 9, "esperto": 9, "esperta": 9, "experte": 9, "expertin": 9,
    "avanzado": 8, "avanzada": 8, "avancé": 8, "avancée": 8, "fortgeschritten": 8, "avançado": 8, "avançada": 8,
    "avanzato": 8, "avanzata": 8,
    "intermedio": 6, "intermedia": 6, "intermédiaire": 6, "intermediário": 6, "intermediária": 6,
    "mittelstufe": 6,
    "básico": 3, "básica": 3, "basico": 3, "basica": 3, "débutant": 3, "débutante": 3, "principiante": 3,
    "anfänger": 3, "grundkenntnisse": 3, "iniciante": 3,
}  # fmt: skip
_FLUENCY_SCORES = {NATIVE: 10, FULL_PROFESSIONAL: 8, PROFESSIONAL_WORKING: 7, LIMITED_WORKING: 6, ELEMENTARY: 3}
_NUMERIC_LEVEL_RE = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:(/)\s*(\d+(?:\.\d+)?)|(%)|(?:stars?|points?)?)$")


def _scale(value: float, denominator: float | None = None, percent: bool = False) -> int:
    try:
        value = float(value)
    except OverflowError:  # an integer too large for a float
        return 5
    if not math.isfinite(value) or value < 0:
        return 5
    if denominator:
        value = value / denominator * 10
    elif percent:
        value = value / 10
    elif 0 < value < 1:
        value *= 10
    elif value <= 5:
        value *= 2  # a five-point scale (stars)
    elif value > 10:
        value = value / 10 if value <= 100 else 10
    return max(0, min(10, math.floor(value + 0.5)))


def level_score(level: Any) -> int:
    """0-10 from a JSON Resume skill level: Master/Expert 9, Advanced 8, Intermediate 6, Beginner 3, numbers scaled
    (5-point, 10-point, percent, "4/5"), anything else 5."""
    if isinstance(level, bool) or level is None:
        return 5
    if isinstance(level, (int, float)):
        return _scale(level)
    if not isinstance(level, str):
        return 5
    text = clean_text(level).lower()
    if not text or len(text) > 60:
        return 5
    if text in LEVELS:
        return LEVELS[text]
    m = _NUMERIC_LEVEL_RE.match(text)
    if m:
        denominator = float(m.group(3)) if m.group(2) else None
        if denominator == 0:
            return 5
        return _scale(float(m.group(1)), denominator, percent=bool(m.group(4)))
    # The words it holds: one is its level; two, a range ("Mid-Senior", "Junior to mid"), are their mean, rounded
    # down (a range is no more than its lower end's promise plus some).
    found = [LEVELS[word] for word in re.findall(r"\w+", text) if word in LEVELS]
    if found:
        return sum(found) // len(found) if len(found) == 2 else found[0]
    # A fluency word ("Nativo", "Courant", "Muttersprache"): a level of a skill written as a language's.
    if level := fluency_level(text):
        return _FLUENCY_SCORES[level]
    return 5


# --------------------------------------------------------------------------------------------------------------------
# Mapping
# --------------------------------------------------------------------------------------------------------------------

_GITHUB_REPO_RE = re.compile(
    r"(?:^|[/.@])github\.com[/:]([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})", re.IGNORECASE
)
_GITHUB_NOT_OWNERS = frozenset(
    {
        "features", "sponsors", "orgs", "settings", "marketplace", "topics", "collections", "explore", "about",
        "pricing", "enterprise", "login", "join", "apps", "security", "site", "team", "readme", "trending", "events",
        "customer-stories", "solutions", "resources", "search", "notifications",
    }
)  # fmt: skip


def _url_parts(url: str) -> tuple[str, list[str]]:
    """(host without www., path segments) of a URL, read as identity keys read it (``core.identity.url_parts``: a
    trailing dot or a default port, ``\\``, tabs, percent-escapes and ``git@host:owner/repo`` as a browser or git
    would)."""
    return url_parts(url) if url else ("", [])


_LINKEDIN_SLUG_RE = re.compile(r"^[\w.%-]{3,100}$")  # a display name ("Ada Quill") is not a slug
_HANDLE_RE = re.compile(r"^@?([A-Za-z0-9_.-]{1,100})$")
_NETWORK_HOSTS = {
    "github": ("github.com",),
    "linkedin": ("linkedin.com",),
    "twitter": ("twitter.com", "x.com"),
    "gitlab": ("gitlab.com",),
    "stackoverflow": ("stackoverflow.com",),
}
_NETWORK_OF_HOST = {host: network for network, hosts in _NETWORK_HOSTS.items() for host in hosts}
_NETWORK_NAMES = {"github": "github", "linkedin": "linkedin", "twitter": "twitter", "x": "twitter",
                  "gitlab": "gitlab", "stackoverflow": "stackoverflow"}  # fmt: skip


def _network_of_host(host: str) -> str:
    """The network whose pages ``host`` serves, or "": not any subdomain (copilot.github.com is a product's site),
    only LinkedIn's regional ones and the mobile sites."""
    network = _NETWORK_OF_HOST.get(host.removeprefix("mobile."), "")
    return network or ("linkedin" if host.endswith(".linkedin.com") else "")


def _network_of(name: str, host: str) -> str:
    """ "github", "linkedin", "twitter", "gitlab", "stackoverflow" or "" from a profile's URL host or network name."""
    return _network_of_host(host) or _NETWORK_NAMES.get(name.lower().replace(" ", "").replace("/", ""), "")


def _handle(network: str, username: str, host: str, segments: list[str]) -> str:
    """The account a profile names on ``network``: from its URL when it has one there, else the username."""
    on_network = network == _network_of_host(host)
    if network == "linkedin":
        slug = segments[1] if on_network and len(segments) >= 2 and segments[0] in ("in", "pub") else ""
        slug = slug or username
        return slug if _LINKEDIN_SLUG_RE.match(slug) else ""
    if network == "stackoverflow":
        if on_network and len(segments) >= 2 and segments[0] == "users" and segments[1].isdigit():
            return segments[1]
        return username if username.isdigit() else ""
    if network == "github":  # the username names the account even when the URL is a repository's
        named_host, named_segments = _url_parts(username) if "github.com" in username.lower() else ("", [])
        owners = [
            _account(username),
            *(named_segments[:1] if named_host == "github.com" else []),  # a URL written as the username
            *(segments[:1] if on_network else []),
        ]
        return next((o for owner in owners if (o := _account(owner)) and o.lower() not in _GITHUB_NOT_OWNERS), "")
    return _account(segments[0] if on_network and segments else username)


def _account(text: str) -> str:
    """``text`` as an account name ("@ada" -> "ada"), or "" when it is not one (a display name, a URL)."""
    m = _HANDLE_RE.match(identity_text(text))  # invisible characters are no part of a name
    return m.group(1) if m else ""


def _identifiers(basics: dict, email: str) -> tuple[Identifiers, str]:
    """The accounts ``basics`` names (``profiles[]``, then ``url`` and the legacy ``website``), and the personal site:
    the first of ``url`` and ``website`` that is no network's page (else the first of them)."""
    found: dict[str, list[str]] = {network: [] for network in _NETWORK_HOSTS}
    found_folded: dict[str, set[str]] = {network: set() for network in _NETWORK_HOSTS}
    urls: dict[str, None] = {}  # in the file's order, each once
    sites = [site for key in ("url", "website") if (site := _s(basics, key))]
    entries = [(_s(p, "network"), _s(p, "username"), _s(p, "url")) for p in _dicts(basics.get("profiles"))]
    entries += [("", "", site) for site in sites]
    site_networks: dict[str, str] = {}
    for name, username, url in entries:
        host, segments = _url_parts(url)
        network = site_networks[url] = _network_of(name, host)
        handle = _handle(network, username, host, segments) if network else ""
        if handle and handle.casefold() not in found_folded[network]:
            found[network].append(handle)
            found_folded[network].add(handle.casefold())
        if url:
            urls[url] = None
    personal = [site for site in sites if not site_networks[site]]
    github = found["github"]
    identifiers = Identifiers(
        github=github[0] if github else "",
        email=email,
        linkedin=next(iter(found["linkedin"]), ""),
        urls=list(urls),
        more_github=github[1:],
        twitter=next(iter(found["twitter"]), ""),
        gitlab=next(iter(found["gitlab"]), ""),
        stackoverflow=next(iter(found["stackoverflow"]), ""),
    )
    return identifiers, (personal or sites or [""])[0]


def _location(basics: dict) -> Location:
    raw = basics.get("location")
    if isinstance(raw, str):
        return location_from_text(raw)
    if not isinstance(raw, dict):
        return Location()
    given = _s(raw, "countryCode", "country")
    code = country_code(given)
    country = country_name(code) if code else given
    return Location(city=_s(raw, "city"), region=_s(raw, "region"), country=country, country_code=code)


def _is_current(job: dict) -> bool:
    end = job.get("endDate")
    return end is None or (isinstance(end, str) and clean_text(end).lower() in _CURRENT_WORDS)


def _positions(work: list, today: date, warnings: list[str]) -> list[PositionEntry]:
    """Every ``work[]`` entry that names something, in the file's order. A job is current while it has no end
    (absent, empty, "Present") and has started; inverted and future dates are kept as written, with a warning (the
    normaliser then stores an inverted range the other way round, as the warning says)."""
    this_month = f"{today.year:04d}-{today.month:02d}"
    out: list[PositionEntry] = []
    for order, job in enumerate(work if isinstance(work, list) else []):
        if not isinstance(job, dict):
            continue
        company, title, summary = _s(job, "name", "company"), _s(job, "position"), job.get("summary")
        summary = clean_paragraphs(summary) if isinstance(summary, str) else ""
        highlights = _strings(job.get("highlights"))
        if not (company or title or summary or highlights):
            continue
        start, end = parse_month(job.get("startDate")), parse_month(job.get("endDate"))
        position = PositionEntry(
            company=company,
            title=title,
            location=_s(job, "location"),
            start=start,
            end=end,
            is_current=_is_current(job) and (start is None or start <= this_month),
            summary=summary,
            highlights=highlights,
            url=_s(job, "url", "website"),
            order=order,
        )
        named = " at ".join(part for part in (position.title, position.company) if part)
        where = f"work[{order}] ({named})" if named else f"work[{order}]"
        if position.start and position.end and position.end < position.start:
            warnings.append(
                f"{where}: starts ({position.start}) after it ends ({position.end}); stored the other way round."
            )
        for what, month in (("start", position.start), ("end", position.end)):
            if month and month > this_month:
                warnings.append(f"{where}: the {what} date {month} is in the future; kept.")
        out.append(position)
    return out


def _current_position(positions: list[PositionEntry]) -> PositionEntry | None:
    """The current job: of the open-ended ones, the latest started (the first listed among equals, and a dated one
    before one without a start). An ended job is never current."""
    current = [p for p in positions if p.is_current]
    return max(current, key=lambda p: p.start or "", default=None)


def _title_from_label(label: str, positions: list[PositionEntry]) -> str:
    """``basics.label`` without a trailing "at Company" / "@ Company" naming one of the jobs: the title alone."""
    companies = {p.company.casefold() for p in positions if p.company}
    for sep in (" at ", " @ "):
        head, found, company = label.rpartition(sep)
        if found and head.strip() and company.strip().casefold() in companies:
            return head.strip()
    return label


def _years_employed(positions: list[PositionEntry], today: date) -> int | None:
    """Whole years of the months the dated jobs cover, overlaps counted once (JSON Resume declares no figure)."""
    ranges = [(p.start, p.end) for p in positions if p.start and (p.end or p.is_current)]
    if not ranges:
        return None
    return months_worked(ranges, today=f"{today.year:04d}-{today.month:02d}") // 12


# A skill label that names several skills is split (README, "Skills"): at commas and semicolons outside
# parentheses ("HTML5, HTML"; not "Python (Django, Flask)"), at a slash with spaces around it ("Frameworks /
# Libraries"), and at a bare slash only when every piece is a skill the vocabulary knows and the whole is not
# ("HTML/CSS", "React/Redux"). These names keep their slash whatever the vocabulary holds.
SLASHED_NAMES = frozenset(
    {
        "ci/cd", "tcp/ip", "pl/sql", "pl/pgsql", "a/b testing", "a/b", "i/o", "ui/ux", "ux/ui", "os/2", "pl/i",
        "as/400", "gnu/linux", "http/2", "http/3", "s/4hana", "pub/sub", "24/7", "client/server", "b2b/b2c",
    }
)  # fmt: skip
_LIST_SEPARATORS = ",;，、；"
_SPACED_SLASH_RE = re.compile(r"\s+/\s+")


def _top_level_parts(label: str) -> list[str]:
    """``label`` cut at the list separators that stand outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(label):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and ch in _LIST_SEPARATORS:
            parts.append(label[start:i])
            start = i + 1
    parts.append(label[start:])
    return parts


def _within_label_cap(label: str) -> str:
    """The first MAX_LABEL_CHARS characters of ``label``, up to the last separator among them (no half skill)."""
    kept = label[:MAX_LABEL_CHARS]
    last = max(kept.rfind(separator) for separator in (*_LIST_SEPARATORS, "/"))
    return kept[:last] if last > 0 else kept


def split_skill_label(label: str, vocabulary: frozenset[str] = frozenset(), cuts: Counter | None = None) -> list[str]:
    """The skills one label names: "HTML5, HTML" -> ["HTML5", "HTML"]; "CI/CD" stays whole (see SLASHED_NAMES).

    Only the label's first MAX_LABEL_CHARS characters are read (``_within_label_cap``) and only its first
    MAX_LABEL_PIECES skills kept; each cut adds one to ``cuts["chars"]`` or ``cuts["pieces"]``, for a warning."""

    def known(piece: str) -> bool:
        return any(variant in vocabulary for variant in label_variants(label_key(piece)))

    if len(label) > MAX_LABEL_CHARS:
        label = _within_label_cap(label)
        if cuts is not None:
            cuts["chars"] += 1
    out: list[str] = []
    for part in _top_level_parts(label):
        for piece in _SPACED_SLASH_RE.split(part):
            piece = clean_text(piece)
            if not piece:
                continue
            slashed = [clean_text(p) for p in piece.split("/")]
            if (
                len(slashed) > 1
                and piece.casefold() not in SLASHED_NAMES
                and all(slashed)
                and not known(piece)
                and all(known(p) for p in slashed)
            ):
                out.extend(slashed)
            else:
                out.append(piece)
    if len(out) > MAX_LABEL_PIECES:
        del out[MAX_LABEL_PIECES:]
        if cuts is not None:
            cuts["pieces"] += 1
    return out


# Group names that head a list of skills and are no skill themselves, though a vocabulary of topics may know the word.
SKILL_HEADINGS = frozenset(
    {
        "languages", "programming-languages", "language", "frameworks", "framework", "libraries", "library", "tools",
        "tooling", "databases", "database", "frontend", "front-end", "backend", "back-end", "web", "web-development",
        "mobile", "cloud", "devops", "testing", "other", "others", "misc", "miscellaneous", "general", "skills",
        "technical-skills", "soft-skills", "platforms", "operating-systems", "os", "infrastructure", "methodologies",
        "design", "data", "security", "software", "technologies", "tech", "stack", "apis", "api", "concepts",
    }
)  # fmt: skip


def _group_is_a_skill(name: str, vocabulary: frozenset[str]) -> bool:
    """A group named after a skill the vocabulary knows ("Android", "Python", "AWS") is also that skill; a heading
    ("Languages", "Tools": ``SKILL_HEADINGS``) is not, whatever the vocabulary holds."""
    key = label_key(name)
    return key not in SKILL_HEADINGS and any(variant in vocabulary for variant in label_variants(key))


def _skills(raw: Any, vocabulary: frozenset[str] = frozenset(), warnings: list[str] | None = None) -> list[SkillEntry]:
    """An entry with keywords is a group: its keywords are the skills, at its level, and its name their category
    ("Languages", "Tools" are headings, not skills; a group named after a known skill, "Android", is that skill too,
    at the group's level); an entry with a name alone is a skill. Labels past the caps of ``split_skill_label`` are
    cut, with a warning for each kind of cut."""
    out: list[SkillEntry] = []
    seen: set[str] = set()
    cuts: Counter = Counter()

    def add(label: str, score: int, category: str) -> None:
        for piece in split_skill_label(label, vocabulary, cuts):
            key = label_key(piece)
            if key and key not in seen:
                seen.add(key)
                out.append(SkillEntry(label=piece, score=score, category=category))

    for skill in _dicts(raw):
        score = level_score(skill.get("level"))
        name = _s(skill, "name")
        keywords = _strings(skill.get("keywords"))
        if keywords:
            if name and _group_is_a_skill(name, vocabulary):
                add(name, score, name)
            for keyword in keywords:
                add(keyword, score, name)
        elif name:
            add(name, score, "")
    if warnings is not None:
        if cuts["chars"]:
            warnings.append(
                f"{_times(cuts['chars'], 'skill name was', 'skill names were')} longer than {MAX_LABEL_CHARS:,} "
                f"characters; only the first {MAX_LABEL_CHARS:,} of each were read."
            )
        if cuts["pieces"]:
            warnings.append(
                f"{_times(cuts['pieces'], 'skill name lists', 'skill names list')} more than {MAX_LABEL_PIECES} "
                f"skills; the first {MAX_LABEL_PIECES} of each were kept."
            )
    return out


def _times(count: int, one: str, many: str) -> str:
    return f"One {one}" if count == 1 else f"{count:,} {many}"


def _languages(raw: Any, warnings: list[str]) -> list[LanguageEntry]:
    """languages[]: each a ``LanguageEntry`` (core.languages: the code and English name, the fluency's level). A
    language no data set knows ("Code") is kept as written, with a warning; one named twice is kept once."""
    out: list[LanguageEntry] = []
    seen: set[str] = set()
    for index, item in enumerate(raw if isinstance(raw, list) else []):
        if isinstance(item, str):
            language, fluency = clean_text(item), ""
        else:
            language, fluency = _s(item, "language", "name"), _s(item, "fluency", "level")
        spoken = read_spoken_language(language, fluency)
        if spoken is None:
            continue
        if not spoken.code:
            warnings.append(
                f"languages[{index}]: {_short_repr(spoken.name)} is not a language we know; kept as written."
            )
        if fluency and not spoken.fluency:
            warnings.append(
                f"languages[{index}]: the fluency {_short_repr(fluency)} is not one we can read; it is kept as "
                "written, without a level."
            )
        key = spoken.code or spoken.name.casefold()
        if key in seen:
            continue
        seen.add(key)
        raw_text = f"{language} ({fluency})" if fluency else language
        out.append(LanguageEntry(code=spoken.code, name=spoken.name, fluency=spoken.fluency, raw=raw_text))
    return out


# A project's activity as a Prog.AI export writes it, kept by a JSON Resume export in a highlight, the description or
# a keyword: "88 commits, 15 comments".
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d{1,9})"
_COMMITS_RE = re.compile(r"(?<![\w.,])" + _NUMBER + r"\s*commits?\b", re.IGNORECASE)
_COMMENTS_RE = re.compile(r"(?<![\w.,])" + _NUMBER + r"\s*comments?\b", re.IGNORECASE)
# A text that is only such counts. Possessive throughout: the separator's and the number's classes share the comma, and
# backtracking between them made "commits" followed by n commas quadratic.
_STATS_ONLY_RE = re.compile(
    r"^[\d,\s]*+(?:commits?|comments?)(?:[\s,;&]++(?:and\s+)?[\d,]++\s*+(?:commits?|comments?))*+\.?$",
    re.IGNORECASE,
)
MAX_COUNT = 10_000_000  # as the Prog.AI parser: a larger count is a misreading, not a number


def _count(project: dict, key: str, pattern: re.Pattern, texts: list[str]) -> int:
    """The project's ``key`` ("commits") as a number, or the first count of it its texts write; 0 when none does."""
    value = project.get(key)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
        return value
    for text in texts:
        if m := pattern.search(text):
            count = int(m.group(1).replace(",", ""))
            return count if count <= MAX_COUNT else 0
    return 0


def _contributions(projects: Any) -> list[ContributionEntry]:
    out: list[ContributionEntry] = []
    for project in _dicts(projects):
        url = _s(project, "url", "website", "githubUrl", "repository")
        m = _GITHUB_REPO_RE.search(url) if url else None
        if not m or m.group(1).lower() in _GITHUB_NOT_OWNERS:
            continue
        name = m.group(2).removesuffix(".git")
        if not name.strip("."):
            continue
        start = parse_month(project.get("startDate"))
        end = parse_month(project.get("endDate"))
        highlights = _strings(project.get("highlights"))
        keywords = _strings(project.get("keywords"))
        texts = [*highlights, _s(project, "description"), _s(project, "summary"), *keywords]
        stats = {text for text in highlights + keywords if _STATS_ONLY_RE.match(text)}
        summary = _s(project, "summary") or " ".join(text for text in highlights if text not in stats)
        topics = list(dict.fromkeys(label_key(keyword) for keyword in keywords if keyword not in stats))
        out.append(
            ContributionEntry(
                repository=f"{m.group(1)}/{name}",
                repository_description=_s(project, "description"),
                start=start,
                end=end,
                role=", ".join(_strings(project.get("roles"))),
                commits=_count(project, "commits", _COMMITS_RE, texts),
                comments=_count(project, "comments", _COMMENTS_RE, texts),
                summary=summary,
                topics=topics,
                is_current=start is not None and end is None and _is_current(project),
            )
        )
    return out


def _awards(raw: Any) -> list[AwardEntry]:
    """awards[]: each with a title (or a legacy "name"), its awarder, date and summary; one without a title is left
    out, one given twice is kept once."""
    out: list[AwardEntry] = []
    seen: set[AwardEntry] = set()
    for item in _dicts(raw):
        title = _s(item, "title", "name")
        if title:
            entry = AwardEntry(
                title=title,
                awarder=_s(item, "awarder"),
                date=date_text if parse_month(date_text := _s(item, "date")) else "",
                summary=_s(item, "summary"),
            )
            if entry not in seen:
                seen.add(entry)
                out.append(entry)
    return out


def _load(text: str) -> tuple[Any, str | None]:
    """The JSON value of ``text`` and the warning naming what was repaired (None when it was strict JSON).

    Strict JSON first (the fast path, nearly every file); only when that fails, and only when what strict JSON refused
    is trailing commas and comments (JSON5's liberties that a résumé may carry), the text with them blanked out: its
    other liberties (unquoted keys, single quotes) are more likely a broken file than a résumé, and are refused, with
    the strict parser's line and column. The blanked text is read by the strict parser, in C, in time linear in the
    file: a JSON5 parser written in Python is many times slower per byte.
    """
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        repaired = _comma_and_comment_repairs(text, exc)
        if repaired is None:
            raise ParseError(f"The JSON is not valid: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        data, repairs = repaired
        return data, _repair_warning(repairs)
    except RecursionError:
        raise ParseError("The JSON is nested too deeply to be a résumé.") from None
    except ValueError as exc:  # e.g. an integer with thousands of digits
        raise ParseError(f"The JSON is not valid: {str(exc)[:120]}") from None


MAX_NAMED_REPAIRS = 20  # each is one more strict parse of the file: a file of a thousand trailing commas is refused


def _comma_and_comment_repairs(text: str, error: json.JSONDecodeError) -> tuple[Any, list[str]] | None:
    """The JSON value of ``text`` without its trailing commas and comments, and "a trailing comma at line 4, column
    33", ... for every spot where strict JSON stopped at one; None when it stops at anything else (the file is then
    refused) or past MAX_NAMED_REPAIRS spots.

    Each spot found is blanked (newlines kept, so lines and columns stay those of the file) and the parse retried.
    """
    chars = list(text)
    current = text
    repairs: list[str] = []
    while len(repairs) < MAX_NAMED_REPAIRS:
        pos = error.pos
        if current.startswith("//", pos):
            newline = current.find("\n", pos)
            what, at, span = "a comment", pos, range(pos, newline if newline >= 0 else len(current))
        elif current.startswith("/*", pos):
            close = current.find("*/", pos + 2)
            if close < 0:  # a comment never closed: nothing to repair
                return None
            what, at, span = "a comment", pos, range(pos, close + 2)
        elif current[pos : pos + 1] in ("]", "}"):
            comma = pos - 1
            while comma >= 0 and current[comma] in " \t\r\n":
                comma -= 1
            if comma < 0 or current[comma] != ",":
                return None
            what, at, span = "a trailing comma", comma, range(comma, comma + 1)
        else:
            return None
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        repairs.append(f"{what} at line {line}, column {column}")
        for index in span:
            if chars[index] != "\n":
                chars[index] = " "
        current = "".join(chars)
        try:
            data = json.loads(current)
        except json.JSONDecodeError as exc:
            error = exc
        except (ValueError, RecursionError):
            return None
        else:
            return data, repairs
    return None


def _repair_warning(repairs: list[str]) -> str:
    listed = repairs[0] if len(repairs) == 1 else ", ".join(repairs[:-1]) + " and " + repairs[-1]
    verb = "was" if len(repairs) == 1 else "were"
    return f"The JSON was repaired: {listed} (which JSON does not allow) {verb} ignored."


def parse_jsonresume(
    text: str, *, today: date | None = None, vocabulary: frozenset[str] = frozenset()
) -> ProfileDocument:
    """Parse a JSON Resume document. Raises ParseError when the JSON is invalid or holds no usable name.

    ``today`` (default: the current date) ends the current jobs, for the years employed and the dates in the future.
    ``vocabulary`` (known skill label keys, as for the Prog.AI parser) decides where a bare "/" splits a skill.
    """
    if not isinstance(text, str):
        raise ParseError("The file could not be read as text.")
    if not text.strip():
        raise ParseError("The file is empty.")
    data, repaired = _load(text.lstrip("\ufeff"))
    if not isinstance(data, dict):
        raise ParseError(f"The JSON is valid but is not a résumé object (it is {_json_type(data)}).")
    try:
        replaced: list[int] = []
        if _SURROGATE_ESCAPE_RE.search(text):
            data = _without_lone_surrogates(data, replaced)
        doc = _map(data, today or datetime.now(tz=UTC).date(), vocabulary)
    except RecursionError:
        raise ParseError("The JSON is nested too deeply to be a résumé.") from None
    if replaced:
        doc.warnings.insert(0, LONE_SURROGATE_WARNING)
    if repaired:
        doc.warnings.insert(0, repaired)
    return doc


# JSON can escape half of a UTF-16 pair ("\ud800"): such a string cannot be encoded as UTF-8 or stored.
_SURROGATE_ESCAPE_RE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")
LONE_SURROGATE_WARNING = "Some characters could not be read and were replaced with '\ufffd'."


def _without_lone_surrogates(value: Any, replaced: list[int]) -> Any:
    """``value`` with every unpaired surrogate replaced by U+FFFD; appends to ``replaced`` for each string changed."""
    if isinstance(value, str):
        text, count = _LONE_SURROGATE_RE.subn("\ufffd", value)
        if count:
            replaced.append(count)
        return text
    if isinstance(value, list):
        return [_without_lone_surrogates(item, replaced) for item in value]
    if isinstance(value, dict):
        return {_without_lone_surrogates(k, replaced): _without_lone_surrogates(v, replaced) for k, v in value.items()}
    return value


_SCHEMA_KEYS = tuple(SCHEMA["properties"])
_NAME_KEYS = ("name", "fullName", "full_name", "firstName")


def _one_edit_apart(a: str, b: str) -> bool:
    """True when ``b`` is ``a`` with one letter added, dropped, changed, or two neighbours swapped ("wrok"), after
    the same first letter: "preferences" (an extension key of real files) is not a misspelt "references"."""
    if a == b or abs(len(a) - len(b)) > 1 or a[:1] != b[:1]:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):
        return a[i:] == b[i + 1 :]
    return a[i + 1 :] == b[i + 1 :] or (a[i + 2 :] == b[i + 2 :] and a[i : i + 2] == b[i : i + 2][::-1])


def _with_schema_keys(data: dict, warnings: list[str]) -> dict:
    """``data`` with each top-level key one edit away from a schema key it lacks ("basic", "skill") read as that
    key, with a warning; a key beside the right one is an extension key and left alone."""
    renamed: dict[str, str] = {}
    for key in data:
        if not isinstance(key, str) or key in _SCHEMA_KEYS:
            continue
        folded = key.casefold()
        for expected in _SCHEMA_KEYS:
            if (
                expected not in data
                and expected not in renamed.values()
                and (folded == expected or _one_edit_apart(folded, expected))
            ):
                renamed[key] = expected
                warnings.append(f'The key "{key}" was read as "{expected}" (the JSON Resume schema\'s name).')
                break
    if not renamed:
        return data
    return {renamed.get(key, key): value for key, value in data.items()}


EXPORT_ADVICE = "Export it as JSON Resume (jsonresume.org) or as a Prog.AI text profile."


def is_other_format(data: Any) -> bool:
    """True for a JSON object that is a résumé of another format (a name where JSON Resume has none, no ``basics``):
    what ``detect_format`` calls "unknown" though it is JSON, as the parser refuses it."""
    if not isinstance(data, dict):
        return False
    data = _with_schema_keys(data, [])
    return "basics" not in data and not isinstance(data.get("bio"), dict) and bool(_other_shape_name(data))


def _other_shape_name(data: dict) -> str:
    """Where a résumé of another format keeps its name ("profile.name", FRESH's top-level "name"), or ""."""
    if _s(data, "name"):
        return "name"
    for key, value in data.items():
        if isinstance(value, dict):
            for name_key in _NAME_KEYS:
                if _s(value, name_key):
                    return f"{key}.{name_key}"
    return ""


def _map(data: dict, today: date, vocabulary: frozenset[str] = frozenset()) -> ProfileDocument:
    key_warnings: list[str] = []
    data = _with_schema_keys(data, key_warnings)
    warnings = key_warnings + _schema_warnings(data)
    basics = data.get("basics")
    if not isinstance(basics, dict) and isinstance(data.get("bio"), dict):
        basics = data["bio"]  # pre-1.0 résumés
    if not isinstance(basics, dict):
        if "basics" not in data and (where := _other_shape_name(data)):
            raise ParseError(f"This is not a JSON Resume file: it has {where} (expected basics.name). {EXPORT_ADVICE}")
        raise ParseError(NO_NAME)
    name = _s(basics, "name")
    if not name:
        name = clean_text(f"{_s(basics, 'firstName')} {_s(basics, 'lastName')}")
    if not name:
        raise ParseError(NO_NAME)

    doc = ProfileDocument(format="jsonresume", name=name)
    # The current job gives the company and the title; without one the company stays empty (the schema's basics
    # have no company of their own, and a label's "at Company" is often a job that has ended) and the title is the
    # label without a trailing "at <one of the jobs' companies>". The headline is the label as written.
    label = _s(basics, "label")
    doc.positions = _positions(data.get("work"), today, warnings)
    current = _current_position(doc.positions)
    doc.company = current.company if current else ""
    doc.title = (current.title if current else "") or _title_from_label(label, doc.positions)
    doc.headline = label or " at ".join(part for part in (doc.title, doc.company) if part)
    doc.location = _location(basics)
    summary = basics.get("summary")
    doc.summary = clean_paragraphs(summary) if isinstance(summary, str) else ""

    email = _s(basics, "email")
    if email and not _is_email(email):
        if not any(w.startswith("basics.email:") for w in warnings):
            warnings.append(f"basics.email: {_short_repr(email)} is not a valid email")
        email = ""
    doc.email = email
    doc.phone = _s(basics, "phone")
    doc.identifiers, doc.website = _identifiers(basics, email)

    for item in _dicts(data.get("education")):
        entry = EducationEntry(
            degree=_s(item, "studyType"),
            field=_s(item, "area"),
            school=_s(item, "institution", "name"),
            start=parse_month(item.get("startDate")),
            end=parse_month(item.get("endDate")),
        )
        if entry.degree or entry.field or entry.school:
            doc.education.append(entry)

    doc.skills = _skills(data.get("skills"), vocabulary, warnings)
    doc.languages = _languages(data.get("languages"), warnings)
    doc.spoken_languages = list(dict.fromkeys(entry.name for entry in doc.languages))
    doc.contributions = _contributions(data.get("projects"))
    doc.awards = _awards(data.get("awards"))

    doc.years_employed = _years_employed(doc.positions, today)
    doc.years_coding = None
    doc.warnings = warnings
    return doc
