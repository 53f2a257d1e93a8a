"""Search every text, JSON and bytea column (arrays of text too) of every table for strings: what an erasure must
leave nowhere."""

import json

from django.db import connection

TEXT_TYPES = ("text", "character varying", "character", "json", "jsonb", "tsvector")
TEXT_ARRAYS = ("_text", "_varchar")


def text_columns() -> list[tuple[str, str, str]]:
    """(table, column, kind) of every column that can hold text: kind is "text" or "bytea"."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name, data_type, udt_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name IN "
            "(SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            "AND table_type = 'BASE TABLE') ORDER BY table_name, ordinal_position"
        )
        rows = cursor.fetchall()
    columns = []
    for table, column, data_type, udt in rows:
        if data_type == "bytea":
            columns.append((table, column, "bytea"))
        elif data_type in TEXT_TYPES or (data_type == "ARRAY" and udt in TEXT_ARRAYS):
            columns.append((table, column, "text"))
    return columns


def written_forms(needle: str) -> list[str]:
    """The needle as written, and as ``json.dumps`` writes it into a text column (non-ASCII letters as ``\\u00eb``:
    Django's admin log stores its change messages so)."""
    return list(dict.fromkeys([needle, json.dumps(needle)[1:-1]]))


def found_in_database(needles) -> list[tuple[str, str, str]]:
    """(table, column, needle) for each column holding a needle in one of its written forms, case-insensitively
    (bytes: as UTF-8, exactly)."""
    hits = []
    with connection.cursor() as cursor:
        for table, column, kind in text_columns():
            for needle in needles:
                if kind == "bytea":
                    condition = f"position(convert_to(%s, 'UTF8') in \"{column}\") > 0"
                    parameters = [needle]
                else:
                    condition = f'strpos(lower("{column}"::text), %s) > 0'
                    parameters = [form.lower() for form in written_forms(needle)]
                found = False
                for parameter in parameters:
                    cursor.execute(f'SELECT EXISTS (SELECT 1 FROM "{table}" WHERE {condition})', [parameter])
                    found = found or cursor.fetchone()[0]
                if found:
                    hits.append((table, column, needle))
    return hits
