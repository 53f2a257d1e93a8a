"""The admin's streamed CSV exports (the candidate action, the shortlists' download and action) share one way out.

``csv_stream`` is where a stream leaves the admin, so that an app above may wrap it: the exports app holds each stream
to the user's limit on concurrent exports (``exports.admin``, which extends these admin classes). The domain knows
nothing of that app; here a stream simply streams.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib import messages
from django.http import HttpResponse, StreamingHttpResponse


class CsvStreamMixin:
    def csv_stream(self, request, lines: Iterable[str], *, filename: str) -> HttpResponse | None:
        """The CSV ``lines`` as an attachment named ``filename``; None when an app above refuses the stream, with a
        message saying why (an action then shows the changelist again)."""
        response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def export_too_large(self, request, *, limit: int) -> HttpResponse | None:
        """A selection of more than ``limit`` rows, too many to stream inside one request: a
        message (the changelist again); an app above may offer to write it elsewhere instead."""
        self.message_user(
            request,
            f"More than {limit:,} candidates are too many to export at once: narrow the search.",
            messages.WARNING,
        )
        return None
