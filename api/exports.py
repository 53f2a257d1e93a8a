"""The API's side of exports: streamed rows linked to the API, the row URL an export job writes, the permission to start
a job, and the 429 of the per-user limit (issue 15, holes 4 and 5).

Rows are written by ``exports.formats`` (CSV from ``profiles.exports``, shared with the admin, and JSON Lines), the
same functions an export job writes its file with, through one server-side cursor: memory stays flat however many
candidates match, and each chunk's skills (and, for JSON Lines, education and contributions) take one query per chunk.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator

from django.db.models import QuerySet
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.reverse import reverse

from exports.formats import candidate_jsonl_lines
from exports.services import ExportLimitReached, StreamSlot
from profiles.exports import candidate_csv_lines
from profiles.models import Candidate

EXPORT_PERMISSION = "exports.add_export"
_PLACEHOLDER = 987654321987654321


def row_url_template(request) -> str:
    """The absolute URL of a candidate's detail, with ``{pk}`` for its id: what an export job links each row to."""
    url = reverse("api:candidate-detail", kwargs={"pk": _PLACEHOLDER}, request=request)
    return url.replace(str(_PLACEHOLDER), "{pk}")


def csv_rows(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    """The candidates' CSV lines (the same columns and neutralising as the admin's export), linked to the API."""
    template = row_url_template(request)
    return candidate_csv_lines(queryset, url=lambda c: template.replace("{pk}", str(c.pk)))


def jsonl_lines(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    template = row_url_template(request)
    return candidate_jsonl_lines(queryset, url=lambda c: template.replace("{pk}", str(c.pk)))


class ReleasingLines:
    """A streamed body that gives its export slot back when the response is closed: Django closes the streaming
    content's iterator in ``response.close()``, which the WSGI server calls once the body is sent or the client has
    gone, and a slot that is never released lapses on its own (``exports.services.STREAM_SLOT_SECONDS``)."""

    def __init__(self, lines: Iterator[str], slot: StreamSlot):
        self._lines, self._slot = iter(lines), slot

    def __iter__(self):
        return self

    def __next__(self) -> str:
        return next(self._lines)

    def close(self) -> None:
        try:
            close = getattr(self._lines, "close", None)
            if close is not None:
                close()
        finally:
            self._slot.release()


class TooManyExports(APIException):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "too_many_exports"
    default_detail = "Too many exports running."


class ExportNotReady(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "not_ready"
    default_detail = "The export's file is not written yet."


class ExportGone(APIException):
    status_code = status.HTTP_410_GONE
    default_code = "expired"
    default_detail = "The export's file was deleted."


def limited(start, **kwargs):
    """Call an exports service that counts against the user's limit; over it, the API's 429."""
    try:
        return start(**kwargs)
    except ExportLimitReached as exc:
        raise TooManyExports(exc.message) from exc


class CanExport(BasePermission):
    """Starting an export job needs the export permission; reading one's own jobs needs a login."""

    message = f"Starting an export job needs the export permission ({EXPORT_PERMISSION})."

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or request.user.has_perm(EXPORT_PERMISSION)


EXPORT_PERMISSIONS = [IsAuthenticated, CanExport]


def sha256_base64(hex_digest: str) -> str:
    """A sha256 as ``Repr-Digest`` writes it (base64 of the bytes)."""
    return base64.b64encode(bytes.fromhex(hex_digest)).decode("ascii")
