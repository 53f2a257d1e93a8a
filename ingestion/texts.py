"""The texts parsers read out of stored binary files (``SourceFileText``): kept in the transaction that records a file
imported, deleted with the outcome of a file that failed, so that a file's page never shows the text of an import that
did not happen; and shown in an access report beside the file's bytes (``source_files_for_access``)."""

from __future__ import annotations

import base64
from collections.abc import Mapping

from db.cursors import bound_cursor
from ingestion.documents import ParseError
from ingestion.file_budget import file_budget
from ingestion.models import SourceFile, SourceFileText
from ingestion.parsers.cv import NOT_A_CV_MESSAGE
from ingestion.parsers.registry import binary_kind, reader_text, text_is_extracted

__all__ = ["source_file_texts_forget", "source_file_texts_keep", "source_files_for_access"]

_MEDIA_TYPES = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "doc": "application/msword",
}


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


def source_files_for_access(rows: list[dict]) -> list[dict]:
    """Stored files' rows of an access report (``privacy.access_renderers``) as a person reads them: a PDF's or a
    DOCX's ``content`` as base64 with its media type (its PDF source or zip is no text to read), and beside it ``text``,
    the text the reader worked from. A text file's content is its text already.

    The text is the one kept when the file was parsed; a file parsed before texts were kept is read again on one file's
    time budget, except one whose import failed other than for being no CV (it may have failed for taking too long)."""
    kept = dict(
        SourceFileText.objects.filter(source_file_id__in=[row["id"] for row in rows]).values_list(
            "source_file_id", "text"
        )
    )
    for row in rows:
        content = row.get("content")
        data = base64.b64decode(content["base64"]) if isinstance(content, dict) else (content or "").encode()
        kind = binary_kind(data)
        if not kind:
            continue
        row["content"] = {"base64": base64.b64encode(data).decode("ascii"), "media_type": _MEDIA_TYPES[kind]}
        row["text"] = kept[row["id"]] if row["id"] in kept else _read_again(row, data)
    return rows


def _read_again(row: dict, data: bytes) -> str:
    if not text_is_extracted(data):
        return ""
    if row.get("status") == SourceFile.Status.FAILED and row.get("error") != NOT_A_CV_MESSAGE:
        return f"[No text: the import failed. {row.get('error')}]"
    try:
        with file_budget().spending():
            return reader_text(data)
    except ParseError as exc:
        return f"[No text: {exc}]"
