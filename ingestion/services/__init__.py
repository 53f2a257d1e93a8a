"""Writes of the ingestion pipeline, by what they hold:

- ``outcomes``: what every path shares about a file's outcome (the claimed file, a chunk's summary, the errors that
  fail one file, the import's transaction, each file's outcome and its batch's end recorded);
- ``receiving``: a batch made and its files stored once and queued;
- ``folders``: regular files read from folders, and the inbox scanned;
- ``importing``: the pipeline (claim, parse, normalise, load), its load step passed in;
- ``shared_rows``: the skills, aliases and repositories every profile shares, created before a chunk and taken back
  after its failed files;
- ``recovery``: files a lost message or a killed worker left behind, queued again;
- ``rebuilding``: candidates rebuilt from their stored files (``manage.py reparse --all``).

State machine of a SourceFile: PENDING → PROCESSING → IMPORTED | UNCHANGED | FAILED. Workers claim files with a
compare-and-set UPDATE, so re-delivered or duplicated task messages never import a file twice. Every public name is
importable from ``ingestion.services`` as before the split.
"""

from ingestion.services.folders import (
    NotARegularFile,
    inbox_scan,
    iter_folder,
    printable_path,
    regular_file_read,
)
from ingestion.services.importing import (
    LoadStep,
    chunk_load,
    document_normalise,
    document_parse,
    document_read,
    documents_load,
    files_import,
    refuse_erased_meanwhile,
    source_files_claim,
    source_files_import,
)
from ingestion.services.outcomes import (
    MAX_ATTEMPTS,
    SAVE_ERRORS,
    ClaimedFile,
    ImportSummary,
    batch_finish_if_done,
    batch_progress,
    batch_summary,
    database_message,
    failure_rows,
    finish_files,
    import_transaction,
    result_rows,
    sourcing_record,
)
from ingestion.services.rebuilding import (
    REBUILD_TOKEN_PREFIX,
    files_leave_as_they_were,
    rebuild_chunks,
    rebuild_totals,
    source_files_rebuild,
    source_files_rebuild_enqueue,
)
from ingestion.services.receiving import (
    RECEIVE_GROUP_SIZE,
    IncomingFile,
    NamedSize,
    batch_create,
    batch_default_label,
    batch_receive,
    dedup_scope_of,
    files_enqueue,
    safe_file_name,
    upload_refusals,
)
from ingestion.services.recovery import (
    source_files_requeue,
    source_files_sweep,
)
from ingestion.services.shared_rows import (
    chunk_vocabulary,
    failed_files_take_back,
    repositories_first,
    shared_rows_take_back,
)

__all__ = [
    "MAX_ATTEMPTS",
    "REBUILD_TOKEN_PREFIX",
    "RECEIVE_GROUP_SIZE",
    "SAVE_ERRORS",
    "ClaimedFile",
    "ImportSummary",
    "IncomingFile",
    "LoadStep",
    "NamedSize",
    "NotARegularFile",
    "batch_create",
    "batch_default_label",
    "batch_finish_if_done",
    "batch_progress",
    "batch_receive",
    "batch_summary",
    "chunk_load",
    "chunk_vocabulary",
    "database_message",
    "dedup_scope_of",
    "document_normalise",
    "document_parse",
    "document_read",
    "documents_load",
    "failed_files_take_back",
    "failure_rows",
    "files_enqueue",
    "files_import",
    "files_leave_as_they_were",
    "finish_files",
    "import_transaction",
    "inbox_scan",
    "iter_folder",
    "printable_path",
    "rebuild_chunks",
    "rebuild_totals",
    "refuse_erased_meanwhile",
    "regular_file_read",
    "repositories_first",
    "result_rows",
    "safe_file_name",
    "shared_rows_take_back",
    "source_files_claim",
    "source_files_import",
    "source_files_rebuild",
    "source_files_rebuild_enqueue",
    "source_files_requeue",
    "source_files_sweep",
    "sourcing_record",
    "upload_refusals",
]
