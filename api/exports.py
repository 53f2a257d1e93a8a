"""The API's side of exports: streamed rows linked to the API, the row URL an export job writes, the permission to start
a job, and the 429 of the per-user limit (issue 15, holes 4 and 5).

Rows are written by ``exports.formats`` (CSV from ``profiles.exports``, shared with the admin, and JSON Lines), the
same functions an export job writes its file with, through one server-side cursor: memory stays flat however many
candidates match, and each chunk's skills (and, for JSON Lines, education and contributions) take one query per chunk.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import QuerySet
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.reverse import reverse

from exports.formats import candidate_jsonl_lines, row_url, row_url_template
from exports.services import EXPORT_PERMISSION, ExportLimitReached
from profiles.contacts import may_see_contact_details
from profiles.exports import candidate_csv_lines
from profiles.models import Candidate


def api_row_url_template(request) -> str:
    """The absolute URL of a candidate's detail, with ``{pk}`` for its id: what an export job links each row to."""
    return row_url_template(lambda pk: reverse("api:candidate-detail", kwargs={"pk": pk}, request=request))


def csv_rows(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    """The candidates' CSV lines (the same columns and neutralising as the admin's export), linked to the API; the
    contact details only for who may see them."""
    contacts = may_see_contact_details(request.user)
    return candidate_csv_lines(queryset, url=row_url(api_row_url_template(request)), contacts=contacts)


def jsonl_lines(queryset: QuerySet[Candidate], *, request) -> Iterator[str]:
    contacts = may_see_contact_details(request.user)
    return candidate_jsonl_lines(queryset, url=row_url(api_row_url_template(request)), contacts=contacts)


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
