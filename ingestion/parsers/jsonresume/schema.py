"""The JSON Schema a résumé is checked against, and the warnings it gives: they never refuse a résumé."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import jsonschema
import jsonschema_rs

from core.dates import parse_month
from core.text import clean_text
from ingestion.parsers.jsonresume.values import CURRENT_WORDS

MAX_SCHEMA_WARNINGS = 20


# The parts of the JSON Resume v1 schema (jsonresume/resume-schema, MIT) that describe the fields we read.
# Every object allows extra keys: extension keys are not an error here.

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
# re.search (whose "$" also matches before a final newline), except blank dates, which ``schema_warnings`` ignores:
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


_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "true/false", type(None): "null"}


def json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    return _JSON_TYPES.get(type(value), "a value")


def short_repr(value: Any) -> str:
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:59] + "\u2026")
    if isinstance(value, (bool, int, float)) or value is None:
        return json.dumps(value)[:60]
    return json_type(value)


def _path(error: jsonschema.ValidationError) -> str:
    out = ""
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "The résumé"


def schema_valid(data: Any) -> bool:
    """True when ``data`` follows the schema (the fast check); False when it does not or cannot be checked here."""
    try:
        return _FAST_VALIDATOR.is_valid(data)
    except ValueError:  # e.g. a key that UTF-8 cannot encode: let the Python validator tell
        return False


def schema_warnings(data: Any) -> list[str]:
    if schema_valid(data):
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
                warnings.append(f"{where}: expected {article} {expected}, found {json_type(instance)}; ignored.")
            elif error.validator == "format":
                warnings.append(f"{where}: {short_repr(instance)} is not a valid {error.validator_value}")
            elif error.validator == "pattern" and error.validator_value == ISO8601_PATTERN:
                warnings.append(f"{where}: {short_repr(instance)} is not a date like 2014-06-29, 2014-06 or 2014.")
            else:
                warnings.append(f"{where}: does not follow the JSON Resume schema ({error.validator}).")
    except RecursionError:
        warnings.append("The résumé is nested too deeply to be checked completely against the JSON Resume schema.")
    if count > MAX_SCHEMA_WARNINGS:
        warnings.append(f"{count - MAX_SCHEMA_WARNINGS} more schema problems were not listed.")
    return warnings


def _readable_date(value: Any) -> bool:
    return isinstance(value, str) and (parse_month(value) is not None or clean_text(value).lower() in CURRENT_WORDS)
