"""One JSON error shape for every API error: {"error": {"code", "message", "details"}}."""

from rest_framework import exceptions, status
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.APIException):
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else "invalid"
        details = exc.detail if not isinstance(exc.detail, str) else {}
        message = str(exc.detail) if isinstance(exc.detail, str) else _first_message(exc.detail)
    else:  # Http404 and PermissionDenied are converted by DRF before reaching here.
        code, details, message = "error", {}, str(exc)
    if response.status_code == status.HTTP_404_NOT_FOUND:
        code = "not_found"
    response.data = {"error": {"code": code, "message": message, "details": details}}
    return response


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _first_message(value)
            return text if key == "non_field_errors" else f"{key}: {text}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)
