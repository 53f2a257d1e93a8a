from django.conf import settings
from django.db import OperationalError
from django.http import HttpResponse, JsonResponse
from psycopg.errors import QueryCanceled

from api.exceptions import error_body
from core.text import human_size


class UploadSizeLimitMiddleware:
    """Refuse a request body larger than INGEST_MAX_UPLOAD_BYTES before anything reads it.

    Django caps form fields and file counts, not the total size of uploaded files: without this, one upload of
    INGEST_MAX_FILES_PER_UPLOAD files of INGEST_MAX_FILE_BYTES each would be accepted (gigabytes).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = settings.INGEST_MAX_UPLOAD_BYTES
        if length > limit:
            message = f"The upload is {human_size(length)}; at most {human_size(limit)} per request."
            if request.path.startswith("/api/"):
                # Before DRF runs, so its exception handler cannot answer: the same body, from the same function.
                return JsonResponse(error_body("request_too_large", message), status=413)
            return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class StatementTimeoutMiddleware:
    """A request whose database statement was stopped by the web's statement timeout (talentdb/web.py) is answered
    503 with a message that says so, in the API's error shape under /api/: the request asked for too much at once,
    which a server error page would hide. Any other error goes on to Django's handling."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        # The driver's error is the cause of Django's; 57014 (query_canceled) is also what pg_cancel_backend raises.
        cancelled = isinstance(exception, OperationalError) and isinstance(exception.__cause__, QueryCanceled)
        if not cancelled:
            return None
        message = (
            f"The request ran longer than the {settings.DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS} s a request may take "
            "in the database, and was stopped. Narrow it down (more selective filters, a smaller page) and try again."
        )
        if request.path.startswith("/api/"):
            return JsonResponse(error_body("statement_timeout", message), status=503)
        return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
