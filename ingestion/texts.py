"""Writes of the texts parsers read out of stored binary files (``SourceFileText``), kept when the files are parsed."""

from __future__ import annotations

from collections.abc import Mapping

from db.cursors import bound_cursor

__all__ = ["source_file_texts_keep"]


def source_file_texts_keep(*, texts: Mapping[int, str]) -> None:
    """Keep the text read out of each of these files (by id), in place of what an earlier parse kept.

    One statement for all of them. A file emptied meanwhile (an erasure withholds its bytes, and deletes its text) gets
    none: each file's row is locked while its text is written, so an erasure either comes first and the file is
    passed over, or comes after and deletes the text with the bytes."""
    if not texts:
        return
    with bound_cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO ingestion_sourcefiletext (source_file_id, text)
            SELECT f.id, u.text
            FROM unnest(%s::bigint[], %s::text[]) AS u(id, text)
            JOIN ingestion_sourcefile f ON f.id = u.id
            WHERE f.size > 0
            ORDER BY f.id
            FOR SHARE OF f
            ON CONFLICT (source_file_id) DO UPDATE SET text = EXCLUDED.text
            """,
            [list(texts), list(texts.values())],
        )
