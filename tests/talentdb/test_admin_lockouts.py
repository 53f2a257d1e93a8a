"""The login lockout's admin (talentdb/admin.py): django-axes' pages, with its cleanup action working."""

import datetime as dt

import pytest
from axes.models import AccessAttempt
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _attempt(username: str, age: dt.timedelta) -> AccessAttempt:
    attempt = AccessAttempt.objects.create(
        username=username,
        ip_address="198.51.100.7",
        user_agent="t",
        get_data="",
        post_data="",
        http_accept="*/*",
        path_info="/admin/login/",
        failures_since_start=3,
    )
    AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=timezone.now() - age)
    return attempt


def test_cleaning_up_expired_attempts_deletes_those_past_the_cool_off_and_keeps_the_rest(client, settings):
    """Axes' own action read request.axes_attempt_time, which axes sets only while logging in: a 500 on every click."""
    client.force_login(UserFactory(username="operator", is_staff=True, is_superuser=True))
    cool_off = dt.timedelta(hours=settings.AXES_COOLOFF_TIME)
    expired, current = _attempt("old", cool_off + dt.timedelta(minutes=5)), _attempt("new", dt.timedelta(minutes=1))

    response = client.post(
        reverse("admin:axes_accessattempt_changelist"),
        {"action": "cleanup_expired_attempts", "_selected_action": [expired.pk, current.pk]},
        follow=True,
    )

    assert response.status_code == 200
    assert "Cleaned up 1 expired access attempts." in response.content.decode()
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["new"]


def test_the_lockout_pages_are_in_the_admin(client):
    client.force_login(UserFactory(username="operator", is_staff=True, is_superuser=True))

    for name in ("axes_accessattempt", "axes_accesslog", "axes_accessfailurelog"):
        assert client.get(reverse(f"admin:{name}_changelist")).status_code == 200
