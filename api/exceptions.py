"""One JSON error shape for every API error: {"error": {"code", "message", "details"}}.

This handler is the one place that turns an error into that shape (HackSoft's Django-Styleguide approach): views,
filters, paginators and the services they call raise what they have, and nothing converts on the way. Besides DRF's
own exceptions it takes Django's ``ValidationError`` (the selectors' message per query parameter), ``Http404``,
Django's ``PermissionDenied``, and the application's ``core.errors.ApplicationError`` (a service refusing: a 400 with
its message). Anything else is a bug and stays a 500. A failed authentication is counted by the view's throttles
first, which DRF would never run for it.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from core.errors import ApplicationError


def error_body(code: str, message: str, details: Any = None) -> dict:
    """The body of every API error; the upload-size middleware, which answers before DRF runs, writes it too."""
    return {"error": {"code": code, "message": message, "details": {} if details is None else details}}


def exception_handler(exc, context):
    if isinstance(exc, ApplicationError):
        set_rollback()  # as DRF does for its own errors: a refused request writes nothing under ATOMIC_REQUESTS
        return Response(error_body(exc.code, exc.message, exc.details), status=status.HTTP_400_BAD_REQUEST)
    exc = _as_api_exception(exc)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        exc = _counted_by_the_throttles(exc, context)
    response = drf_exception_handler(exc, context)  # status, WWW-Authenticate, Retry-After, rollback
    if response is None:
        return None
    detail = exc.detail
    if isinstance(detail, str):
        code, message, details = exc.get_codes(), str(detail), {}
    else:  # a list or a dict of messages (validation): the first one, named by its parameter, as the message
        code, message, details = "invalid", _first_message(detail), detail
    response.data = error_body(code, message, details)
    return response


def _as_api_exception(exc: Exception) -> Exception:
    if isinstance(exc, DjangoValidationError):
        detail = as_serializer_error(exc)
        # A form's own errors (unknown parameters, for one) are under Django's "__all__"; DRF names them otherwise.
        return exceptions.ValidationError(
            {
                (api_settings.NON_FIELD_ERRORS_KEY if key == NON_FIELD_ERRORS else key): value
                for key, value in detail.items()
            }
        )
    if isinstance(exc, Http404):
        return exceptions.NotFound(*exc.args)
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied(*exc.args)
    return exc


def _counted_by_the_throttles(exc: exceptions.APIException, context) -> exceptions.APIException:
    """A request that failed authentication (no credentials, a bad token), counted by the view's throttles: DRF checks
    them only after authentication and permissions pass, so these requests were never counted. A request without a
    user is counted by its client address (``TokenRateThrottle``); once that address's window is used up, the answer
    is the 429 with its Retry-After rather than the 401."""
    try:
        context["view"].check_throttles(context["request"])
    except exceptions.Throttled as throttled:
        return throttled
    return exc


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _first_message(value)
            return text if key == api_settings.NON_FIELD_ERRORS_KEY else f"{key}: {text}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)
