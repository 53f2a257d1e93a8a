"""The admin login's lockout (django-axes): per username and client address, and per username from every address.

axes counts failed password logins per username and client address (``AXES_LOCKOUT_PARAMETERS``) and locks that pair
at ``LOGIN_LOCKOUT_ADDRESS_LIMIT`` failures within the cool-off (``AXES_COOLOFF_TIME``): one guesser cannot lock the
user out from their own address. Alone, that gave a guesser with N addresses N times the guesses. So the username is
locked from every address too once its failures from all of them together, within the cool-off, reach
``LOGIN_LOCKOUT_USERNAME_LIMIT``. axes takes one failure limit, which ``failure_limit`` gives per request: the pair's,
or none at all (0) for a username locked everywhere.

Only password logins are locked: axes guards ``authenticate()``, which API tokens (DRF's TokenAuthentication) and
sessions already open never call. ``lockout_response`` (``AXES_LOCKOUT_CALLABLE``) is the page a locked login gets,
which says which lock it is, how long it lasts and how an administrator lifts it now.
"""

from __future__ import annotations

import shlex

from axes.attempts import get_cool_off_threshold
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.db.models import Sum
from django.http import HttpResponse
from django.shortcuts import render


def failure_limit(request, credentials) -> int:
    """``AXES_FAILURE_LIMIT``: the failures this username may have from this address, or 0 once the username is
    locked from every address (axes locks at failures >= limit, so a new address starts locked too)."""
    if username_failures(request, credentials) >= settings.LOGIN_LOCKOUT_USERNAME_LIMIT:
        return 0
    return settings.LOGIN_LOCKOUT_ADDRESS_LIMIT


def username_failures(request, credentials) -> int:
    """The username's failed logins from every address within the cool-off, as axes counts a pair's."""
    username = get_client_username(request, credentials)
    if username is None:
        return 0
    attempts = AccessAttempt.objects.filter(username=username)
    if get_cool_off(request) is not None:
        attempts = attempts.filter(attempt_time__gte=get_cool_off_threshold(request))
    return attempts.aggregate(failures=Sum("failures_since_start"))["failures"] or 0


def lockout_response(request, original_response=None, credentials=None) -> HttpResponse:
    """The login page of a locked username (429): which lock, for how long, and the command that lifts it."""
    cool_off = get_cool_off(request)
    username = get_client_username(request, credentials) or ""
    context = {
        **admin.site.each_context(request),
        "title": "Login locked",
        "username": username,
        # Quoted for a shell: the username is whatever was typed in the form.
        "unlock_command": f"python manage.py axes_reset_username {shlex.quote(username)}",
        "everywhere": username_failures(request, credentials) >= settings.LOGIN_LOCKOUT_USERNAME_LIMIT,
        "minutes": round(cool_off.total_seconds() / 60) if cool_off else None,
    }
    return render(request, "admin/locked_out.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)
