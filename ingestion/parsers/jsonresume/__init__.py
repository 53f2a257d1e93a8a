"""Parser for JSON Resume documents (https://jsonresume.org, schema v1, plus the common legacy keys).

The JSON Schema is only used to produce warnings: a résumé with a usable ``basics.name`` always imports, whatever
else is wrong with it. Extension keys are ignored.

``parser`` maps a résumé onto a ProfileDocument, one module for each part it reads: ``people`` (``basics``: accounts,
links, place), ``work``, ``skills`` (with ``levels``), ``languages``, ``projects`` (and awards). ``loading`` reads the
JSON (repairing trailing commas and comments), ``schema`` checks it, ``shape`` tells a JSON Resume from another
résumé format, and ``values`` reads the loose values of any of them.
"""

from ingestion.parsers.jsonresume.levels import LEVELS, level_score
from ingestion.parsers.jsonresume.loading import LONE_SURROGATE_WARNING, MAX_NAMED_REPAIRS
from ingestion.parsers.jsonresume.parser import NO_NAME, parse_jsonresume
from ingestion.parsers.jsonresume.schema import SCHEMA, schema_valid, schema_warnings
from ingestion.parsers.jsonresume.shape import EXPORT_ADVICE, is_other_format, looks_like_json, names_another_format
from ingestion.parsers.jsonresume.skills import SKILL_HEADINGS, SLASHED_NAMES, split_skill_label
from ingestion.parsers.jsonresume.values import is_email

__all__ = [
    "EXPORT_ADVICE",
    "LEVELS",
    "LONE_SURROGATE_WARNING",
    "MAX_NAMED_REPAIRS",
    "NO_NAME",
    "SCHEMA",
    "SKILL_HEADINGS",
    "SLASHED_NAMES",
    "is_email",
    "is_other_format",
    "level_score",
    "looks_like_json",
    "names_another_format",
    "parse_jsonresume",
    "schema_valid",
    "schema_warnings",
    "split_skill_label",
]
