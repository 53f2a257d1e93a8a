"""Load parsed documents into the database: many profiles per transaction, set-based writes, no duplicates.

Identity: a document's keys are its external identifiers (GitHub username, e-mail, LinkedIn, profile URLs) and its
normalised name with location. Keys are locked with transaction-scoped advisory locks (in sorted order, so two
workers never deadlock) before they are looked up, so two workers loading the same person give one candidate.

Writes are set-based, a few statements per chunk whatever its size: ``COPY`` for rows only this load can write (the
new candidates' skills, education and contributions), ``INSERT ... SELECT FROM unnest(...)`` for the new candidates
themselves (last, with their search columns computed from those rows, so each is written once) and where a conflict
is possible (identifiers, repositories). Rows every profile shares (skills, aliases, repositories) are best written
before the chunk's transaction, with ``shared_rows_upsert``, so concurrent loaders do not wait for each other. All
go through ``bound_cursor``: Django's cursor renders every array element into the SQL text in Python, which cost more
than the statements themselves.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import orjson
import psycopg
from django.contrib.postgres.fields import ArrayField
from django.db import connection, transaction
from django.db.models import Model
from psycopg.types.json import Jsonb

from core.labels import label_key
from ingestion.documents import ProfileDocument
from profiles.identity import name_location_key
from profiles.models import Candidate, CandidateIdentifier, CandidateSkill, Skill
from profiles.search import candidate_insert_sql, candidates_refresh_search_columns
from profiles.services import skill_ids_for_labels, skill_slug


def _json_dumps(value) -> bytes | str:
    """orjson, several times faster than psycopg's default (the standard library's json); that one still takes what
    orjson refuses (a lone surrogate, which PostgreSQL then rejects like any other value holding one)."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value)


def _jsonb(value) -> Jsonb:
    return Jsonb(value, dumps=_json_dumps)


def _column_type(field_name: str) -> str:
    """The SQL type an imported field travels as in the loader's arrays: the column's own type without its length
    (``varchar(300)`` → ``varchar``), and ``jsonb`` for array fields, whose ragged values travel as one JSON array
    each."""
    field = Candidate._meta.get_field(field_name)
    if isinstance(field, ArrayField):
        return "jsonb"
    return field.db_type(connection).split("(")[0]


# Column types of the imported candidate fields (``Candidate.IMPORTED_FIELDS``) and of the document's fingerprint,
# from the model: a column added to the model and to IMPORTED_FIELDS is loaded without an edit here.
_CANDIDATE_COLUMN_TYPES = {name: _column_type(name) for name in (*Candidate.IMPORTED_FIELDS, "document_sha256")}
_JSON_ARRAY_COLUMNS = {name for name, sql_type in _CANDIDATE_COLUMN_TYPES.items() if sql_type == "jsonb"}


class Outcome:
    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"


@dataclass(slots=True)
class LoadResult:
    candidate_id: int
    outcome: str
    warnings: list[str]


@dataclass(slots=True, eq=False)
class _Person:
    """A candidate as one load sees it: a stored row (its imported fields), or a new one (no pk until inserted)."""

    pk: int | None
    values: dict
    sha: str
    protected: frozenset[str] = frozenset()


@contextmanager
def bound_cursor() -> Iterator[psycopg.Cursor]:
    """A cursor on Django's connection, in its transaction, that binds parameters on the server and can ``COPY``.

    With ``%b`` placeholders arrays travel in binary. Database errors still come out as Django's (IntegrityError,
    DataError, ...), so a bad document fails exactly as it would through ``connection.cursor()``.
    """
    with connection.cursor(), connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        yield cursor


def _copy(table: str, columns: Iterable[str], rows: list[tuple]) -> None:
    """``COPY`` rows into a table. Text format on purpose: the server parses and range-checks every value (binary
    COPY lets an out-of-range integer wrap around silently)."""
    if not rows:
        return
    statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    with bound_cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


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
    keys.append((CandidateIdentifier.Kind.NAME_LOCATION, name_location_key(doc.name, loc.city, place)))
    return [(kind, value[:500]) for kind, value in keys]


def document_sha256(doc: ProfileDocument) -> str:
    """Fingerprint of everything a document says (its warnings aside): equal documents rewrite nothing.

    orjson serialises the dataclasses in C, field by field in declaration order: several times cheaper than their
    ``repr`` (and than ``to_dict()``), which stands in for the rare document orjson refuses (a lone surrogate).
    Fingerprints stored before orjson (of the ``repr``) differ from these: each such candidate is rewritten once, by
    its next import, and counted as updated.
    """
    content = dataclasses.replace(doc, warnings=[])
    try:
        data = orjson.dumps(content)
    except orjson.JSONEncodeError:
        data = repr(content).encode()
    return hashlib.sha256(data).hexdigest()


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
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h "
            "FROM unnest(%b::text[]) AS k ORDER BY 1) AS locks",
            [texts],
        )


def _find_existing(keys_by_doc: list[list[tuple[str, str]]]) -> dict[tuple[str, str], int]:
    all_keys = {key for keys in keys_by_doc for key in keys}
    if not all_keys:
        return {}
    kinds, values = zip(*all_keys, strict=True)
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT i.kind, i.value, i.candidate_id FROM profiles_candidateidentifier i "
            "JOIN unnest(%b::varchar[], %b::varchar[]) AS k(kind, value) USING (kind, value)",
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


# No savepoint inside a caller's transaction (source_files_import records the files' outcome in the same one): a
# failure rolls all of it back anyway.
@transaction.atomic(savepoint=False)
def load_documents(docs: list[ProfileDocument]) -> list[LoadResult]:
    """Create or update one candidate per document, in one transaction. Raises on any database error.

    Documents of the same person within ``docs`` are applied in order: the later one updates the earlier.
    """
    keys_by_doc = [identity_keys(doc) for doc in docs]
    _lock_keys([key for keys in keys_by_doc for key in keys])
    known = _find_existing(keys_by_doc)
    shas = [document_sha256(doc) for doc in docs]
    stored = _stored_candidates(set(known.values()))

    to_create: list[_Person] = []
    to_update: dict[int, _Person] = {}
    person_of: dict[tuple[str, str], _Person] = {}  # identity key → its candidate (new ones have no pk yet)
    outcomes: list[tuple[_Person, str, list[str]]] = []

    for doc, keys, sha in zip(docs, keys_by_doc, shas, strict=True):
        warnings = list(doc.warnings)
        values = candidate_values(doc, warnings)
        person = next((person_of[k] for k in keys if k in person_of), None)
        if person is None and (match := _match(keys, known)) is not None:
            person = stored[match]
        if person is None:
            person = _Person(None, values, sha)
            to_create.append(person)
            outcome = Outcome.CREATED
        elif person.pk is None:  # the same person as an earlier, new document in this chunk
            person.values, person.sha = values, sha
            outcome = Outcome.UPDATED
        elif person.sha == sha and person.pk not in to_update:
            outcome = Outcome.UNCHANGED
        else:
            person.values.update((field, value) for field, value in values.items() if field not in person.protected)
            person.sha = sha
            to_update[person.pk] = person
            outcome = Outcome.UPDATED
        for key in keys:
            person_of.setdefault(key, person)
        outcomes.append((person, outcome, warnings))

    _assign_ids(to_create)
    results = [LoadResult(person.pk, outcome, warnings) for person, outcome, warnings in outcomes]
    _update_candidates(list(to_update.values()))

    # The document that wrote a candidate last provides its children.
    writer_of: dict[int, int] = {}
    for index, result in enumerate(results):
        if result.outcome != Outcome.UNCHANGED:
            writer_of[result.candidate_id] = index
    written_ids = list(writer_of)
    if to_update:
        _delete_children(list(to_update))
    _write_children({cid: docs[index] for cid, index in writer_of.items()})
    # Every document adds its person's new keys: two files of one person in one chunk leave both files' keys, as two
    # chunks would (a dict keeps the order and drops repeats).
    new_keys = {
        (result.candidate_id, kind, value): None
        for result, keys in zip(results, keys_by_doc, strict=True)
        for kind, value in keys
        if (kind, value) not in known
    }
    _write_identifiers(list(new_keys))
    _insert_candidates(to_create)  # with their search columns, now that their skills and contributions exist
    created = {person.pk for person in to_create}
    candidates_refresh_search_columns(candidate_ids=[cid for cid in written_ids if cid not in created])
    return results


def _stored_candidates(ids: set[int]) -> dict[int, _Person]:
    if not ids:
        return {}
    with bound_cursor() as cursor:
        cursor.execute(
            f"SELECT id, document_sha256, protected_fields, {', '.join(Candidate.IMPORTED_FIELDS)} "  # noqa: S608 - fixed names
            "FROM profiles_candidate WHERE id = ANY(%b)",
            [list(ids)],
        )
        return {
            row[0]: _Person(
                row[0], dict(zip(Candidate.IMPORTED_FIELDS, row[3:], strict=True)), row[1], frozenset(row[2])
            )
            for row in cursor
        }


def _assign_ids(people: list[_Person]) -> None:
    """Take the new candidates' ids from their sequence: their rows are written last (``_insert_candidates``)."""
    if not people:
        return
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence('profiles_candidate', 'id')) FROM generate_series(1, %s)",
            [len(people)],
        )
        ids = sorted(row[0] for row in cursor.fetchall())
    for person, pk in zip(people, ids, strict=True):
        person.pk = pk


def _candidate_arrays(people: list[_Person]) -> list[list]:
    """The people's ids and imported fields, one array per column of ``_UNNEST_CANDIDATES`` (array fields as JSON)."""
    rows = [{**person.values, "document_sha256": person.sha} for person in people]
    arrays: list[list] = [[person.pk for person in people]]
    for column in _CANDIDATE_COLUMN_TYPES:
        values = [row[column] for row in rows]
        arrays.append([_jsonb(v) for v in values] if column in _JSON_ARRAY_COLUMNS else values)
    return arrays


def _column_value(column: str, source: str) -> str:
    if column in _JSON_ARRAY_COLUMNS:
        return f"ARRAY(SELECT jsonb_array_elements_text({source}.{column}))"
    return f"{source}.{column}"


# The rows of _candidate_arrays as a table `u`: unnest(%b::bigint[], %b::varchar[], ...) AS u(id, name, ...).
_UNNEST_CANDIDATES = "unnest({}) AS u(id, {})".format(
    ", ".join(["%b::bigint[]", *(f"%b::{t}[]" for t in _CANDIDATE_COLUMN_TYPES.values())]),
    ", ".join(_CANDIDATE_COLUMN_TYPES),
)
# Built once from fixed names (no value is ever formatted into them).
_INSERT_CANDIDATES_SQL = candidate_insert_sql(
    rows_sql=_UNNEST_CANDIDATES,
    columns=[*_CANDIDATE_COLUMN_TYPES, "protected_fields", "created_at", "updated_at"],
    values_sql=[*(_column_value(column, "c") for column in _CANDIDATE_COLUMN_TYPES), "'{}'", "now()", "now()"],
)
_UPDATE_CANDIDATES_SQL = (
    "UPDATE profiles_candidate AS c SET "  # noqa: S608
    + ", ".join(f"{column} = {_column_value(column, 'u')}" for column in _CANDIDATE_COLUMN_TYPES)
    + f", updated_at = now() FROM {_UNNEST_CANDIDATES} WHERE c.id = u.id"
)


def _insert_candidates(people: list[_Person]) -> None:
    """Write the new candidates, search columns included, in one ``INSERT``, after their skills and contributions
    (the foreign keys are checked at commit): each row is written once, where a ``COPY`` followed by the search
    columns' ``UPDATE`` wrote it, and its 14 indexes, twice."""
    if people:
        with bound_cursor() as cursor:
            cursor.execute(_INSERT_CANDIDATES_SQL, _candidate_arrays(people))


def _update_candidates(people: list[_Person]) -> None:
    """One ``UPDATE ... FROM unnest(...)`` for all updated candidates (values already respect protected fields)."""
    if people:
        with bound_cursor() as cursor:
            cursor.execute(_UPDATE_CANDIDATES_SQL, _candidate_arrays(people))


def _delete_children(candidate_ids: list[int]) -> None:
    """Updated candidates get their skills, education and contributions from their newest document: drop the old."""
    with bound_cursor() as cursor:
        cursor.execute(
            """
            WITH skills AS (DELETE FROM profiles_candidateskill WHERE candidate_id = ANY(%(ids)b)),
            education AS (DELETE FROM profiles_education WHERE candidate_id = ANY(%(ids)b))
            DELETE FROM profiles_contribution WHERE candidate_id = ANY(%(ids)b)
            """,
            {"ids": candidate_ids},
        )


def _write_identifiers(rows: list[tuple[int, str, str]]) -> None:
    """(candidate id, kind, value) rows of keys not stored yet; a key another candidate holds stays theirs."""
    if not rows:
        return
    with bound_cursor() as cursor:
        cursor.execute(
            "INSERT INTO profiles_candidateidentifier (candidate_id, kind, value) "
            "SELECT * FROM unnest(%b::bigint[], %b::varchar[], %b::varchar[]) ON CONFLICT (kind, value) DO NOTHING",
            [list(column) for column in zip(*rows, strict=True)],
        )


SKILL_LOCK_SLOTS = 256  # bounds the locks one transaction holds (a hostile file can name 20,000 new skills)


def _lock_skill_slots(label_keys: set[str]) -> None:
    """Creating skills locks their rows, in two statements (skills, then topics): two loaders creating overlapping
    new skills in opposite orders deadlock. Taking the locks of the new slugs (one of 256 slots each) all at once,
    sorted, first, prevents it."""
    slots = {zlib.crc32(skill_slug(key).encode()) % SKILL_LOCK_SLOTS for key in label_keys}
    if slots:
        _lock_keys([("skill-slot", str(slot)) for slot in slots])


def _resolve_labels(skill_labels: set[str], topic_labels: set[str]) -> tuple[dict[str, int], dict[str, str]]:
    """The skill id and the slug of each label key. New labels become skills (topic-only labels, topics) after taking
    their slots' locks; when every label is known already (the usual case) this is one query."""
    wanted = (skill_labels | topic_labels) - {""}
    if not wanted:
        return {}, {}
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT a.label, a.skill_id, s.slug FROM profiles_skillalias a JOIN profiles_skill s ON s.id = a.skill_id "
            "WHERE a.label = ANY(%b::varchar[])",
            [sorted(wanted)],
        )
        found = cursor.fetchall()
    ids = {label: skill_id for label, skill_id, _ in found}
    slugs = {label: slug for label, _, slug in found}
    new = wanted - ids.keys()
    if new:
        _lock_skill_slots(new)
        created = skill_ids_for_labels(label_keys=skill_labels & new)
        created.update(
            skill_ids_for_labels(label_keys=(topic_labels & new) - created.keys(), default_kind=Skill.Kind.TOPIC)
        )
        with bound_cursor() as cursor:
            cursor.execute("SELECT id, slug FROM profiles_skill WHERE id = ANY(%b)", [sorted(set(created.values()))])
            slug_of = dict(cursor.fetchall())
        ids.update(created)
        slugs.update((label, slug_of[skill_id]) for label, skill_id in created.items())
    return ids, slugs


_SKILL_COLUMNS = ("candidate_id", "skill_id", "score", "label", "section", "position")
_EDUCATION_COLUMNS = ("candidate_id", "position", "degree", "field", "minor", "school")
_CONTRIBUTION_COLUMNS = (
    "candidate_id",
    "repository_id",
    "position",
    "role",
    "commits",
    "comments",
    "start",
    '"end"',
    "is_current",
    "active_months",
    "summary",
)


def _labels(docs: Iterable[ProfileDocument]) -> tuple[set[str], set[str]]:
    """The label keys of the documents' skills and programming languages, and of their repositories' topics."""
    skill_labels: set[str] = set()
    topic_labels: set[str] = set()
    for doc in docs:
        skill_labels.update(label_key(entry.label) for entry in (*doc.skills, *doc.programming_languages))
        topic_labels.update(label_key(topic) for c in doc.contributions for topic in c.topics)
    return skill_labels, topic_labels


@transaction.atomic(savepoint=False)
def shared_rows_upsert(docs: list[ProfileDocument]) -> None:
    """Create the skills (with their aliases) and repositories these documents name, and refresh changed
    repositories; ``load_documents`` then only reads them. Run it in a short transaction of its own, before the
    chunk's (``ingestion.services`` does).

    Rows that every profile shares: when two workers' chunks name the same new skill or a changed repository, the
    second waits for the first to commit, and inside a chunk's transaction that is the whole chunk. Done first, the
    wait is one statement long. A chunk that fails afterwards leaves these rows behind, which is harmless: they are
    vocabulary and repositories, not anyone's profile, and later imports use them. ``load_documents`` still creates
    whatever this step did not (a caller that skips it just waits longer).
    """
    _, label_to_slug = _resolve_labels(*_labels(docs))
    _upsert_repositories(docs, label_to_slug)


def _write_children(doc_by_candidate: dict[int, ProfileDocument]) -> None:
    if not doc_by_candidate:
        return
    skill_ids, label_to_slug = _resolve_labels(*_labels(doc_by_candidate.values()))

    skills: list[list] = []
    education: list[tuple] = []
    skill_section, language_section = CandidateSkill.Section.SKILL.value, CandidateSkill.Section.LANGUAGE.value
    for cid, doc in doc_by_candidate.items():
        best: dict[int, list] = {}  # skill id → [candidate, skill, score, label, section, position]
        for section, entries in ((skill_section, doc.skills), (language_section, doc.programming_languages)):
            for entry in entries:
                sid = skill_ids.get(label_key(entry.label))
                if sid is None:
                    continue
                current = best.get(sid)
                if current is None:
                    best[sid] = [cid, sid, entry.score, entry.label[:200], section, len(best)]
                elif entry.score > current[2]:  # two labels of one skill: the higher score wins
                    current[2], current[3] = entry.score, entry.label[:200]
        skills.extend(best.values())
        education.extend(
            (cid, i, e.degree[:200], e.field[:200], e.minor[:200], e.school[:300]) for i, e in enumerate(doc.education)
        )
    _copy("profiles_candidateskill", _SKILL_COLUMNS, skills)
    _copy("profiles_education", _EDUCATION_COLUMNS, education)
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
    _copy("profiles_contribution", _CONTRIBUTION_COLUMNS, contributions)


def _upsert_repositories(docs, label_to_slug: dict[str, str]) -> dict[str, int]:
    """Insert new repositories and refresh changed ones; return their ids.

    A repository keeps what files said of it: a later file replaces its description, or its topics, only when it
    gives them (files often leave a repository's description out). Only inserted and changed rows are written, and so
    locked until commit: an ``INSERT ... ON CONFLICT DO UPDATE`` locks every row it meets, changed or not, and every
    loader names the popular repositories, so concurrent chunks queued behind each other.
    """
    descriptions: dict[str, str] = {}
    topics: dict[str, tuple[list[str], list[str], str]] = {}  # name → (topics, canonical slugs, topics as written)
    for doc in docs:
        for c in doc.contributions:
            name = c.repository[:300]
            if c.repository_description or name not in descriptions:
                descriptions[name] = c.repository_description
            if c.topics or name not in topics:
                slugs = sorted({label_to_slug[key] for t in c.topics if (key := label_key(t)) in label_to_slug})
                topics[name] = ([t[:100] for t in c.topics], slugs, c.topics_raw[:1000])
    if not descriptions:
        return {}
    names = sorted(descriptions)  # sorted, so concurrent loaders take row locks in the same order
    # One JSON document for the chunk's repositories, dumped by orjson in one call: rows of [name, description,
    # topics, canonical slugs, topics as written]. (As five array parameters, with the ragged topics as one JSON
    # value each, psycopg dumped every element in Python: more CPU than the statement itself.)
    wanted = _jsonb([[name, descriptions[name], *topics[name]] for name in names])
    with bound_cursor() as cursor:
        # The ids come back in the same statement: the changed and inserted rows from RETURNING, the others as they
        # were before it.
        cursor.execute(
            """
            WITH wanted AS (
                SELECT w->>0 AS n, w->>1 AS d, ARRAY(SELECT jsonb_array_elements_text(w->2))::varchar[] AS t,
                    ARRAY(SELECT jsonb_array_elements_text(w->3))::varchar[] AS s, w->>4 AS r
                FROM jsonb_array_elements(%b) AS u(w)
            ),
            to_change AS (  -- stored repositories whose merged values differ; empty values keep the stored ones
                SELECT p.id, m.d, m.t, m.s, m.r
                FROM wanted AS w JOIN profiles_repository AS p ON p.full_name = w.n
                CROSS JOIN LATERAL (
                    SELECT coalesce(nullif(w.d, ''), p.description) AS d,
                        CASE WHEN cardinality(w.t) > 0 THEN w.t ELSE p.topics END AS t,
                        CASE WHEN cardinality(w.t) > 0 THEN w.s ELSE p.topic_slugs END AS s,
                        CASE WHEN cardinality(w.t) > 0 THEN w.r ELSE p.topics_raw END AS r
                ) AS m
                WHERE (p.description, p.topics, p.topic_slugs, p.topics_raw) IS DISTINCT FROM (m.d, m.t, m.s, m.r)
                ORDER BY p.full_name
                FOR NO KEY UPDATE OF p  -- in name order, as every loader locks them: no deadlock; and not the key,
                -- which the foreign-key checks of contributions share (FOR UPDATE made them wait)
            ),
            changed AS (
                UPDATE profiles_repository AS p SET description = u.d, topics = u.t, topic_slugs = u.s, topics_raw = u.r
                FROM to_change AS u WHERE p.id = u.id
                RETURNING p.full_name, p.id
            ),
            inserted AS (
                INSERT INTO profiles_repository (full_name, description, topics, topic_slugs, topics_raw)
                SELECT n, d, t, s, r FROM wanted
                WHERE NOT EXISTS (SELECT FROM profiles_repository p WHERE p.full_name = wanted.n)
                ON CONFLICT (full_name) DO NOTHING
                RETURNING full_name, id
            )
            SELECT full_name, id FROM changed
            UNION ALL
            SELECT full_name, id FROM inserted
            UNION ALL
            SELECT full_name, id FROM profiles_repository WHERE full_name = ANY(ARRAY(SELECT n FROM wanted))
            """,
            [wanted],
        )
        ids = dict(cursor.fetchall())
        # A row another load inserted after this statement began is in none of the parts: read it now.
        if missing := [name for name in names if name not in ids]:
            cursor.execute(
                "SELECT full_name, id FROM profiles_repository WHERE full_name = ANY(%b::varchar[])", [missing]
            )
            ids.update(cursor.fetchall())
    return ids


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
