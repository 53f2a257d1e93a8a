"""A database of N synthetic candidates for benchmarks, loaded with COPY and reused across runs.

    from bench.dataset import ensure_dataset
    url = ensure_dataset(1_000_000)          # before anything else touches Django: it sets Django up on that database

The database is ``talentdb_bench_<count>`` on the server of ``DATABASE_URL`` (or the embedded one), migrated and seeded
with the skill vocabulary. Profiles come from ``devtools.synthetic.generate_documents(count, seed=...)`` and are
written the way ``ingestion.loaders`` writes them (canonical skills through aliases, one row per skill with the higher
score winning, contributions per repository, repositories with canonical topic slugs), but as tab-separated rows
streamed into PostgreSQL's COPY. Then one UPDATE per id range builds the search vectors (with the loader's own SQL),
and VACUUM ANALYZE leaves statistics and visibility maps as a long-running database has them. A marker table records a
finished load, so the next run reuses it.

Not loaded: identifiers, source files and history rows (no benchmarked page reads them).
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from random import Random

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench import _django  # noqa: E402

MARKER_TABLE = "bench_dataset"
TABLES = [
    "profiles_candidate",
    "profiles_candidateskill",
    "profiles_education",
    "profiles_repository",
    "profiles_contribution",
]
# The moment the synthetic world's updates spread back from (fixed, so a seed always gives the same rows).
_EPOCH = dt.datetime(2025, 6, 30, tzinfo=dt.UTC)


def database_name(count: int) -> str:
    return f"talentdb_bench_{count}"


def ensure_dataset(count: int, *, seed: int = 1) -> str:
    """Create (or reuse) the benchmark database of ``count`` candidates and set Django up on it; returns its URL.

    Call it before Django is set up. Loading a million candidates takes a few minutes; later calls return at once.
    """
    name = database_name(count)
    from django.conf import settings

    if settings.configured:
        configured = settings.DATABASES["default"]["NAME"]
        if configured != name:
            raise RuntimeError(f"Django is already set up on {configured!r}; call ensure_dataset() first.")
        url = os.environ["DATABASE_URL"]
    else:
        url = _django.setup(name)
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {MARKER_TABLE} (count integer, seed integer, loaded_at timestamptz, "
            "seconds double precision)"
        )
        cursor.execute(f"SELECT seconds FROM {MARKER_TABLE} WHERE count = %s AND seed = %s", [count, seed])
        if cursor.fetchone():
            return url
    started = time.perf_counter()
    call_command("seed_skills", stdout=open(os.devnull, "w"))  # noqa: SIM115
    _load(count, seed)
    seconds = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {MARKER_TABLE}")
        cursor.execute(f"INSERT INTO {MARKER_TABLE} VALUES (%s, %s, now(), %s)", [count, seed, seconds])
    print(f"loaded {count:,} candidates into {name} in {seconds:.0f} s", file=sys.stderr)
    return url


# --- Rows ----------------------------------------------------------------------------------------------------------

_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _text(value: str) -> str:
    """A value in COPY's text format."""
    return value.translate(_ESCAPES)


def _array(values: list[str]) -> str:
    """A PostgreSQL array literal of strings, escaped for COPY."""
    quoted = ('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values)
    return _text("{" + ",".join(quoted) + "}")


def _nullable(value) -> str:
    return "\\N" if value is None else str(value)


def _month(value: str | None) -> dt.date | None:
    if not value:
        return None
    year, month = value.split("-")[:2]
    return dt.date(int(year), int(month), 1)


class _SkillResolver:
    """Label keys → canonical skill ids (creating skills for new labels, as the loader does), cached."""

    def __init__(self):
        self.ids: dict[str, int] = {}
        self.slugs: dict[int, str] = {}

    def resolve(self, keys: set[str], default_kind: str) -> None:
        from profiles.models import Skill
        from profiles.services import skill_ids_for_labels

        missing = keys - self.ids.keys()
        if missing:
            found = skill_ids_for_labels(label_keys=missing, default_kind=default_kind)
            self.ids.update(found)
            self.slugs.update(Skill.objects.filter(pk__in=set(found.values())).values_list("pk", "slug"))


def _write_rows(count: int, seed: int, folder: Path) -> dict[str, Path]:
    """Generate the documents and write one COPY file per table; returns table → file."""
    from core.labels import label_key as normalise_label
    from devtools.synthetic import generate_documents
    from profiles.models import CandidateSkill, Skill

    label_keys: dict[str, str] = {}

    def label_key(label: str) -> str:  # labels repeat millions of times; normalise each once
        key = label_keys.get(label)
        if key is None:
            key = label_keys[label] = normalise_label(label)
        return key

    files = {table: folder / f"{table}.tsv" for table in TABLES}
    out = {table: path.open("w", encoding="utf-8") for table, path in files.items()}
    resolver = _SkillResolver()
    repositories: dict[str, tuple[int, str]] = {}  # full_name → (id, row)
    rnd = Random(seed)
    skill_id = education_id = contribution_id = 0
    chunk: list = []

    def flush(chunk: list, first_id: int) -> None:
        nonlocal skill_id, education_id, contribution_id
        resolver.resolve(
            {label_key(e.label) for doc in chunk for e in (*doc.skills, *doc.programming_languages)}, Skill.Kind.SKILL
        )
        resolver.resolve({label_key(t) for doc in chunk for c in doc.contributions for t in c.topics}, Skill.Kind.TOPIC)
        for offset, doc in enumerate(chunk):
            cid = first_id + offset
            updated = _EPOCH - dt.timedelta(seconds=rnd.randrange(2 * 365 * 86400))
            loc = doc.location
            out["profiles_candidate"].write(
                "\t".join(
                    [
                        str(cid),
                        _text(doc.name),
                        _text(doc.headline),
                        _text(doc.title),
                        _text(doc.company),
                        _text(loc.city),
                        _text(loc.region),
                        _text(loc.country),
                        loc.country_code,
                        _text(doc.summary),
                        _array(doc.badges),
                        _nullable(doc.years_coding),
                        _nullable(doc.years_employed),
                        _array(doc.spoken_languages),
                        _text(doc.email),
                        _text(doc.website),
                        _nullable(doc.skills_declared),
                        _nullable(doc.programming_languages_declared),
                        _nullable(doc.contributions_declared),
                        "{}",
                        "",
                        updated.isoformat(),
                        updated.isoformat(),
                    ]
                )
                + "\n"
            )
            best: dict[int, list] = {}
            sections = (
                (CandidateSkill.Section.SKILL, doc.skills),
                (CandidateSkill.Section.LANGUAGE, doc.programming_languages),
            )
            for section, entries in sections:
                for entry in entries:
                    sid = resolver.ids[label_key(entry.label)]
                    row = best.get(sid)
                    if row is None:
                        best[sid] = [entry.score, entry.label[:200], section, len(best)]
                    elif entry.score > row[0]:  # two labels of one skill: the higher score wins
                        row[0], row[1] = entry.score, entry.label[:200]
            for sid, (score, label, section, position) in best.items():
                skill_id += 1
                out["profiles_candidateskill"].write(
                    f"{skill_id}\t{score}\t{_text(label)}\t{section}\t{position}\t{cid}\t{sid}\n"
                )
            for position, e in enumerate(doc.education):
                education_id += 1
                out["profiles_education"].write(
                    f"{education_id}\t{position}\t{_text(e.degree)}\t{_text(e.field)}\t{_text(e.minor)}\t"
                    f"{_text(e.school)}\t{cid}\n"
                )
            seen: set[str] = set()
            for position, c in enumerate(doc.contributions):
                if c.repository in seen:
                    continue
                seen.add(c.repository)
                if c.repository not in repositories:
                    slugs = sorted({resolver.slugs[resolver.ids[label_key(t)]] for t in c.topics})
                    rid = len(repositories) + 1
                    repositories[c.repository] = (
                        rid,
                        f"{rid}\t{_text(c.repository)}\t{_text(c.repository_description)}\t{_array(c.topics)}\t"
                        f"{_array(slugs)}\t{_text(c.topics_raw[:1000])}\n",
                    )
                start, end = _month(c.start), _month(c.end)
                if start and end and end < start:
                    start, end = end, start
                contribution_id += 1
                out["profiles_contribution"].write(
                    f"{contribution_id}\t{position}\t{_text(c.role)}\t{c.commits}\t{c.comments}\t"
                    f"{_nullable(start)}\t{_nullable(end)}\t{'t' if c.is_current else 'f'}\t"
                    f"{_nullable(c.active_months)}\t{_text(c.summary)}\t{cid}\t{repositories[c.repository][0]}\n"
                )

    first = 1
    for index, doc in enumerate(generate_documents(count, seed=seed), start=1):
        chunk.append(doc)
        if len(chunk) == 10_000:
            flush(chunk, first)
            first, chunk = index + 1, []
            if index % 100_000 == 0:
                print(f"  generated {index:,}", file=sys.stderr)
    if chunk:
        flush(chunk, first)
    out["profiles_repository"].writelines(row for _, row in repositories.values())
    for handle in out.values():
        handle.close()
    return files


_COLUMNS = {
    "profiles_candidate": (
        "id, name, headline, title, company, city, region, country, country_code, summary, badges, years_coding, "
        "years_employed, spoken_languages, email, website, skills_declared, programming_languages_declared, "
        "contributions_declared, protected_fields, document_sha256, created_at, updated_at"
    ),
    "profiles_candidateskill": "id, score, label, section, position, candidate_id, skill_id",
    "profiles_education": "id, position, degree, field, minor, school, candidate_id",
    "profiles_repository": "id, full_name, description, topics, topic_slugs, topics_raw",
    "profiles_contribution": (
        'id, position, role, commits, comments, start, "end", is_current, active_months, summary, candidate_id, '
        "repository_id"
    ),
}


def _load(count: int, seed: int) -> None:
    from django.db import connection

    with tempfile.TemporaryDirectory(prefix="talentdb-bench-") as folder:
        started = time.perf_counter()
        files = _write_rows(count, seed, Path(folder))
        print(f"  rows written in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        with connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {', '.join(TABLES)} CASCADE")
        # Plain indexes are built once, after the rows and the search vectors are in: far faster than maintaining
        # them row by row. Primary keys and unique constraints stay.
        indexes = _drop_plain_indexes()
        _copy(files)
    _analyze()  # the vector UPDATE looks candidates up by id: it needs to know the table is large
    _build_search_vectors(count)
    _create_indexes(indexes)
    _vacuum_analyze()


def _drop_plain_indexes() -> list[str]:
    """Drop the indexes of the loaded tables that back no constraint; returns their definitions."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT i.indexname, i.indexdef FROM pg_indexes i
            WHERE i.schemaname = current_schema() AND i.tablename = ANY(%s)
              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)
            """,
            [TABLES],
        )
        indexes = cursor.fetchall()
        for name, _ in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
    return [definition for _, definition in indexes]


def _copy(files: dict[str, Path]) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        # Foreign keys are not checked row by row: the rows are generated consistent.
        cursor.execute("SET session_replication_role = replica")
        for table in ["profiles_repository", *TABLES[:3], "profiles_contribution"]:
            started = time.perf_counter()
            copy_sql = f"COPY {table} ({_COLUMNS[table]}) FROM STDIN"
            with cursor.cursor.copy(copy_sql) as copy, files[table].open("rb") as source:
                while block := source.read(1 << 20):
                    copy.write(block)
            print(f"  COPY {table} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        cursor.execute("SET session_replication_role = DEFAULT")
        for table in TABLES:
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 1)) FROM {table}")


def _create_indexes(definitions: list[str]) -> None:
    from django.db import connection

    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '1GB'")
        for definition in definitions:
            cursor.execute(definition)
    print(f"  indexes built in {time.perf_counter() - started:.0f} s", file=sys.stderr)


def _analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"ANALYZE {table}")


def _vacuum_analyze() -> None:
    """What a long-running database has: statistics, and visibility maps for index-only scans."""
    from django.db import connection

    started = time.perf_counter()
    with connection.cursor() as cursor:
        # The skill vocabulary too: seeded by a migration, it is too small for autovacuum to analyse it soon, and a
        # never-analysed table is planned as ~110 rows (it has ~1,200), which picks hash joins over the whole table.
        for table in [*TABLES, "profiles_skill", "profiles_skillalias"]:
            cursor.execute(f"VACUUM (ANALYZE) {table}")
    print(f"  VACUUM ANALYZE in {time.perf_counter() - started:.0f} s", file=sys.stderr)


def _build_search_vectors(count: int, workers: int = 2) -> None:
    """The loader's search-vector UPDATE over id ranges, a few connections in parallel."""
    from django.db import connection, connections

    from profiles.search import SEARCH_COLUMNS_SQL

    started = time.perf_counter()
    step = 20_000
    ranges = [list(range(low, min(low + step, count + 1))) for low in range(1, count + 1, step)]
    lock = threading.Lock()

    def work() -> None:
        try:
            while True:
                with lock:
                    if not ranges:
                        return
                    ids = ranges.pop()
                with connection.cursor() as cursor:
                    cursor.execute(SEARCH_COLUMNS_SQL, [ids])
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"  search vectors in {time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Create or reuse a benchmark database of synthetic candidates.")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    print(ensure_dataset(arguments.count, seed=arguments.seed))
