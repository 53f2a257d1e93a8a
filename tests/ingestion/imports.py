"""Import files the way every channel does (receive, then the worker's import), in the test's process."""

from ingestion import services
from ingestion.models import ImportBatch


def receive(*files: tuple[str, bytes]) -> ImportBatch:
    batch = services.batch_create(origin=ImportBatch.Origin.CLI, label="test")
    return services.batch_receive(batch=batch, files=[services.IncomingFile(n, d) for n, d in files], enqueue=False)


def import_all(batch: ImportBatch) -> services.ImportSummary:
    ids = list(batch.files.values_list("pk", flat=True))
    return services.source_files_import(file_ids=ids, token="test")
