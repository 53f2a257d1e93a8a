"""Load parsed documents into the database: many profiles per transaction, set-based writes, no duplicates.

Identity: a document's keys are its external identifiers (GitHub username, e-mail, LinkedIn, profile URLs) and its
normalised name with location. Keys are locked with transaction-scoped advisory locks (in sorted order, so two
workers never deadlock) before they are looked up, so two workers loading the same person give one candidate.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import unicodedata
import zlib
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Model
from psycopg.types.json import Jsonb

from ingestion.documents import ProfileDocument
from ingestion.normalise import label_key
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    Education,
    Skill,
    SkillAlias,
)
from profiles.services import candidates_refresh_search_columns, skill_ids_for_labels, skill_slug

# Column types of the imported candidate fields, for set-based updates; array fields travel as JSON.
_CANDIDATE_COLUMN_TYPES = {
    "name": "varchar",
    "headline": "varchar",
    "title": "varchar",
    "company": "varchar",
    "city": "varchar",
    "region": "varchar",
    "country": "varchar",
    "country_code": "varchar",
    "summary": "text",
    "badges": "jsonb",
    "years_coding": "smallint",
    "years_employed": "smallint",
    "spoken_languages": "jsonb",
    "email": "varchar",
    "website": "varchar",
    "skills_declared": "integer",
    "programming_languages_declared": "integer",
    "contributions_declared": "integer",
    "document_sha256": "varchar",
}
_JSON_ARRAY_COLUMNS = {"badges", "spoken_languages"}
# Candidate fields an import writes; a recruiter can protect any of them against later imports.
IMPORTED_FIELDS = tuple(column for column in _CANDIDATE_COLUMN_TYPES if column != "document_sha256")


class Outcome:
    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"


@dataclass(slots=True)
class LoadResult:
    candidate_id: int
    outcome: str
    warnings: list[str]


def name_key(name: str) -> str:
    """Accent-, case- and spacing-insensitive form of a person's name."""
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(letters.casefold().split())


def identity_keys(doc: ProfileDocument) -> list[tuple[str, str]]:
    """External identifiers first (strongest), the name with location last."""
    keys: list[tuple[str, str]] = []
    ids = doc.identifiers
    if ids.github:
        keys.append((CandidateIdentifier.Kind.GITHUB, ids.github.casefold()))
    if doc.email or ids.email:
        keys.append((CandidateIdentifier.Kind.EMAIL, (ids.email or doc.email).casefold()))
    if ids.linkedin:
        keys.append((CandidateIdentifier.Kind.LINKEDIN, ids.linkedin.casefold()))
    keys.extend((CandidateIdentifier.Kind.URL, url.rstrip("/").casefold()) for url in ids.urls if url)
    loc = doc.location
    place = loc.country_code or loc.country.casefold()
    keys.append((CandidateIdentifier.Kind.NAME_LOCATION, f"{name_key(doc.name)}|{loc.city.casefold()}|{place}"))
    return [(kind, value[:500]) for kind, value in keys]


def document_sha256(doc: ProfileDocument) -> str:
    """Fingerprint of everything a document says (its warnings aside): equal documents rewrite nothing.

    The dataclasses' ``repr`` is deterministic and several times cheaper than serialising ``to_dict()``.
    """
    return hashlib.sha256(repr(dataclasses.replace(doc, warnings=[])).encode()).hexdigest()


def _month(value: str | None) -> dt.date | None:
    if not value:
        return None
    year, month = value.split("-")[:2]
    return dt.date(int(year), int(month), 1)


def _clip(model: type[Model], field: str, value: str, warnings: list[str]) -> str:
    limit = model._meta.get_field(field).max_length
    if limit and len(value) > limit:
        warnings.append(f"{model._meta.verbose_name} {field} was {len(value)} characters; cut to {limit}.")
        return value[:limit]
    return value


def candidate_values(doc: ProfileDocument, warnings: list[str]) -> dict:
    loc = doc.location
    values = {
        "name": doc.name,
        "headline": doc.headline,
        "title": doc.title,
        "company": doc.company,
        "city": loc.city,
        "region": loc.region,
        "country": loc.country,
        "country_code": loc.country_code,
        "summary": doc.summary,
        "email": doc.email if "@" in doc.email else "",
        "website": doc.website,
    }
    values = {field: _clip(Candidate, field, value or "", warnings) for field, value in values.items()}
    values.update(
        badges=[b[:100] for b in doc.badges],
        spoken_languages=[lang[:100] for lang in doc.spoken_languages],
        years_coding=doc.years_coding if doc.years_coding is None or doc.years_coding <= 100 else None,
        years_employed=doc.years_employed if doc.years_employed is None or doc.years_employed <= 100 else None,
        skills_declared=doc.skills_declared,
        programming_languages_declared=doc.programming_languages_declared,
        contributions_declared=doc.contributions_declared,
    )
    return values


def _lock_keys(keys: list[tuple[str, str]]) -> None:
    """Serialise loads of the same person across workers until this transaction ends."""
    texts = sorted({f"{kind}:{value}" for kind, value in keys})
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h "
            "FROM unnest(%s::text[]) AS k ORDER BY 1) AS locks",
            [texts],
        )


def _find_existing(keys_by_doc: list[list[tuple[str, str]]]) -> dict[tuple[str, str], int]:
    all_keys = {key for keys in keys_by_doc for key in keys}
    if not all_keys:
        return {}
    kinds, values = zip(*all_keys, strict=True)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT i.kind, i.value, i.candidate_id FROM profiles_candidateidentifier i "
            "JOIN unnest(%s::varchar[], %s::varchar[]) AS k(kind, value) USING (kind, value)",
            [list(kinds), list(values)],
        )
        return {(kind, value): cid for kind, value, cid in cursor.fetchall()}


def _match(keys: list[tuple[str, str]], known: dict[tuple[str, str], int]) -> int | None:
    external = [known[k] for k in keys if k[0] != CandidateIdentifier.Kind.NAME_LOCATION and k in known]
    if external:
        return external[0]
    has_external = any(k[0] != CandidateIdentifier.Kind.NAME_LOCATION for k in keys)
    name_match = known.get(keys[-1])
    if name_match is None:
        return None
    if not has_external:
        return name_match
    # The name matches, but this document names external ids the matched candidate does not have: only the same
    # person if that candidate has no external ids of those kinds either.
    return (
        None
        if CandidateIdentifier.objects.filter(candidate_id=name_match, kind__in={k[0] for k in keys[:-1]}).exists()
        else name_match
    )


@transaction.atomic
def load_documents(docs: list[ProfileDocument]) -> list[LoadResult]:
    """Create or update one candidate per document, in one transaction. Raises on any database error.

    Documents of the same person within ``docs`` are applied in order: the later one updates the earlier.
    """
    keys_by_doc = [identity_keys(doc) for doc in docs]
    _lock_keys([key for keys in keys_by_doc for key in keys])
    known = _find_existing(keys_by_doc)
    shas = [document_sha256(doc) for doc in docs]
    existing = Candidate.objects.defer("search_vector").in_bulk(set(known.values()))

    to_create: list[Candidate] = []
    to_update: dict[int, Candidate] = {}
    person_of: dict[tuple[str, str], Candidate] = {}  # identity key → its candidate (new ones have no pk yet)
    outcomes: list[tuple[Candidate, str, list[str]]] = []

    for doc, keys, sha in zip(docs, keys_by_doc, shas, strict=True):
        warnings = list(doc.warnings)
        values = candidate_values(doc, warnings)
        candidate = next((person_of[k] for k in keys if k in person_of), None)
        if candidate is None and (match := _match(keys, known)) is not None:
            candidate = existing[match]
        if candidate is None:
            candidate = Candidate(**values, document_sha256=sha)
            to_create.append(candidate)
            outcome = Outcome.CREATED
        elif candidate.pk is None:  # the same person as an earlier, new document in this chunk
            for field, value in values.items():
                setattr(candidate, field, value)
            candidate.document_sha256 = sha
            outcome = Outcome.UPDATED
        elif candidate.document_sha256 == sha and candidate.pk not in to_update:
            outcome = Outcome.UNCHANGED
        else:
            for field, value in values.items():
                if field not in candidate.protected_fields:
                    setattr(candidate, field, value)
            candidate.document_sha256 = sha
            to_update[candidate.pk] = candidate
            outcome = Outcome.UPDATED
        for key in keys:
            person_of.setdefault(key, candidate)
        outcomes.append((candidate, outcome, warnings))

    Candidate.objects.bulk_create(to_create)  # sets each new candidate's pk
    results = [LoadResult(candidate.pk, outcome, warnings) for candidate, outcome, warnings in outcomes]
    _update_candidates(list(to_update.values()))

    # The document that wrote a candidate last provides its children.
    writer_of: dict[int, int] = {}
    for index, result in enumerate(results):
        if result.outcome != Outcome.UNCHANGED:
            writer_of[result.candidate_id] = index
    written_ids = list(writer_of)
    if to_update:
        updated_ids = list(to_update)
        CandidateSkill.objects.filter(candidate_id__in=updated_ids).delete()
        Education.objects.filter(candidate_id__in=updated_ids).delete()
        Contribution.objects.filter(candidate_id__in=updated_ids).delete()
    _write_children({cid: docs[index] for cid, index in writer_of.items()})
    _write_identifiers({results[i].candidate_id: keys_by_doc[i] for i in range(len(docs))})
    candidates_refresh_search_columns(candidate_ids=written_ids)
    return results


def _update_candidates(candidates: list[Candidate]) -> None:
    """One ``UPDATE ... FROM unnest(...)`` for all updated candidates (values already respect protected fields)."""
    if not candidates:
        return
    columns = list(_CANDIDATE_COLUMN_TYPES)
    arrays = [[c.pk for c in candidates]]
    for column in columns:
        values = [getattr(c, column) for c in candidates]
        arrays.append([Jsonb(v) for v in values] if column in _JSON_ARRAY_COLUMNS else values)
    assignments = ", ".join(
        f"{column} = ARRAY(SELECT jsonb_array_elements_text(u.{column}))"
        if column in _JSON_ARRAY_COLUMNS
        else f"{column} = u.{column}"
        for column in columns
    )
    placeholders = ", ".join(["%s::bigint[]", *(f"%s::{t}[]" for t in _CANDIDATE_COLUMN_TYPES.values())])
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE profiles_candidate AS c SET {assignments}, updated_at = now() "  # noqa: S608 - fixed names
            f"FROM unnest({placeholders}) AS u(id, {', '.join(columns)}) WHERE c.id = u.id",
            arrays,
        )


def _insert(table: str, columns: dict[str, str], rows: list[tuple], suffix: str = "") -> None:
    """One ``INSERT ... SELECT FROM unnest(arrays)`` for many rows: set-based, no per-row ORM work.

    ``columns`` maps column name to its PostgreSQL array type (``"bigint[]"``); rows are tuples in that order.
    """
    if not rows:
        return
    names = list(columns)
    arrays = [list(values) for values in zip(*rows, strict=True)]
    placeholders = ", ".join(f"%s::{array_type}" for array_type in columns.values())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(names)}) SELECT * FROM unnest({placeholders}) {suffix}",  # noqa: S608
            arrays,
        )


def _write_identifiers(keys_by_candidate: dict[int, list[tuple[str, str]]]) -> None:
    rows = [(cid, kind, value) for cid, keys in keys_by_candidate.items() for kind, value in keys]
    _insert(
        "profiles_candidateidentifier",
        {"candidate_id": "bigint[]", "kind": "varchar[]", "value": "varchar[]"},
        rows,
        "ON CONFLICT (kind, value) DO NOTHING",
    )


SKILL_LOCK_SLOTS = 256  # bounds the locks one transaction holds (a hostile file can name 20,000 new skills)


def _lock_new_skills(label_keys: set[str]) -> None:
    """Creating skills locks their rows, in two statements (skills, then topics): two loaders creating overlapping
    new skills in opposite orders deadlock. Taking the locks of the new slugs (one of 256 slots each) all at once,
    sorted, first, prevents it."""
    known = set(SkillAlias.objects.filter(label__in=label_keys).values_list("label", flat=True))
    slots = {zlib.crc32(skill_slug(key).encode()) % SKILL_LOCK_SLOTS for key in label_keys - known if key}
    if slots:
        _lock_keys([("skill-slot", str(slot)) for slot in slots])


def _write_children(doc_by_candidate: dict[int, ProfileDocument]) -> None:
    if not doc_by_candidate:
        return
    skill_labels = {
        label_key(entry.label)
        for doc in doc_by_candidate.values()
        for entry in (*doc.skills, *doc.programming_languages)
    }
    topic_labels = {
        label_key(topic) for doc in doc_by_candidate.values() for c in doc.contributions for topic in c.topics
    }
    _lock_new_skills(skill_labels | topic_labels)
    skill_ids = skill_ids_for_labels(label_keys=skill_labels)
    topic_ids = skill_ids_for_labels(label_keys=topic_labels - skill_ids.keys(), default_kind=Skill.Kind.TOPIC)
    slug_of = dict(Skill.objects.filter(pk__in={*skill_ids.values(), *topic_ids.values()}).values_list("pk", "slug"))
    label_to_slug = {key: slug_of[sid] for key, sid in {**topic_ids, **skill_ids}.items()}

    skills: list[tuple] = []
    education: list[tuple] = []
    for cid, doc in doc_by_candidate.items():
        best: dict[int, list] = {}  # skill id → [candidate, skill, score, label, section, position]
        sections = (
            (CandidateSkill.Section.SKILL, doc.skills),
            (CandidateSkill.Section.LANGUAGE, doc.programming_languages),
        )
        for section, entries in sections:
            for entry in entries:
                sid = skill_ids.get(label_key(entry.label))
                if sid is None:
                    continue
                current = best.get(sid)
                if current is None:
                    best[sid] = [cid, sid, entry.score, entry.label[:200], section, len(best)]
                elif entry.score > current[2]:  # two labels of one skill: the higher score wins
                    current[2], current[3] = entry.score, entry.label[:200]
        skills.extend(tuple(row) for row in best.values())
        education.extend(
            (cid, i, e.degree[:200], e.field[:200], e.minor[:200], e.school[:300]) for i, e in enumerate(doc.education)
        )
    _insert(
        "profiles_candidateskill",
        {
            "candidate_id": "bigint[]",
            "skill_id": "bigint[]",
            "score": "smallint[]",
            "label": "varchar[]",
            "section": "varchar[]",
            "position": "smallint[]",
        },
        skills,
    )
    _insert(
        "profiles_education",
        {
            "candidate_id": "bigint[]",
            "position": "smallint[]",
            "degree": "varchar[]",
            "field": "varchar[]",
            "minor": "varchar[]",
            "school": "varchar[]",
        },
        education,
    )
    repo_ids = _upsert_repositories(doc_by_candidate.values(), label_to_slug)

    contributions: list[tuple] = []
    for cid, doc in doc_by_candidate.items():
        seen: set[str] = set()
        for position, c in enumerate(doc.contributions):
            if c.repository in seen:
                continue
            seen.add(c.repository)
            start, end = _month(c.start), _month(c.end)
            if start and end and end < start:
                start, end = end, start
            contributions.append(
                (
                    cid,
                    repo_ids[c.repository[:300]],
                    position,
                    c.role[:200],
                    c.commits,
                    c.comments,
                    start,
                    end,
                    c.is_current,
                    c.active_months,
                    c.summary,
                )
            )
    _insert(
        "profiles_contribution",
        {
            "candidate_id": "bigint[]",
            "repository_id": "bigint[]",
            "position": "smallint[]",
            "role": "varchar[]",
            "commits": "integer[]",
            "comments": "integer[]",
            "start": "date[]",
            '"end"': "date[]",
            "is_current": "boolean[]",
            "active_months": "integer[]",
            "summary": "text[]",
        },
        contributions,
    )


def _upsert_repositories(docs, label_to_slug: dict[str, str]) -> dict[str, int]:
    """Insert new repositories and refresh changed ones (unchanged rows are not rewritten); return their ids."""
    repositories: dict[str, tuple] = {}
    for doc in docs:
        for c in doc.contributions:
            name = c.repository[:300]
            slugs = sorted({label_to_slug[key] for t in c.topics if (key := label_key(t)) in label_to_slug})
            repositories[name] = (
                name,
                c.repository_description,
                [t[:100] for t in c.topics],
                slugs,
                c.topics_raw[:1000],
            )
    if not repositories:
        return {}
    names = sorted(repositories)  # sorted, so concurrent loaders take row locks in the same order
    rows = [repositories[name] for name in names]
    arrays = [list(values) for values in zip(*rows, strict=True)]
    with connection.cursor() as cursor:
        # Array-of-arrays parameters cannot be ragged: topics travel as JSON and are unpacked in SQL.
        cursor.execute(
            """
            INSERT INTO profiles_repository (full_name, description, topics, topic_slugs, topics_raw)
            SELECT n, d, ARRAY(SELECT jsonb_array_elements_text(t)), ARRAY(SELECT jsonb_array_elements_text(s)), r
            FROM unnest(%s::varchar[], %s::text[], %s::jsonb[], %s::jsonb[], %s::varchar[]) AS u(n, d, t, s, r)
            ON CONFLICT (full_name) DO UPDATE SET description = EXCLUDED.description, topics = EXCLUDED.topics,
                topic_slugs = EXCLUDED.topic_slugs, topics_raw = EXCLUDED.topics_raw
            WHERE (profiles_repository.description, profiles_repository.topics, profiles_repository.topic_slugs,
                   profiles_repository.topics_raw)
                IS DISTINCT FROM (EXCLUDED.description, EXCLUDED.topics, EXCLUDED.topic_slugs, EXCLUDED.topics_raw)
            """,
            [arrays[0], arrays[1], [Jsonb(t) for t in arrays[2]], [Jsonb(s) for s in arrays[3]], arrays[4]],
        )
        cursor.execute("SELECT full_name, id FROM profiles_repository WHERE full_name = ANY(%s)", [names])
        return dict(cursor.fetchall())


def preview_outcomes(docs: list[ProfileDocument]) -> dict[str, int]:
    """What loading these documents would do (created / updated / unchanged), reading only."""
    keys_by_doc = [identity_keys(doc) for doc in docs]
    known = _find_existing(keys_by_doc)
    shas = dict(Candidate.objects.filter(pk__in=set(known.values())).values_list("pk", "document_sha256"))
    counts = {Outcome.CREATED: 0, Outcome.UPDATED: 0, Outcome.UNCHANGED: 0}
    for doc, keys in zip(docs, keys_by_doc, strict=True):
        target = _match(keys, known)
        if target is None:
            counts[Outcome.CREATED] += 1
        else:
            counts[Outcome.UNCHANGED if shas.get(target) == document_sha256(doc) else Outcome.UPDATED] += 1
    return counts
