from django.conf import settings
from django.http import HttpResponse, JsonResponse

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
