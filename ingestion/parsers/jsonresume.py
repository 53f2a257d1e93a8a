"""Parser for JSON Resume documents (https://jsonresume.org, schema v1, plus the common legacy keys).

The JSON Schema is only used to produce warnings: a résumé with a usable ``basics.name`` always imports, whatever
else is wrong with it. Extension keys are ignored.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import urlparse

import jsonschema
import jsonschema_rs

from core.countries import country_code, country_name
from core.dates import parse_month
from core.labels import label_key
from core.text import clean_paragraphs, clean_text
from ingestion.documents import (
    ContributionEntry,
    EducationEntry,
    Identifiers,
    Location,
    ParseError,
    ProfileDocument,
    SkillEntry,
)
from ingestion.parsers.locations import location_from_text

__all__ = ["LEVELS", "SCHEMA", "level_score", "parse_jsonresume"]

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
    out = []
    for item in value:
        if isinstance(item, str) and clean_text(item):
            out.append(clean_text(item))
    return out


_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
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
}
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
    for word in re.findall(r"\w+", text):
        if word in LEVELS:
            return LEVELS[word]
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
    """(host without www., path segments) of a URL written with or without a scheme."""
    if not url:
        return "", []
    candidate = url if "://" in url else "https://" + url
    try:
        parsed = urlparse(candidate)
        host = (parsed.hostname or "").lower()
    except ValueError:
        return "", []
    host = host.removeprefix("www.")
    return host, [p for p in parsed.path.split("/") if p]


def _identifiers(basics: dict, email: str, website: str) -> Identifiers:
    github = linkedin = ""
    urls: list[str] = [website] if website else []
    for profile in _dicts(basics.get("profiles")):
        network = _s(profile, "network").lower().replace(" ", "")
        username = _s(profile, "username")
        url = _s(profile, "url")
        host, segments = _url_parts(url)
        if network == "github" or host == "github.com":
            handle = username or (segments[0] if host == "github.com" and segments else "")
            github = github or handle
        elif network == "linkedin" or host.endswith("linkedin.com"):
            slug = ""
            if len(segments) >= 2 and segments[0] in ("in", "pub"):
                slug = segments[1]
            linkedin = linkedin or username or slug
        if url and url not in urls:
            urls.append(url)
    return Identifiers(github=github, email=email, linkedin=linkedin, urls=urls)


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


def _current_job(work: list[dict]) -> dict | None:
    if not work:
        return None
    current = [job for job in work if _is_current(job)]
    if current:
        return max(current, key=lambda job: parse_month(job.get("startDate")) or "")
    return max(work, key=lambda job: (parse_month(job.get("endDate")) or "", parse_month(job.get("startDate")) or ""))


def _years_since(month: str, today: date) -> int:
    year, mon = int(month[:4]), int(month[5:7])
    months = (today.year - year) * 12 + (today.month - mon)
    return max(0, months // 12)


def _skills(raw: Any) -> list[SkillEntry]:
    out: list[SkillEntry] = []
    seen: set[str] = set()

    def add(label: str, score: int) -> None:
        key = label_key(label)
        if key and key not in seen:
            seen.add(key)
            out.append(SkillEntry(label=label, score=score))

    for skill in _dicts(raw):
        score = level_score(skill.get("level"))
        name = _s(skill, "name")
        if name:
            add(name, score)
        for keyword in _strings(skill.get("keywords")):
            add(keyword, score)
    return out


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
        summary = _s(project, "summary") or " ".join(_strings(project.get("highlights")))
        topics: list[str] = []
        for keyword in _strings(project.get("keywords")):
            key = label_key(keyword)
            if key not in topics:
                topics.append(key)
        out.append(
            ContributionEntry(
                repository=f"{m.group(1)}/{name}",
                repository_description=_s(project, "description"),
                start=start,
                end=end,
                role=", ".join(_strings(project.get("roles"))),
                summary=summary,
                topics=topics,
                is_current=start is not None and end is None and _is_current(project),
            )
        )
    return out


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"The JSON is not valid: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise ParseError("The JSON is nested too deeply to be a résumé.") from None
    except ValueError as exc:  # e.g. an integer with thousands of digits
        raise ParseError(f"The JSON is not valid: {str(exc)[:120]}") from None


def parse_jsonresume(text: str, *, today: date | None = None) -> ProfileDocument:
    """Parse a JSON Resume document. Raises ParseError when the JSON is invalid or holds no usable name.

    ``today`` (default: the current date) is used to estimate years of employment from the earliest job.
    """
    if not isinstance(text, str):
        raise ParseError("The file could not be read as text.")
    if not text.strip():
        raise ParseError("The file is empty.")
    data = _load(text.lstrip("\ufeff"))
    if not isinstance(data, dict):
        raise ParseError(f"The JSON is valid but is not a résumé object (it is {_json_type(data)}).")
    try:
        replaced: list[int] = []
        if _SURROGATE_ESCAPE_RE.search(text):
            data = _without_lone_surrogates(data, replaced)
        doc = _map(data, today or datetime.now(tz=UTC).date())
    except RecursionError:
        raise ParseError("The JSON is nested too deeply to be a résumé.") from None
    if replaced:
        doc.warnings.insert(0, LONE_SURROGATE_WARNING)
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


def _map(data: dict, today: date) -> ProfileDocument:
    warnings = _schema_warnings(data)
    basics = data.get("basics")
    if not isinstance(basics, dict) and isinstance(data.get("bio"), dict):
        basics = data["bio"]  # pre-1.0 résumés
    if not isinstance(basics, dict):
        raise ParseError(NO_NAME)
    name = _s(basics, "name")
    if not name:
        name = clean_text(f"{_s(basics, 'firstName')} {_s(basics, 'lastName')}")
    if not name:
        raise ParseError(NO_NAME)

    doc = ProfileDocument(format="jsonresume", name=name)
    doc.headline = _s(basics, "label")
    doc.title = doc.headline
    work = _dicts(data.get("work"))
    job = _current_job(work)
    if job is not None:
        doc.company = _s(job, "name", "company")
        if not doc.title:
            doc.title = _s(job, "position")
            if doc.title and doc.company:
                doc.headline = f"{doc.title} at {doc.company}"
            else:
                doc.headline = doc.title
    doc.location = _location(basics)
    summary = basics.get("summary")
    doc.summary = clean_paragraphs(summary) if isinstance(summary, str) else ""

    email = _s(basics, "email")
    if email and not _EMAIL_RE.match(email):
        if not any(w.startswith("basics.email:") for w in warnings):
            warnings.append(f"basics.email: {_short_repr(email)} is not a valid email")
        email = ""
    doc.email = email
    doc.website = _s(basics, "url", "website")
    doc.identifiers = _identifiers(basics, email, doc.website)

    for item in _dicts(data.get("education")):
        entry = EducationEntry(
            degree=_s(item, "studyType"), field=_s(item, "area"), school=_s(item, "institution", "name")
        )
        if entry.degree or entry.field or entry.school:
            doc.education.append(entry)

    doc.skills = _skills(data.get("skills"))
    languages = data.get("languages")
    for item in languages if isinstance(languages, list) else []:
        language = clean_text(item) if isinstance(item, str) else _s(item, "language", "name")
        if language and language not in doc.spoken_languages:
            doc.spoken_languages.append(language)
    doc.contributions = _contributions(data.get("projects"))

    starts = [m for job in work if (m := parse_month(job.get("startDate")))]
    doc.years_employed = _years_since(min(starts), today) if starts else None
    doc.years_coding = None
    doc.warnings = warnings
    return doc
