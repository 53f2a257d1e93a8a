"""Writes of the texts parsers read out of stored binary files (``SourceFileText``): kept in the transaction that
records a file imported, deleted with the outcome of a file that failed, so that a file's page never shows the text of
an import that did not happen."""

from __future__ import annotations

from collections.abc import Mapping

from db.cursors import bound_cursor

__all__ = ["source_file_texts_forget", "source_file_texts_keep"]


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


def source_file_texts_forget(*, file_ids: list[int]) -> None:
    """Delete the texts of these files (by id): their import failed, and an earlier parse's text would read as if it
    had not."""
    if not file_ids:
        return
    with bound_cursor() as cursor:
        cursor.execute("DELETE FROM ingestion_sourcefiletext WHERE source_file_id = ANY(%s::bigint[])", [file_ids])
