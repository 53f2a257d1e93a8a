"""Bytes per candidate: the size of every table and index of a database, divided by its candidates.

    .venv/bin/python bench/sizes.py --database talentdb_bench_1000000 [--indexes] [--markdown] [--exact]

Reads one database on the server of ``DATABASE_URL`` (or the embedded one) and writes nothing: for each table of the
public schema its rows (the planner's ``reltuples``, exact with ``--exact`` or when the table was never analysed), its
heap (``pg_relation_size``, the main fork), its TOAST (the TOAST table with its index), its indexes
(``pg_indexes_size``) and its total (``pg_total_relation_size``, which adds the free-space and visibility maps), each
also in bytes per candidate (``profiles_candidate``'s rows) and per row. ``--indexes`` lists every index too. The
capacity plan (``docs/scaling.md``) multiplies these figures out to 10 and 100 million candidates.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CANDIDATE_TABLE = "profiles_candidate"

_TABLES_SQL = """
    SELECT c.relname, c.reltuples::bigint, pg_relation_size(c.oid),
           COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0),
           pg_indexes_size(c.oid), pg_total_relation_size(c.oid)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'm')
    ORDER BY pg_total_relation_size(c.oid) DESC, c.relname
"""
_INDEXES_SQL = """
    SELECT ic.relname, t.relname, am.amname, pg_relation_size(ic.oid)
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    JOIN pg_am am ON am.oid = ic.relam
    WHERE n.nspname = 'public'
    ORDER BY pg_relation_size(ic.oid) DESC, ic.relname
"""


@dataclass(frozen=True)
class TableSize:
    name: str
    rows: int
    heap: int
    toast: int
    indexes: int
    total: int


@dataclass(frozen=True)
class IndexSize:
    name: str
    table: str
    method: str
    size: int


def table_sizes(cursor, *, exact: bool = False) -> list[TableSize]:
    """Every table of the public schema, largest first; rows counted when asked or when never analysed."""
    cursor.execute(_TABLES_SQL)
    tables = []
    for name, rows, heap, toast, indexes, total in cursor.fetchall():
        if exact or rows < 0:  # reltuples is -1 until the first VACUUM or ANALYZE
            cursor.execute(f'SELECT count(*) FROM "{name}"')
            rows = cursor.fetchone()[0]
        tables.append(TableSize(name, rows, heap, toast, indexes, total))
    return tables


def index_sizes(cursor) -> list[IndexSize]:
    cursor.execute(_INDEXES_SQL)
    return [IndexSize(*row) for row in cursor.fetchall()]


def candidate_count(cursor) -> int:
    cursor.execute(f"SELECT count(*) FROM {CANDIDATE_TABLE}")
    return cursor.fetchone()[0]


def human(size: float) -> str:
    """Binary units, as the README writes sizes (KiB, MiB, GiB)."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(size) < 1024 or unit == "TiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def per(size: float, count: int) -> str:
    if not count:
        return "-"
    value = size / count
    return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def report(
    tables: list[TableSize], indexes: list[IndexSize], *, candidates: int, min_bytes: int = 0, markdown: bool = False
) -> str:
    """The tables (and indexes, when given) as text or Markdown; relations under ``min_bytes`` summed in one line."""
    header = ["relation", "rows", "rows/cand", "heap", "toast", "indexes", "total", "B/cand", "B/row"]
    body = []
    small = [t for t in tables if t.total < min_bytes]
    for t in tables:
        if t.total < min_bytes:
            continue
        body.append(
            [
                t.name,
                f"{t.rows:,}",
                per(t.rows, candidates),
                human(t.heap),
                human(t.toast),
                human(t.indexes),
                human(t.total),
                per(t.total, candidates),
                per(t.total, t.rows),
            ]
        )
    if small:
        total = sum(t.total for t in small)
        body.append([f"({len(small)} smaller tables)", "", "", "", "", "", human(total), per(total, candidates), ""])
    everything = sum(t.total for t in tables)
    body.append(
        [
            "all tables",
            "",
            "",
            human(sum(t.heap for t in tables)),
            human(sum(t.toast for t in tables)),
            human(sum(t.indexes for t in tables)),
            human(everything),
            per(everything, candidates),
            "",
        ]
    )
    parts = [f"{candidates:,} candidates", _table(header, body, markdown=markdown)]
    if indexes:
        rows = [
            [i.name, i.table, i.method, human(i.size), per(i.size, candidates)] for i in indexes if i.size >= min_bytes
        ]
        parts.append(_table(["index", "table", "method", "size", "B/cand"], rows, markdown=markdown))
    return "\n\n".join(parts) + "\n"


def _table(header: list[str], rows: list[list[str]], *, markdown: bool) -> str:
    if markdown:
        rule = "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"
        lines = ["| " + " | ".join(header) + " |", rule]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _url(database: str) -> str:
    from bench._django import _with_database

    base = os.environ.get("DATABASE_URL")
    if not base:
        from talentdb import embedded

        embedded.start()
        base = embedded.postgres_url(embedded.var_dir())
    return _with_database(base, database) if database else base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default="", help="database name on DATABASE_URL's server (default: its own)")
    parser.add_argument("--indexes", action="store_true", help="list every index too")
    parser.add_argument("--exact", action="store_true", help="count rows with count(*) instead of reltuples")
    parser.add_argument("--markdown", action="store_true", help="Markdown tables, for docs/scaling.md")
    parser.add_argument("--min-kib", type=int, default=64, help="sum relations smaller than this in one line")
    args = parser.parse_args()

    import psycopg

    with psycopg.connect(_url(args.database), autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = on")
        with conn.cursor() as cursor:
            candidates = candidate_count(cursor)
            tables = table_sizes(cursor, exact=args.exact)
            indexes = index_sizes(cursor) if args.indexes else []
            cursor.execute(
                "SELECT current_database(), pg_database_size(current_database()), current_setting('shared_buffers')"
            )
            name, size, shared_buffers = cursor.fetchone()
    print(f"{name}: {human(size)} on disk; shared_buffers {shared_buffers}")
    print(report(tables, indexes, candidates=candidates, min_bytes=args.min_kib * 1024, markdown=args.markdown))


if __name__ == "__main__":
    main()
