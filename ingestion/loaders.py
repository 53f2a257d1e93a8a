"""Load normalised profiles into the database: many profiles per transaction, set-based writes, no duplicates.

The loader writes what ``ingestion.normalise`` made of each document and decides nothing about the content: the
values are already clipped, the skills mapped and deduplicated, the dates in order. What it decides is identity and
concurrency.

Identity: a profile's keys are its external identifiers (GitHub username, e-mail, LinkedIn, profile URLs) and its
normalised name with location. Keys are locked with transaction-scoped advisory locks (in sorted order, so two
workers never deadlock) before they are looked up, so two workers loading the same person give one candidate.

Writes are set-based, a few statements per chunk whatever its size: ``COPY`` for rows only this load can write (the
new candidates' skills, education, jobs, languages and contributions), ``INSERT ... SELECT FROM unnest(...)`` for the
new candidates themselves (last, with their search columns computed from those rows, so each is written once) and
where a conflict is possible (identifiers, repositories). Rows every profile shares (skills, aliases, repositories)
are best created before the chunk's transaction (``skill_labels_resolve``, ``repositories_upsert``), so concurrent
loaders do not wait for each other; those created for files that then fail are taken back after it
(``shared_rows_delete_unused``). Changes to stored shared rows (a repository's description and topics) are made in
the chunk's transaction, so that a file that fails changes none.
All go through ``bound_cursor``: Django's cursor renders every array element into the SQL text in Python, which cost
more than the statements themselves.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import orjson
import psycopg
from django.contrib.postgres.fields import ArrayField
from django.db import connection, transaction
from psycopg.types.json import Jsonb

from core.identity import identity_lock_texts, names_clearly_differ, url_parts
from ingestion.models import SourceFile
from ingestion.normalise import NormalisedProfile
from profiles.models import Candidate, CandidateIdentifier, PossibleDuplicate, SharedIdentifier, Skill
from profiles.search import candidate_insert_sql, candidates_refresh_search_columns
from profiles.services import skill_ids_for_labels, skills_upsert
from profiles.vocabulary import SkillVocabulary, skill_slug


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


def _lock_keys(keys: list[tuple[str, str]]) -> None:
    """Serialise loads of the same person across workers, and with an erasure of them, until this transaction ends;
    every form of each key (``identity_lock_texts``), so another spelling of their site or address waits too."""
    texts = identity_lock_texts(keys)
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


def _shared_keys(keys_by_doc: list[list[tuple[str, str]]]) -> set[tuple[str, str]]:
    """The keys of these documents that several people name (``SharedIdentifier``): no one's identity key."""
    sites = sorted({value for keys in keys_by_doc for kind, value in keys if kind == CandidateIdentifier.Kind.URL})
    if not sites:
        return set()
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT kind, value FROM profiles_sharedidentifier WHERE kind = %b AND value = ANY(%b::varchar[])",
            [CandidateIdentifier.Kind.URL.value, sites],
        )
        return set(cursor.fetchall())


def _match(
    keys: list[tuple[str, str]], known: dict[tuple[str, str], int], name_of: dict[int, str], name: str
) -> tuple[int | None, tuple[tuple[str, str], int] | None]:
    """The stored candidate a document with these keys and this name is, and the first external key that led to a
    candidate of a clearly different name (``core.identity.names_clearly_differ``), which the document is not.

    An external identifier (strongest first) is the person unless the names clearly differ; the name with location
    is the person unless the document names external ids of kinds the candidate has and the document's do not match
    (a namesake in the same town)."""
    clash = None
    for key in keys:
        if key[0] == CandidateIdentifier.Kind.NAME_LOCATION or key not in known:
            continue
        if not names_clearly_differ(name_of[known[key]], name):
            return known[key], None
        clash = clash or (key, known[key])
    has_external = any(k[0] != CandidateIdentifier.Kind.NAME_LOCATION for k in keys)
    name_match = known.get(keys[-1])
    if name_match is None or name_match == (clash and clash[1]):
        return None, clash
    if not has_external:
        return name_match, clash
    # The name matches, but this document names external ids the matched candidate does not have: only the same
    # person if that candidate has no external ids of those kinds either.
    kinds = {k[0] for k in keys[:-1]}
    if CandidateIdentifier.objects.filter(candidate_id=name_match, kind__in=kinds).exists():
        return None, clash
    return name_match, clash


@dataclass(slots=True)
class _Clash:
    """A file whose key led to a candidate of a clearly different name: recorded as a possible duplicate."""

    index: int  # of the profile in the chunk
    key: tuple[str, str]
    holder: _Person
    person: _Person | None = None  # the candidate the file wrote


_KEY_WORDS = {
    CandidateIdentifier.Kind.EMAIL: "the e-mail address",
    CandidateIdentifier.Kind.GITHUB: "the GitHub account",
    CandidateIdentifier.Kind.GITLAB: "the GitLab account",
    CandidateIdentifier.Kind.LINKEDIN: "the LinkedIn profile",
    CandidateIdentifier.Kind.TWITTER: "the Twitter/X handle",
    CandidateIdentifier.Kind.STACKOVERFLOW: "the Stack Overflow profile",
    CandidateIdentifier.Kind.URL: "the site",
}


def _clash_warning(clash: _Clash, created: bool) -> str:
    kind, value = clash.key
    holder, person = clash.holder, clash.person
    said = f"{_KEY_WORDS.get(kind, kind)} {value}"
    what = (
        f"imported as a new candidate, {person.values['name']}, rather than over {holder.values['name']}"
        if created
        else f"imported into {person.values['name']} (#{person.pk})"
    )
    return (
        f"This file names {said}, which is {holder.values['name']}'s (#{holder.pk}), a clearly different name from "
        f"{person.values['name']}: {what}, and the two are listed as possible duplicates."
    )


def _is_bare_site(key: tuple[str, str]) -> bool:
    """A site's own address (a domain, no path): when several people name it, it is nobody's."""
    kind, value = key
    if kind != CandidateIdentifier.Kind.URL:
        return False
    host, segments = url_parts(value)
    return bool(host) and not segments


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
    _lock_keys([key for keys in all_keys for key in keys])
    shared = _shared_keys(all_keys)
    keys_by_doc = [[key for key in keys if key not in shared] for keys in all_keys]
    known = _find_existing(keys_by_doc)
    stored = _stored_candidates(set(known.values()))
    name_of = {pk: person.values["name"] for pk, person in stored.items()}

    to_create: list[_Person] = []
    to_update: dict[int, _Person] = {}
    person_of: dict[tuple[str, str], _Person] = {}  # identity key → its candidate (new ones have no pk yet)
    outcomes: list[tuple[_Person, str, list[str]]] = []
    clashes: list[_Clash] = []

    for index, (profile, keys) in enumerate(zip(profiles, keys_by_doc, strict=True)):
        values, sha = profile.values, profile.fingerprint
        name = values["name"]
        in_chunk = [(key, person_of[key]) for key in keys if key in person_of]
        person = next((p for _, p in in_chunk if not names_clearly_differ(p.values["name"], name)), None)
        clash = next(((key, p) for key, p in in_chunk if p is not person), None) if person is None else None
        if person is None:
            match, stored_clash = _match(keys, known, name_of, name)
            person = stored[match] if match is not None else None
            if clash is None and stored_clash is not None:
                clash = (stored_clash[0], stored[stored_clash[1]])
        if clash is not None and clash[1] is not person:
            clashes.append(_Clash(index, clash[0], clash[1]))
        if person is None:
            person = _Person(None, values, sha)
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
        outcomes[clash.index][2].append(_clash_warning(clash, outcomes[clash.index][1] == SourceFile.Outcome.CREATED))
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
    _write_children({cid: profiles[index] for cid, index in writer_of.items()})
    _restore_skills_scored_by_hand(scored_by_hand)
    # A site two clearly different people name is nobody's from now on: the first holder loses it too.
    now_shared = {clash.key for clash in clashes if _is_bare_site(clash.key)}
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
    _record_clashes(clashes, now_shared)
    created = {person.pk for person in to_create}
    candidates_refresh_search_columns(candidate_ids=[cid for cid in written_ids if cid not in created])
    return results


def _record_clashes(clashes: list[_Clash], now_shared: set[tuple[str, str]]) -> None:
    """The possible duplicates the chunk's clashes found, and the sites that turned out to be several people's."""
    pairs = {(clash.holder.pk, clash.person.pk): clash.key for clash in clashes if clash.holder.pk != clash.person.pk}
    if pairs:
        PossibleDuplicate.objects.bulk_create(
            [
                PossibleDuplicate(
                    first_id=first,
                    second_id=second,
                    reason=PossibleDuplicate.Reason.NAME_DIFFERS,
                    kind=kind,
                    value=value,
                )
                for (first, second), (kind, value) in pairs.items()
            ],
            ignore_conflicts=True,
        )
    if now_shared:
        SharedIdentifier.objects.bulk_create(
            [SharedIdentifier(kind=kind, value=value) for kind, value in sorted(now_shared)], ignore_conflicts=True
        )
        for kind, value in sorted(now_shared):
            CandidateIdentifier.objects.filter(kind=kind, value=value).delete()


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
    """The skill rows of these candidates whose score a recruiter set by hand (``_SKILL_COLUMNS``), read before the
    candidates' children are replaced."""
    if not candidate_ids:
        return []
    with bound_cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(_SKILL_COLUMNS)} FROM profiles_candidateskill "  # noqa: S608 - fixed names
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
            f"INSERT INTO profiles_candidateskill ({', '.join(_SKILL_COLUMNS)}, score_by_hand) "  # noqa: S608 - fixed names
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


SKILL_LOCK_SLOTS = 256  # bounds the locks one transaction holds (a hostile file can name 20,000 new skills)


def _lock_skill_slots(slugs: Iterable[str]) -> None:
    """Creating skills locks their rows, in two statements (skills, then topics): two loaders creating overlapping
    new skills in opposite orders deadlock. Taking the locks of the new slugs (one of 256 slots each) all at once,
    sorted, first, prevents it."""
    slots = {zlib.crc32(slug.encode()) % SKILL_LOCK_SLOTS for slug in slugs}
    if slots:
        _lock_keys([("skill-slot", str(slot)) for slot in slots])


@dataclass(frozen=True, slots=True)
class ResolvedLabels:
    """A vocabulary of label keys, and the shared rows resolving them created (``shared_rows_delete_unused`` takes
    them back when the files that named them fail)."""

    vocabulary: SkillVocabulary
    created_skills: frozenset[str] = frozenset()  # slugs
    created_aliases: frozenset[str] = frozenset()  # label keys


def skill_vocabulary_resolve(*, skill_keys: set[str], topic_keys: set[str]) -> SkillVocabulary:
    """``skill_labels_resolve``'s vocabulary."""
    return skill_labels_resolve(skill_keys=skill_keys, topic_keys=topic_keys).vocabulary


@transaction.atomic(savepoint=False)
def skill_labels_resolve(*, skill_keys: set[str], topic_keys: set[str]) -> ResolvedLabels:
    """The canonical skill of each label key, as the database knows it now, creating a skill (and its alias) for
    each key it does not know: skill labels become skills, labels seen only as topics become topics.

    What ``normalise`` maps a chunk's labels through. Run it in a short transaction of its own, before the chunk's
    (``ingestion.services`` does): see ``repositories_upsert``. When every label is known already (the usual case),
    this is one query.
    """
    wanted = (skill_keys | topic_keys) - {""}
    if not wanted:
        return ResolvedLabels(SkillVocabulary())
    slugs = _alias_slugs(wanted)
    if not (new := wanted - slugs.keys()):
        return ResolvedLabels(SkillVocabulary(slugs=slugs))
    _lock_skill_slots(skill_slug(key) for key in new)
    # Under the locks, whatever is still missing is this call's to create: another loader creating the same skills
    # holds the same locks. (A new alias may lead to a skill that exists: "c++" to cpp.)
    new -= _alias_slugs(new).keys()
    existing = _existing_slugs({skill_slug(key) for key in new})
    skill_ids_for_labels(label_keys=skill_keys & new)
    skill_ids_for_labels(label_keys=(topic_keys & new) - skill_keys, default_kind=Skill.Kind.TOPIC)
    slugs.update(_alias_slugs(wanted - slugs.keys()))
    return ResolvedLabels(
        SkillVocabulary(slugs=slugs),
        created_skills=frozenset({skill_slug(key) for key in new} - existing),
        created_aliases=frozenset(new),
    )


def _existing_slugs(slugs: set[str]) -> set[str]:
    with bound_cursor() as cursor:
        cursor.execute("SELECT slug FROM profiles_skill WHERE slug = ANY(%b::varchar[])", [sorted(slugs)])
        return {row[0] for row in cursor.fetchall()}


@transaction.atomic(savepoint=False)
def shared_rows_delete_unused(
    *, skill_slugs: Iterable[str], alias_labels: Iterable[str], repository_names: Iterable[str]
) -> None:
    """Take back shared rows an import created for files that then failed: of these repositories, those no
    contribution names; of these skills, those no candidate and no repository's topics name (with their aliases);
    and these aliases. Run it in a short transaction of its own, after the chunk's.

    A row another loader is using is left alone: a repository or skill a committed row references, or that a
    loader's chunk has read (``_skill_ids`` and ``_upsert_repositories`` lock what they read FOR KEY SHARE until
    commit, which this skips), is kept; an alias that goes is created again by the next file that names it. A loader
    that reads a row while this deletes it waits, finds it gone and creates it again.
    """
    names, slugs, labels = sorted(set(repository_names)), sorted(set(skill_slugs)), sorted(set(alias_labels))
    # First, before any row lock: no loader creates these skills meanwhile, and this transaction never waits for a
    # lock while it holds one (a loader that locked a skill slot in its chunk may then wait for a repository's row).
    _lock_skill_slots([*slugs, *(skill_slug(label) for label in labels)])
    with bound_cursor() as cursor:
        if names:  # first, so that their topics no longer hold the skills below
            cursor.execute(
                """
                DELETE FROM profiles_repository WHERE id IN (
                    SELECT r.id FROM profiles_repository r
                    WHERE r.full_name = ANY(%b::varchar[])
                        AND NOT EXISTS (SELECT FROM profiles_contribution c WHERE c.repository_id = r.id)
                    ORDER BY r.full_name
                    FOR UPDATE SKIP LOCKED
                )
                """,
                [names],
            )
        if not (slugs or labels):
            return
        cursor.execute(
            """
            WITH unused AS (
                SELECT s.id FROM profiles_skill s
                WHERE s.slug = ANY(%(slugs)b::varchar[])
                    AND NOT EXISTS (SELECT FROM profiles_candidateskill cs WHERE cs.skill_id = s.id)
                    AND NOT EXISTS (SELECT FROM profiles_repository r WHERE r.topic_slugs @> ARRAY[s.slug]::varchar[])
                ORDER BY s.slug
                FOR UPDATE OF s SKIP LOCKED
            ),
            aliases AS (  -- a kept skill keeps the alias of its own slug
                DELETE FROM profiles_skillalias a USING profiles_skill s
                WHERE s.id = a.skill_id AND (
                    s.id IN (SELECT id FROM unused) OR (a.label = ANY(%(labels)b::varchar[]) AND a.label <> s.slug)
                )
            )
            DELETE FROM profiles_skill WHERE id IN (SELECT id FROM unused)
            """,
            {"slugs": slugs, "labels": labels},
        )


def _alias_slugs(keys: set[str]) -> dict[str, str]:
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT a.label, s.slug FROM profiles_skillalias a JOIN profiles_skill s ON s.id = a.skill_id "
            "WHERE a.label = ANY(%b::varchar[])",
            [sorted(keys)],
        )
        return dict(cursor.fetchall())


def _skill_ids(profiles: Iterable[NormalisedProfile]) -> dict[str, int]:
    """The id of every skill these profiles name, by slug; a skill missing from the database (its vocabulary was an
    older copy, or ``skill_vocabulary_resolve`` was skipped) is created with its alias first.

    Every one of them, and the skills their repositories' topics name, is locked FOR KEY SHARE until the chunk
    commits, as the foreign-key checks at commit would lock them: no loader waits for that lock, and a take-back of
    another import's failed file (``shared_rows_delete_unused``, FOR UPDATE SKIP LOCKED) leaves these rows alone,
    where a plain read let it delete a skill in between and this chunk fail on the foreign key."""
    wanted = {skill.slug: skill for profile in profiles for skill in profile.skills}
    topics = {slug for profile in profiles for c in profile.contributions for slug in c.topic_slugs}
    if not (wanted or topics):
        return {}
    ids = _skill_ids_locked(wanted.keys() | topics)
    if missing := [wanted[slug] for slug in wanted if slug not in ids]:
        _lock_skill_slots(skill.slug for skill in missing)
        skills_upsert(
            skills=[(skill.slug, skill.name, skill.kind) for skill in missing],
            aliases=[(skill.label_key, skill.slug) for skill in missing],
        )
        ids.update(_skill_ids_locked(skill.slug for skill in missing))
    return ids


def _skill_ids_locked(slugs: Iterable[str]) -> dict[str, int]:
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT slug, id FROM profiles_skill WHERE slug = ANY(%b::varchar[]) FOR KEY SHARE", [sorted(slugs)]
        )
        return dict(cursor.fetchall())


_SKILL_COLUMNS = ("candidate_id", "skill_id", "score", "label", "section", "position")
_EDUCATION_COLUMNS = ("candidate_id", "position", "degree", "field", "minor", "school", "start", '"end"')
_POSITION_COLUMNS = (
    "candidate_id",
    '"order"',
    "company",
    "title",
    "location",
    "start",
    '"end"',
    "is_current",
    "summary",
    "highlights",
    "url",
)
_LANGUAGE_COLUMNS = ("candidate_id", "position", "code", "name", "fluency", "raw")
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


@transaction.atomic(savepoint=False)
def repositories_upsert(profiles: list[NormalisedProfile]) -> set[str]:
    """Create the repositories these profiles name that are not stored yet; returns the names of those it created.
    Run it in a short transaction of its own, before the chunk's (``ingestion.services`` does); ``load_profiles`` then
    refreshes stored ones, in the chunk's transaction, so that a file that fails changes none.

    Rows that every profile shares (repositories here, skills in ``skill_vocabulary_resolve``): when two workers'
    chunks name the same new skill or repository, the second waits for the first to commit, and inside a chunk's
    transaction that is the whole chunk, each waiting for rows the other inserted: a deadlock
    (tests/reliability/test_concurrent_loads.py). Done first, the wait is one statement long. Rows created for files
    that then fail are taken back by ``shared_rows_delete_unused``. ``load_profiles`` still creates whatever this
    step did not (a caller that skips it just waits longer).
    """
    return _insert_new_repositories(profiles)


def _write_children(profile_by_candidate: dict[int, NormalisedProfile]) -> None:
    if not profile_by_candidate:
        return
    skill_ids = _skill_ids(profile_by_candidate.values())
    _copy(
        "profiles_candidateskill",
        _SKILL_COLUMNS,
        [
            (cid, skill_ids[s.slug], s.score, s.label, s.section, s.position)
            for cid, profile in profile_by_candidate.items()
            for s in profile.skills
        ],
    )
    _copy(
        "profiles_education",
        _EDUCATION_COLUMNS,
        [
            (cid, e.position, e.degree, e.field, e.minor, e.school, e.start, e.end)
            for cid, profile in profile_by_candidate.items()
            for e in profile.education
        ],
    )
    _copy(
        "profiles_position",
        _POSITION_COLUMNS,
        [
            (cid, p.order, p.company, p.title, p.location, p.start, p.end, p.is_current, p.summary, p.highlights, p.url)
            for cid, profile in profile_by_candidate.items()
            for p in profile.positions
        ],
    )
    _copy(
        "profiles_spokenlanguage",
        _LANGUAGE_COLUMNS,
        [
            (cid, lang.position, lang.code, lang.name, lang.fluency, lang.raw)
            for cid, profile in profile_by_candidate.items()
            for lang in profile.languages
        ],
    )
    repo_ids = _upsert_repositories(profile_by_candidate.values())
    _copy(
        "profiles_contribution",
        _CONTRIBUTION_COLUMNS,
        [
            (
                cid,
                repo_ids[c.repository],
                c.position,
                c.role,
                c.commits,
                c.comments,
                c.start,
                c.end,
                c.is_current,
                c.active_months,
                c.summary,
            )
            for cid, profile in profile_by_candidate.items()
            for c in profile.contributions
        ],
    )


def _wanted_repositories(profiles: Iterable[NormalisedProfile]) -> tuple[list[str], Jsonb | None]:
    """The repositories these profiles name, sorted (so concurrent loaders lock rows in the same order), and what they
    say of them as one JSON document, dumped by orjson in one call: rows of [name, description, topics, canonical
    slugs, topics as written]. (As five array parameters, with the ragged topics as one JSON value each, psycopg
    dumped every element in Python: more CPU than the statement itself.)

    A repository keeps what files said of it: a later file replaces its description, or its topics, only when it
    gives them (files often leave a repository's description out)."""
    descriptions: dict[str, str] = {}
    topics: dict[str, tuple[list[str], list[str], str]] = {}  # name → (topics, canonical slugs, topics as written)
    for profile in profiles:
        for c in profile.contributions:
            name = c.repository
            if c.repository_description or name not in descriptions:
                descriptions[name] = c.repository_description
            if c.topics or name not in topics:
                topics[name] = (c.topics, c.topic_slugs, c.topics_raw)
    if not descriptions:
        return [], None
    names = sorted(descriptions)
    return names, _jsonb([[name, descriptions[name], *topics[name]] for name in names])


_WANTED_REPOSITORIES_SQL = """
    SELECT w->>0 AS n, w->>1 AS d, ARRAY(SELECT jsonb_array_elements_text(w->2))::varchar[] AS t,
        ARRAY(SELECT jsonb_array_elements_text(w->3))::varchar[] AS s, w->>4 AS r
    FROM jsonb_array_elements(%(wanted)b) AS u(w)
"""


def _insert_new_repositories(profiles: Iterable[NormalisedProfile]) -> set[str]:
    """Insert the repositories these profiles name that are not stored yet; stored ones are left as they are (the
    chunk's transaction refreshes them: ``_upsert_repositories``). Returns the names of those it inserted."""
    names, wanted = _wanted_repositories(profiles)
    if not names:
        return set()
    with bound_cursor() as cursor:
        cursor.execute(
            f"""
            WITH wanted AS ({_WANTED_REPOSITORIES_SQL})
            INSERT INTO profiles_repository (full_name, description, topics, topic_slugs, topics_raw)
            SELECT n, d, t, s, r FROM wanted
            WHERE NOT EXISTS (SELECT FROM profiles_repository p WHERE p.full_name = wanted.n)
            ORDER BY n
            ON CONFLICT (full_name) DO NOTHING
            RETURNING full_name
            """,  # noqa: S608 - a fixed fragment, no value
            {"wanted": wanted},
        )
        return {row[0] for row in cursor.fetchall()}


# Inside the chunk's transaction. Every stored repository named is locked FOR KEY SHARE (``locked``), which no loader
# waits for (it conflicts only with FOR UPDATE and DELETE): a take-back of another import's failed file
# (``shared_rows_delete_unused``, FOR UPDATE SKIP LOCKED) then leaves it alone until this chunk commits its
# contributions to it, where a plain read let it delete the row in between and this chunk fail on the foreign key.
_UPSERT_REPOSITORIES_SQL = f"""
    WITH wanted AS ({_WANTED_REPOSITORIES_SQL}),
    locked AS (
        SELECT p.full_name, p.id FROM profiles_repository p WHERE p.full_name = ANY(ARRAY(SELECT n FROM wanted))
        FOR KEY SHARE OF p
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
    ),
    inserted AS (  -- what the step before the chunk did not insert (a caller that skipped it, a row taken back since)
        INSERT INTO profiles_repository (full_name, description, topics, topic_slugs, topics_raw)
        SELECT n, d, t, s, r FROM wanted
        WHERE NOT EXISTS (SELECT FROM profiles_repository p WHERE p.full_name = wanted.n)
        ON CONFLICT (full_name) DO NOTHING
        RETURNING full_name, id
    )
    SELECT full_name, id FROM locked
    UNION ALL
    SELECT full_name, id FROM inserted
"""  # noqa: S608 - fixed fragments, no value


def _upsert_repositories(profiles: Iterable[NormalisedProfile]) -> dict[str, int]:
    """Refresh the stored repositories these profiles name and insert missing ones, in the chunk's transaction (a
    file that then fails leaves them as they were); return their ids, every row locked until commit.

    Only changed rows are written, and so locked against other writers: an ``INSERT ... ON CONFLICT DO UPDATE`` locks
    every row it meets, changed or not, and every loader names the popular repositories, so concurrent chunks queued
    behind each other.
    """
    names, wanted = _wanted_repositories(profiles)
    ids: dict[str, int] = {}
    # A row another load inserted, or a take-back deleted, after the statement's snapshot is in neither part: the
    # statement runs again for those (a second round is rare, a third rarer still).
    for _ in range(3):
        if not names:
            break
        with bound_cursor() as cursor:
            cursor.execute(_UPSERT_REPOSITORIES_SQL, {"wanted": wanted})
            ids.update(cursor.fetchall())
        wanted_rows = [row for row in wanted.obj if row[0] not in ids]
        names, wanted = [row[0] for row in wanted_rows], _jsonb(wanted_rows)
    return ids


def preview_outcomes(profiles: list[NormalisedProfile]) -> dict[str, int]:
    """What loading these profiles would do (created / updated / unchanged), reading only."""
    all_keys = [profile.identity_keys for profile in profiles]
    shared = _shared_keys(all_keys)
    keys_by_doc = [[key for key in keys if key not in shared] for keys in all_keys]
    known = _find_existing(keys_by_doc)
    stored = dict(Candidate.objects.filter(pk__in=set(known.values())).values_list("pk", "document_sha256"))
    name_of = dict(Candidate.objects.filter(pk__in=stored.keys()).values_list("pk", "name"))
    counts = {SourceFile.Outcome.CREATED: 0, SourceFile.Outcome.UPDATED: 0, SourceFile.Outcome.UNCHANGED: 0}
    for profile, keys in zip(profiles, keys_by_doc, strict=True):
        target, _ = _match(keys, known, name_of, profile.values["name"])
        if target is None:
            counts[SourceFile.Outcome.CREATED] += 1
        elif stored.get(target) == profile.fingerprint:
            counts[SourceFile.Outcome.UNCHANGED] += 1
        else:
            counts[SourceFile.Outcome.UPDATED] += 1
    return counts
