"""Access requests (GDPR Art. 15): one JSON document holding everything TalentDB stores about a person, and a
plain-text summary of it.

The document is built from the candidate's relations as Django knows them, not from a list written here: every table
with a foreign key to the candidate is in it, whatever app adds one next (``ingestion``'s source files with their
stored text, for one, which this layer may not import; profiles' merge moves the same relations the same way,
``profiles.services.move_references_of_other_apps``). The domain's own tables get their names alongside (a skill's
name, a contribution's repository, a shortlist's name and owner) so the document reads without the database.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import uuid
from collections.abc import Iterable

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from privacy.access_renderers import access_renderers
from privacy.erasure import held_finders, held_redactions
from privacy.models import PrivacyEvent, SourcingRecord
from privacy.services import admin_log_naming, erasure_context, saved_searches_naming, shared_identifiers_of
from profiles.models import (
    Candidate,
    CandidateSkill,
    Contribution,
    MergeRecord,
    NotDuplicate,
    PossibleDuplicate,
    ShortlistEntry,
    ShortlistEntryEvent,
)

FORMAT = "talentdb-subject-access/1"
METADATA_KEYS = frozenset({"format", "generated_at", "candidate_id"})

# Search columns rebuilt from the fields and skills the document shows: what they hold is already in it, in a form
# (tsvector lexemes, skill_id * 16 + score tokens) no person could read.
DERIVED_CANDIDATE_FIELDS = frozenset({"search_vector", "skill_tokens", "skill_scores"})

# The document's name for a relation where the accessor's name would not say what the rows are.
SECTION_NAMES = {"sources": "source_files", "sourcing": "sourcing_record", "merges": "merges_into_this_candidate"}

# Columns of the domain's tables added to their rows, so that ids read as names.
NAMED_COLUMNS: dict[type[models.Model], dict[str, str]] = {
    CandidateSkill: {"skill_slug": "skill__slug", "skill_name": "skill__name", "skill_kind": "skill__kind"},
    Contribution: {
        "repository_full_name": "repository__full_name",
        "repository_description": "repository__description",
        "repository_topics": "repository__topics",
    },
    ShortlistEntry: {"shortlist_name": "shortlist__name", "shortlist_owner": "shortlist__owner__username"},
    MergeRecord: {"merged_by_username": "merged_by__username"},
}


def jsonable(value):
    """A column's value as JSON has it: times in ISO 8601, bytes as text when they are UTF-8 (the stored profile
    files are) and as base64 otherwise."""
    if isinstance(value, memoryview | bytes | bytearray):
        raw = bytes(value)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return {"base64": base64.b64encode(raw).decode("ascii")}
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    return value


def _rows(queryset: models.QuerySet, extra: dict[str, str] | None = None) -> list[dict]:
    """Every concrete column of the rows (``attname``: a key's id, not the row it points at), and ``extra`` lookups."""
    opts = queryset.model._meta
    columns = [f.attname for f in opts.concrete_fields]
    lookups = dict(extra or {})
    rows = queryset.order_by(opts.pk.attname).values(*columns, **{k: models.F(v) for k, v in lookups.items()})
    return [{key: jsonable(value) for key, value in row.items()} for row in rows]


def candidate_relations() -> list[models.ForeignObjectRel]:
    """The relations of other tables to the candidate (foreign keys and one-to-one keys pointing at it), hidden ones
    (``related_name="+"``) included; the candidate's own history is not among them (its id is a plain column)."""
    return [
        relation
        for relation in Candidate._meta.get_fields(include_hidden=True)
        if relation.auto_created and not relation.concrete and relation.related_model is not None
    ]


def _section_of(relation: models.ForeignObjectRel) -> str:
    if relation.related_model is NotDuplicate:
        return "not_duplicates"  # two hidden keys (first, second): one section
    if relation.related_model is PossibleDuplicate:
        return "possible_duplicates"  # the same
    name = relation.get_accessor_name() if not relation.hidden else relation.related_model._meta.label_lower
    return SECTION_NAMES.get(name, name)


def subject_access_document(*, candidate_id: int) -> dict:
    """Everything stored about the candidate, as one JSON-ready dict; raises Candidate.DoesNotExist.

    Sections: the candidate's columns, then one list per table that refers to them (skills with the skill's name,
    contributions with the repository's name, shortlist entries with the shortlist's name and owner and each entry's
    events, their source files with the stored text, the sourcing record, erasure requests ...), the history rows of
    django-simple-history, and the pairs marked as different people. A few queries per table, none per row.
    """
    candidate = Candidate.objects.filter(pk=candidate_id)
    row = _rows(candidate)
    if not row:
        raise Candidate.DoesNotExist(f"No candidate {candidate_id}.")
    document: dict = {
        "format": FORMAT,
        "generated_at": jsonable(timezone.now()),
        "candidate_id": candidate_id,
        "candidate": {k: v for k, v in row[0].items() if k not in DERIVED_CANDIDATE_FIELDS},
    }
    seen: set[type[models.Model]] = set()
    pks: dict[type[models.Model], list] = {Candidate: [candidate_id]}  # the rows the admin log may be about
    for relation in candidate_relations():
        model = relation.related_model
        if model in seen:
            continue
        seen.add(model)
        section = _section_of(relation)
        if model in (NotDuplicate, PossibleDuplicate):
            rows = _rows(model.objects.filter(Q(first_id=candidate_id) | Q(second_id=candidate_id)))
        else:
            rows = _rows(model._base_manager.filter(**{relation.field.attname: candidate_id}), NAMED_COLUMNS.get(model))
        pks[model] = [r[model._meta.pk.attname] for r in rows]
        if relation.one_to_one:
            document[section] = rows[0] if rows else None
        else:
            document[section] = rows
    _add_entry_events(document.get("shortlist_entries", []))
    # The history of the candidate and of those merged into them (an erasure deletes the same rows).
    merged_ids = [r["merged_id"] for r in document.get(SECTION_NAMES["merges"], [])]
    document["history"] = _rows(
        Candidate.history.model.objects.filter(id__in=[candidate_id, *merged_ids]),
        {"history_user_username": "history_user__username"},
    )
    document["admin_log"] = _admin_log_rows(pks)
    # The rows no key ties to them that an erasure would take or empty too, found as it finds them.
    context = erasure_context(Candidate.objects.get(pk=candidate_id))
    about_them = {row["id"] for row in document["admin_log"]}
    redactions = held_redactions()
    for section, finder in held_sections().items():
        rows = _rows(finder(context))
        if finder is admin_log_naming:
            rows = [row for row in rows if row["id"] not in about_them]
        for column, text in redactions.get(section, {}).items():
            for row in rows:
                row[column] = text if row[column] else row[column]
        document[section] = rows
    # The rows of other apps' tables as they show them (a stored CV's text beside its bytes).
    for section, render in access_renderers().items():
        if isinstance(document.get(section), list):
            document[section] = render(document[section])
    return document


def held_sections() -> dict:
    """The access request's sections of rows that do not point at the person, by the finders the erasure uses: this
    app's (saved searches for them, the admin log's other rows naming them, their identifiers recorded as shared) and
    those the apps above register with their erasure steps (``privacy.erasure.held_finders``: files linked to no
    candidate, exports' queries)."""
    return {
        "saved_searches": saved_searches_naming,
        "admin_log_mentions": admin_log_naming,
        "shared_identifiers": shared_identifiers_of,
        **held_finders(),
    }


def _admin_log_rows(pks: dict[type[models.Model], list]) -> list[dict]:
    """The admin log's rows about the candidate and about their rows (an entry's "Jane Doe in Backend"): one query."""
    about = Q(pk__in=[])
    for model, ids in pks.items():
        if ids:
            content_type = ContentType.objects.get_for_model(model, for_concrete_model=False)
            about |= Q(content_type=content_type, object_id__in=[str(pk) for pk in ids])
    return _rows(
        LogEntry.objects.filter(about),
        {"user_username": "user__username", "content_type_model": "content_type__model"},
    )


def _add_entry_events(entries: list[dict]) -> None:
    """Each shortlist entry's events (added, stage changes, notes), in the order they happened, under the entry."""
    by_entry: dict[int, list[dict]] = {entry["id"]: [] for entry in entries}
    events = ShortlistEntryEvent.objects.filter(entry_id__in=list(by_entry)).order_by("entry_id", "at", "id")
    for event in _rows(events, {"author_username": "author__username"}):
        by_entry[event["entry_id"]].append(event)
    for entry in entries:
        entry["events"] = by_entry[entry["id"]]


def section_counts(document: dict) -> dict[str, int]:
    """How many rows each section holds (1 or 0 for a one-to-one record), for the summary and the audit log."""
    counts = {
        key: len(value) if isinstance(value, list) else int(value is not None)
        for key, value in document.items()
        if key not in METADATA_KEYS
    }
    counts["shortlist_entry_events"] = sum(len(e["events"]) for e in document.get("shortlist_entries", []))
    return counts


def _lines(title: str, items: Iterable[str]) -> list[str]:
    items = list(items)
    return [f"{title} ({len(items)})", *(f"  - {item}" for item in items)] if items else [f"{title}: none"]


def _when(value: str | None, *, minutes: bool = True) -> str:
    """An ISO time of the document as a person reads it, in the site's time zone: 2026-12-01 17:45 CET."""
    if not value:
        return ""
    moment = timezone.localtime(dt.datetime.fromisoformat(value))
    return f"{moment:%Y-%m-%d %H:%M %Z}" if minutes else f"{moment:%Y-%m-%d}"


def _label(choices, value: str) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return value


def _span(start, end) -> str:
    start, end = (start or "")[:7], (end or "")[:7]
    return f"{start or '?'} to {end or 'now'}" if start or end else ""


def _joined(*parts, sep: str = ", ") -> str:
    return sep.join(str(p) for p in parts if p)


def _position_line(r: dict) -> str:
    return _joined(_joined(r["title"], r["company"], sep=" at "), _span(r["start"], r["end"]))


def _contribution_line(r: dict) -> str:
    return _joined(f"{r['repository_full_name']}: {r['commits']} commits", r["role"])


def _entry_line(r: dict) -> str:
    notes = "with notes" if r["notes"] else ""
    return _joined(
        f"{r['shortlist_name']} (owner {r['shortlist_owner'] or '-'}): stage {r['status']}",
        f"added {_when(r['added_at'], minutes=False)}",
        f"{len(r['events'])} recorded event(s)",
        notes,
    )


def _source_file_line(r: dict) -> str:
    return f"{r.get('original_name')} ({r.get('size')} bytes, received {_when(r.get('created_at'), minutes=False)})"


def _history_line(r: dict) -> str:
    what = dict(HISTORY_TYPES).get(r["history_type"], r["history_type"])
    head = f"{_when(r['history_date'])} {what} by {r['history_user_username'] or 'an import'}"
    return _joined(head, r.get("history_change_reason"), sep=": ")


def _merge_line(r: dict) -> str:
    return f"#{r['merged_id']}, merged {_when(r['merged_at'], minutes=False)} by {r['merged_by_username'] or '-'}"


def _log_line(r: dict) -> str:
    what = {1: "added", 2: "changed", 3: "deleted"}.get(r["action_flag"], "logged")
    return f"{_when(r['action_time'])} {r['content_type_model']} {what} by {r['user_username'] or '-'}"


def _log_mention_line(r: dict) -> str:
    return f"{_when(r['action_time'])} {r['object_repr']}"


def _file_line(r: dict) -> str:
    return f"file #{r['id']} ({r['size']} bytes, {r['status']}, received {_when(r['created_at'], minutes=False)})"


def _other_of_pair(r: dict, document: dict) -> int:
    return r["second_id"] if r["first_id"] == document["candidate_id"] else r["first_id"]


def subject_access_summary(document: dict) -> str:
    """The document in plain text, for the person to read: what is held, section by section, and where it came from.
    Every row is counted; long texts (summaries, notes, the files' text) are in the JSON only."""
    c = document["candidate"]
    location = ", ".join(part for part in (c.get("city"), c.get("region"), c.get("country")) if part)
    lines = [
        f"Data held by TalentDB about candidate #{document['candidate_id']}",
        f"Produced {_when(document['generated_at'])}; the JSON document ({document['format']}) holds every row.",
        "",
        "Profile",
        *(
            f"  {label}: {value}"
            for label, value in (
                ("Name", c.get("name")),
                ("Headline", c.get("headline")),
                ("Title", c.get("title")),
                ("Company", c.get("company")),
                ("Location", location),
                ("E-mail", c.get("email")),
                ("Website", c.get("website")),
                ("Years coding", c.get("years_coding")),
                ("Years employed", c.get("years_employed")),
                ("Spoken languages", ", ".join(c.get("spoken_languages") or [])),
                ("Badges", ", ".join(c.get("badges") or [])),
                ("Summary", f"{len(c.get('summary') or '')} characters" if c.get("summary") else ""),
                ("Record created", _when(c.get("created_at"))),
                ("Last changed", _when(c.get("updated_at"))),
            )
            if value not in (None, "")
        ),
        "",
    ]
    sourcing = document.get("sourcing_record")
    if sourcing:
        told = (
            f"told on {_when(sourcing['notified_at'])} by "
            f"{_label(SourcingRecord.NoticeChannel, sourcing['notice_channel'])}"
            if sourcing.get("notified_at")
            else f"not told yet (due {_when(sourcing['notice_due_at'])})"
        )
        lines += [
            "Where the data came from",
            f"  First imported {_when(sourcing['sourced_at'])} (import batch {sourcing.get('source_batch_id') or '-'}, "
            f"file {sourcing.get('source_file_id') or '-'}).",
            f"  Lawful basis: {_label(SourcingRecord.LawfulBasis, sourcing['lawful_basis'])}.",
            f"  Notice: {told}.",
            "",
        ]
    sections = [
        ("Identifiers", "identifiers", lambda r: f"{r['kind']}: {r['value']}"),
        ("Skills", "skills", lambda r: f"{r['skill_name']} {r['score']}/10 (as written: {r['label']})"),
        ("Work history", "positions", _position_line),
        ("Education", "education", lambda r: _joined(r["degree"], r["field"], r["school"]) or "(no details)"),
        ("Spoken languages", "languages", lambda r: _joined(r["name"], r["fluency"])),
        ("Open-source contributions", "contributions", _contribution_line),
        ("Shortlists and pipelines", "shortlist_entries", _entry_line),
        ("Source files (their full text is in the JSON document)", "source_files", _source_file_line),
        ("Change history", "history", _history_line),
        ("Records merged into this one", "merges_into_this_candidate", _merge_line),
        ("Marked as a different person from", "not_duplicates", lambda r: f"candidate #{_other_of_pair(r, document)}"),
        (
            "Listed as a possible duplicate of",
            "possible_duplicates",
            lambda r: f"candidate #{_other_of_pair(r, document)}",
        ),
        ("Admin log (changes made in the admin)", "admin_log", _log_line),
        ("Admin log entries about other records that name them", "admin_log_mentions", _log_mention_line),
        ("Saved searches for them", "saved_searches", lambda r: f"{r['name']}: {r['query']}"),
        (
            "Identifiers of theirs another person names too",
            "shared_identifiers",
            lambda r: f"{r['kind']}: {r['value']}",
        ),
        ("Stored files about them linked to no candidate (text in the JSON)", "source_files_not_linked", _file_line),
        ("Exports that searched for them", "exports_searching_for_them", lambda r: f"{r['format']}: {r['query']}"),
        ("Erasure requests", "erasure_requests", lambda r: f"{_when(r['requested_at'], minutes=False)}: {r['status']}"),
    ]
    for title, key, line in sections:
        lines += [*_lines(title, (line(row) for row in document.get(key, []))), ""]
    others = {key: n for key, n in section_counts(document).items() if key not in SECTION_KEYS_IN_SUMMARY and n}
    if others:
        lines += [*_lines("Other records", (f"{key}: {n} row(s)" for key, n in sorted(others.items()))), ""]
    return "\n".join(lines).rstrip() + "\n"


HISTORY_TYPES = (("+", "created"), ("~", "changed"), ("-", "deleted"))
# The sections the summary lists one by one; any other (a table some app adds later) is counted under "Other records".
SECTION_KEYS_IN_SUMMARY = frozenset(
    {
        "candidate",
        "sourcing_record",
        "history",
        "identifiers",
        "skills",
        "positions",
        "education",
        "languages",
        "contributions",
        "shortlist_entries",
        "shortlist_entry_events",
        "source_files",
        "merges_into_this_candidate",
        "not_duplicates",
        "possible_duplicates",
        "erasure_requests",
        "admin_log",
        "admin_log_mentions",
        "saved_searches",
        "shared_identifiers",
        "source_files_not_linked",
        "exports_searching_for_them",
    }
)


@transaction.atomic
def subject_access_report(*, candidate_id: int, user=None) -> tuple[dict, str]:
    """The document and its summary, and a row in the privacy audit log saying one was produced (by whom, how many
    rows of each kind; not for whom)."""
    document = subject_access_document(candidate_id=candidate_id)
    PrivacyEvent.objects.create(kind=PrivacyEvent.Kind.SUBJECT_ACCESS, by=user, counts=section_counts(document))
    return document, subject_access_summary(document)
