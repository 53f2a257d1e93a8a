"""The JSON Resume parser: a résumé's text in, a ProfileDocument out."""

from __future__ import annotations

from datetime import UTC, date, datetime

from core.dates import parse_month
from core.text import clean_paragraphs, clean_text
from ingestion.documents import (
    EducationEntry,
    ParseError,
    ProfileDocument,
)
from ingestion.parsers.jsonresume.languages import language_entries
from ingestion.parsers.jsonresume.loading import (
    LONE_SURROGATE_WARNING,
    SURROGATE_ESCAPE_RE,
    load_json,
    without_lone_surrogates,
)
from ingestion.parsers.jsonresume.people import identifiers_of, location_of
from ingestion.parsers.jsonresume.projects import award_entries, contribution_entries
from ingestion.parsers.jsonresume.schema import json_type, schema_warnings, short_repr
from ingestion.parsers.jsonresume.shape import EXPORT_ADVICE, other_shape_name, with_schema_keys
from ingestion.parsers.jsonresume.skills import skill_entries
from ingestion.parsers.jsonresume.values import dicts_in, first_text, is_email
from ingestion.parsers.jsonresume.work import current_position, position_entries, title_from_label
from ingestion.parsers.years import years_coding, years_employed

NO_NAME = "No name found in basics.name."


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
    data, repaired = load_json(text.lstrip("\ufeff"))
    if not isinstance(data, dict):
        raise ParseError(f"The JSON is valid but is not a résumé object (it is {json_type(data)}).")
    try:
        replaced: list[int] = []
        if SURROGATE_ESCAPE_RE.search(text):
            data = without_lone_surrogates(data, replaced)
        doc = _map(data, today or datetime.now(tz=UTC).date(), vocabulary)
    except RecursionError:
        raise ParseError("The JSON is nested too deeply to be a résumé.") from None
    if replaced:
        doc.warnings.insert(0, LONE_SURROGATE_WARNING)
    if repaired:
        doc.warnings.insert(0, repaired)
    return doc


def _map(data: dict, today: date, vocabulary: frozenset[str] = frozenset()) -> ProfileDocument:
    key_warnings: list[str] = []
    data = with_schema_keys(data, key_warnings)
    warnings = key_warnings + schema_warnings(data)
    basics = data.get("basics")
    if not isinstance(basics, dict) and isinstance(data.get("bio"), dict):
        basics = data["bio"]  # pre-1.0 résumés
    if not isinstance(basics, dict):
        if "basics" not in data and (where := other_shape_name(data)):
            raise ParseError(f"This is not a JSON Resume file: it has {where} (expected basics.name). {EXPORT_ADVICE}")
        raise ParseError(NO_NAME)
    name = first_text(basics, "name")
    if not name:
        name = clean_text(f"{first_text(basics, 'firstName')} {first_text(basics, 'lastName')}")
    if not name:
        raise ParseError(NO_NAME)

    doc = ProfileDocument(format="jsonresume", name=name)
    # The current job gives the company and the title; without one the company stays empty (the schema's basics
    # have no company of their own, and a label's "at Company" is often a job that has ended) and the title is the
    # label without a trailing "at <one of the jobs' companies>". The headline is the label as written.
    label = first_text(basics, "label")
    doc.positions = position_entries(data.get("work"), today, warnings)
    current = current_position(doc.positions)
    doc.company = current.company if current else ""
    doc.title = (current.title if current else "") or title_from_label(label, doc.positions)
    doc.headline = label or " at ".join(part for part in (doc.title, doc.company) if part)
    doc.location = location_of(basics)
    summary = basics.get("summary")
    doc.summary = clean_paragraphs(summary) if isinstance(summary, str) else ""

    email = first_text(basics, "email")
    if email and not is_email(email):
        if not any(w.startswith("basics.email:") for w in warnings):
            warnings.append(f"basics.email: {short_repr(email)} is not a valid email")
        email = ""
    doc.email = email
    doc.phone = first_text(basics, "phone")
    doc.identifiers, doc.website = identifiers_of(basics, email)

    for item in dicts_in(data.get("education")):
        entry = EducationEntry(
            degree=first_text(item, "studyType"),
            field=first_text(item, "area"),
            school=first_text(item, "institution", "name"),
            start=parse_month(item.get("startDate")),
            end=parse_month(item.get("endDate")),
        )
        if entry.degree or entry.field or entry.school:
            doc.education.append(entry)

    doc.skills = skill_entries(data.get("skills"), vocabulary, warnings)
    doc.languages = language_entries(data.get("languages"), warnings)
    doc.spoken_languages = list(dict.fromkeys(entry.name for entry in doc.languages))
    doc.contributions = contribution_entries(data.get("projects"))
    doc.awards = award_entries(data.get("awards"))

    doc.years_employed = years_employed(doc.positions, today)
    doc.years_coding = years_coding(doc.positions, today)
    doc.warnings = warnings
    return doc
