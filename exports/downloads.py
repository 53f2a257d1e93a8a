"""An export job's file as an HTTP answer, for the API's download and the admin's: the same checks (the caller passes
one of the user's own jobs, from ``exports.selectors.export_detail``; done only) and the same headers, so a client can
tell a whole file from a cut one (Content-Length, and the sha256 as Repr-Digest and ETag)."""

from __future__ import annotations

import base64

from django.core.files.storage import storages
from django.http import FileResponse

from core.errors import ApplicationError
from exports.models import Export


class ExportFileUnavailable(ApplicationError):
    """The job has no file to download: ``code`` is ``not_ready`` (queued, running or failed) or ``expired`` (deleted
    when it expired, or gone from the storage)."""


def export_file_response(*, export: Export) -> FileResponse:
    """The file of a done export job, as an attachment; ExportFileUnavailable when it has none."""
    if export.status == Export.Status.EXPIRED:
        raise ExportFileUnavailable(
            "The export's file was deleted when it expired: start the export again.", code="expired"
        )
    if export.status == Export.Status.FAILED:
        raise ExportFileUnavailable(f"The export job failed, so it has no file: {export.error}", code="not_ready")
    if export.status != Export.Status.DONE:
        raise ExportFileUnavailable(
            f"The export is {export.get_status_display().lower()}: its file is not ready.", code="not_ready"
        )
    try:
        file = storages["exports"].open(export.file_name, "rb")
    except FileNotFoundError as exc:
        raise ExportFileUnavailable("The export's file is gone: start the export again.", code="expired") from exc
    content_type = "text/csv" if export.format == Export.Format.CSV else "application/jsonl"
    response = FileResponse(
        file, as_attachment=True, filename=export.download_name, content_type=f"{content_type}; charset=utf-8"
    )
    response["Content-Length"] = str(export.file_size)
    response["Repr-Digest"] = f"sha-256=:{sha256_base64(export.file_sha256)}:"
    response["ETag"] = f'"{export.file_sha256}"'
    return response


def sha256_base64(hex_digest: str) -> str:
    """A sha256 as ``Repr-Digest`` writes it (base64 of the bytes)."""
    return base64.b64encode(bytes.fromhex(hex_digest)).decode("ascii")
