"""The import's tasks by name, for its services to queue once the transaction commits (``db.queueing``)."""

from __future__ import annotations

__all__ = ["DELETE_INBOX_COPIES", "IMPORT_FILES", "REBUILD_FILES"]

IMPORT_FILES = "ingestion.tasks.import_files"
REBUILD_FILES = "ingestion.tasks.rebuild_files"
DELETE_INBOX_COPIES = "ingestion.tasks.delete_inbox_copies"
