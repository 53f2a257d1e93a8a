"""Import files the way every channel does (receive, then the worker's import), in the test's process."""

from ingestion import services
from ingestion.models import ImportBatch, SourceFile
from profiles.models import Candidate


def receive(*files: tuple[str, bytes]) -> ImportBatch:
    batch = services.batch_create(origin=ImportBatch.Origin.CLI, label="test")
    return services.batch_receive(batch=batch, files=[services.IncomingFile(n, d) for n, d in files], enqueue=False)


def import_all(batch: ImportBatch) -> services.ImportSummary:
    ids = list(batch.files.values_list("pk", flat=True))
    return services.source_files_import(file_ids=ids, token="test")


def import_file(path) -> Candidate:
    """Import one file in a batch of its own; it must import, and its candidate is returned."""
    batch = receive((path.name, path.read_bytes()))
    import_all(batch)
    source = SourceFile.objects.get(batch=batch)
    assert source.status == SourceFile.Status.IMPORTED, source.error
    return source.candidate
