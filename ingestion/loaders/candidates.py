"""Loading profiles: one candidate per profile, created or updated in one transaction, set-based, with the rows only
this load writes."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.postgres.fields import ArrayField
from django.db import connection, transaction

from core.identity import names_clearly_differ
from db.cursors import bound_cursor
from db.locks import lock_keys
from ingestion.loaders.children import SKILL_COLUMNS, write_children
from ingestion.loaders.identity import (
    Clash,
    Person,
    clash_warning,
    clashes_record,
    find_existing,
    is_bare_site,
    match_candidate,
    shared_keys,
)
from ingestion.loaders.values import jsonb
from ingestion.models import SourceFile
from ingestion.normalise import NormalisedProfile
from profiles.models import Candidate
from profiles.search import candidate_insert_sql, candidates_refresh_search_columns


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


@dataclass(slots=True)
class LoadResult:
    candidate_id: int
    outcome: str
    warnings: list[str]


# No savepoint inside a caller's transaction (source_files_import records the files' outcome in the same one): a
# failure rolls all of it back anyway.
@transaction.atomic(savepoint=False)
def load_profiles(profiles: list[NormalisedProfile], *, rebuild: bool = False) -> list[LoadResult]:
    """Create or update one candidate per profile, in one transaction. Raises on any database error.

    Profiles of the same person within ``profiles`` are applied in order: the later one updates the earlier.
    With ``rebuild``, a stored candidate is rewritten even when its fingerprint is this document's: the fingerprint
    says which document was loaded, not which code loaded it, and a rebuild (``manage.py reparse --all``) is how rows
    that code did not write (tables added since) get written.

    A key never overwrites a person with another: a file whose keys lead only to a candidate of a clearly different
    name is a new candidate, and the two are recorded as possible duplicates, with a warning on the file naming both;
    a site the two both name is shared from then on (``SharedIdentifier``), no one's identity key.
    """
    all_keys = [profile.identity_keys for profile in profiles]
    lock_keys([key for keys in all_keys for key in keys])
    shared = shared_keys(all_keys)
    keys_by_doc = [[key for key in keys if key not in shared] for keys in all_keys]
    known = find_existing(keys_by_doc)
    stored = _stored_candidates(set(known.values()))
    name_of = {pk: person.values["name"] for pk, person in stored.items()}

    to_create: list[Person] = []
    to_update: dict[int, Person] = {}
    person_of: dict[tuple[str, str], Person] = {}  # identity key → its candidate (new ones have no pk yet)
    outcomes: list[tuple[Person, str, list[str]]] = []
    clashes: list[Clash] = []

    for index, (profile, keys) in enumerate(zip(profiles, keys_by_doc, strict=True)):
        values, sha = profile.values, profile.fingerprint
        name = values["name"]
        in_chunk = [(key, person_of[key]) for key in keys if key in person_of]
        person = next((p for _, p in in_chunk if not names_clearly_differ(p.values["name"], name)), None)
        clash = next(((key, p) for key, p in in_chunk if p is not person), None) if person is None else None
        if person is None:
            match, stored_clash = match_candidate(keys, known, name_of, name)
            person = stored[match] if match is not None else None
            if clash is None and stored_clash is not None:
                clash = (stored_clash[0], stored[stored_clash[1]])
        if clash is not None and clash[1] is not person:
            clashes.append(Clash(index, clash[0], clash[1]))
        if person is None:
            person = Person(None, values, sha)
            to_create.append(person)
            outcome = SourceFile.Outcome.CREATED
        elif person.pk is None:  # the same person as an earlier, new document in this chunk
            person.values, person.sha = values, sha
            outcome = SourceFile.Outcome.UPDATED
        elif person.sha == sha and person.pk not in to_update and not rebuild:
            outcome = SourceFile.Outcome.UNCHANGED
        else:
            person.values.update((field, value) for field, value in values.items() if field not in person.protected)
            person.sha = sha
            to_update[person.pk] = person
            name_of[person.pk] = person.values["name"]
            outcome = SourceFile.Outcome.UPDATED
        if clashes and clashes[-1].index == index:
            clashes[-1].person = person
        for key in keys:
            if key not in known or stored.get(known[key]) is person:  # a key another candidate holds stays theirs
                person_of.setdefault(key, person)
        outcomes.append((person, outcome, list(profile.warnings)))

    _assign_ids(to_create)
    for clash in clashes:
        outcomes[clash.index][2].append(clash_warning(clash, outcomes[clash.index][1] == SourceFile.Outcome.CREATED))
    results = [LoadResult(person.pk, outcome, warnings) for person, outcome, warnings in outcomes]
    _update_candidates(list(to_update.values()))

    # The profile that wrote a candidate last provides its children.
    writer_of: dict[int, int] = {}
    for index, result in enumerate(results):
        if result.outcome != SourceFile.Outcome.UNCHANGED:
            writer_of[result.candidate_id] = index
    written_ids = list(writer_of)
    scored_by_hand = _skills_scored_by_hand(list(to_update))
    if to_update:
        _delete_children(list(to_update))
    write_children({cid: profiles[index] for cid, index in writer_of.items()})
    _restore_skills_scored_by_hand(scored_by_hand)
    # A site two clearly different people name is nobody's from now on: the first holder loses it too.
    now_shared = {clash.key for clash in clashes if is_bare_site(clash.key)}
    # Every profile adds its person's new keys: two files of one person in one chunk leave both files' keys, as two
    # chunks would (a dict keeps the order and drops repeats).
    new_keys = {
        (result.candidate_id, kind, value): None
        for result, keys in zip(results, keys_by_doc, strict=True)
        for kind, value in keys
        if (kind, value) not in known and (kind, value) not in now_shared
    }
    _write_identifiers(list(new_keys))
    _insert_candidates(to_create)  # with their search columns, now that their skills, jobs and contributions exist
    clashes_record(clashes, now_shared)
    created = {person.pk for person in to_create}
    candidates_refresh_search_columns(candidate_ids=[cid for cid in written_ids if cid not in created])
    return results


def _stored_candidates(ids: set[int]) -> dict[int, Person]:
    if not ids:
        return {}
    with bound_cursor() as cursor:
        cursor.execute(
            f"SELECT id, document_sha256, protected_fields, {', '.join(Candidate.IMPORTED_FIELDS)} "  # noqa: S608 - fixed names
            "FROM profiles_candidate WHERE id = ANY(%b)",
            [list(ids)],
        )
        return {
            row[0]: Person(
                row[0], dict(zip(Candidate.IMPORTED_FIELDS, row[3:], strict=True)), row[1], frozenset(row[2])
            )
            for row in cursor
        }


def _assign_ids(people: list[Person]) -> None:
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


def _candidate_arrays(people: list[Person]) -> list[list]:
    """The people's ids and imported fields, one array per column of ``_UNNEST_CANDIDATES`` (array fields as JSON)."""
    rows = [{**person.values, "document_sha256": person.sha} for person in people]
    arrays: list[list] = [[person.pk for person in people]]
    for column in _CANDIDATE_COLUMN_TYPES:
        values = [row[column] for row in rows]
        arrays.append([jsonb(v) for v in values] if column in _JSON_ARRAY_COLUMNS else values)
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


def _insert_candidates(people: list[Person]) -> None:
    """Write the new candidates, search columns included, in one ``INSERT``, after their skills and contributions
    (the foreign keys are checked at commit): each row is written once, where a ``COPY`` followed by the search
    columns' ``UPDATE`` wrote it, and its 14 indexes, twice."""
    if people:
        with bound_cursor() as cursor:
            cursor.execute(_INSERT_CANDIDATES_SQL, _candidate_arrays(people))


def _update_candidates(people: list[Person]) -> None:
    """One ``UPDATE ... FROM unnest(...)`` for all updated candidates (values already respect protected fields)."""
    if people:
        with bound_cursor() as cursor:
            cursor.execute(_UPDATE_CANDIDATES_SQL, _candidate_arrays(people))


def _delete_children(candidate_ids: list[int]) -> None:
    """Updated candidates get their skills, education, jobs, languages and contributions from their newest document:
    drop the old."""
    with bound_cursor() as cursor:
        cursor.execute(
            """
            WITH skills AS (DELETE FROM profiles_candidateskill WHERE candidate_id = ANY(%(ids)b)),
            education AS (DELETE FROM profiles_education WHERE candidate_id = ANY(%(ids)b)),
            positions AS (DELETE FROM profiles_position WHERE candidate_id = ANY(%(ids)b)),
            languages AS (DELETE FROM profiles_spokenlanguage WHERE candidate_id = ANY(%(ids)b))
            DELETE FROM profiles_contribution WHERE candidate_id = ANY(%(ids)b)
            """,
            {"ids": candidate_ids},
        )


def _skills_scored_by_hand(candidate_ids: list[int]) -> list[tuple]:
    """The skill rows of these candidates whose score a recruiter set by hand (``SKILL_COLUMNS``), read before the
    candidates' children are replaced."""
    if not candidate_ids:
        return []
    with bound_cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(SKILL_COLUMNS)} FROM profiles_candidateskill "  # noqa: S608 - fixed names
            "WHERE candidate_id = ANY(%b) AND score_by_hand ORDER BY candidate_id, skill_id",
            [candidate_ids],
        )
        return cursor.fetchall()


def _restore_skills_scored_by_hand(rows: list[tuple]) -> None:
    """Put back the scores a recruiter set by hand over what the files wrote: a skill the file lists keeps the file's
    label and place with the recruiter's score; one it no longer lists keeps its whole row, as a protected field
    keeps its value."""
    if not rows:
        return
    with bound_cursor() as cursor:
        cursor.execute(
            f"INSERT INTO profiles_candidateskill ({', '.join(SKILL_COLUMNS)}, score_by_hand) "  # noqa: S608 - fixed names
            "SELECT *, true FROM unnest(%b::bigint[], %b::bigint[], %b::smallint[], %b::varchar[], %b::varchar[], "
            "%b::smallint[]) ON CONFLICT (candidate_id, skill_id) DO UPDATE "
            "SET score = excluded.score, score_by_hand = true",
            [list(column) for column in zip(*rows, strict=True)],
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
