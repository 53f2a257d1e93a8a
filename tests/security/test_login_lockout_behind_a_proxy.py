"""Issue 15, hole 10: behind the reverse proxy every request comes from the proxy's address, so a lockout per
username and REMOTE_ADDR locked a user out from everywhere. The client address now comes from X-Forwarded-For, read
as TRUSTED_PROXY_COUNT proxies write it, and the lockout is per username and that address."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from axes.helpers import get_client_ip_address
from django.test import RequestFactory
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BASE_DIR = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery staple"
PROXY = "10.0.0.2"  # nginx, as gunicorn sees it
CLIENT_X, CLIENT_Y = "198.51.100.7", "203.0.113.20"
CLIENT_SETTINGS = ["AXES_IPWARE_PROXY_COUNT", "AXES_IPWARE_META_PRECEDENCE_ORDER", "AXES_LOCKOUT_PARAMETERS"]


def settings_of_a_process_with(names: list[str] = CLIENT_SETTINGS, **environment: str) -> dict:
    """The settings (by default the client-address ones) a fresh process computes from this environment."""
    result = _process_with(names, **environment)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _process_with(names: list[str], **environment: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("TRUSTED_PROXY_COUNT", *environment)}
    env.update(environment, DJANGO_SETTINGS_MODULE="talentdb.settings")
    code = (
        "import json, django; django.setup(); from django.conf import settings;"
        f"print(json.dumps({{name: getattr(settings, name, None) for name in {names!r}}}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture(scope="module")
def behind_one_proxy() -> dict:
    return settings_of_a_process_with(TRUSTED_PROXY_COUNT="1")


@pytest.fixture
def as_behind_one_proxy(settings, behind_one_proxy):
    for name, value in behind_one_proxy.items():
        setattr(settings, name, value)
    return settings


def _login(client, client_address: str, password: str, *, forwarded_for: str | None = None):
    return client.post(
        reverse("admin:login"),
        {"username": "recruiter", "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded_for or client_address,
    )


def test_issue_15_hole_10_five_wrong_passwords_from_one_client_lock_out_that_client_only(client, as_behind_one_proxy):
    UserFactory(username="recruiter", is_staff=True, is_superuser=True)

    wrong = [_login(client, CLIENT_X, f"guess-{i}").status_code for i in range(5)]
    locked = _login(client, CLIENT_X, PASSWORD)
    client.logout()
    elsewhere = _login(client, CLIENT_Y, PASSWORD)

    assert wrong == [200, 200, 200, 200, 429]
    assert locked.status_code == 429, "the attacker's address stays locked, even with the right password"
    assert elsewhere.status_code == 302, "the real user, from another address behind the same proxy, gets in"
    assert "_auth_user_id" in client.session


def test_issue_15_hole_10_a_forged_forwarded_for_does_not_escape_the_lockout(client, as_behind_one_proxy):
    """The proxy appends the address it saw: only the last entry is trusted, what the client wrote before it is not."""
    UserFactory(username="recruiter", is_staff=True, is_superuser=True)

    statuses = [
        _login(client, CLIENT_X, f"guess-{i}", forwarded_for=f"192.0.2.{i}, {CLIENT_X}").status_code for i in range(6)
    ]

    assert statuses[-2:] == [429, 429]


def test_issue_15_hole_10_the_client_address_follows_the_number_of_trusted_proxies(behind_one_proxy, settings):
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"192.0.2.1, {CLIENT_X}")
    for name, value in behind_one_proxy.items():
        setattr(settings, name, value)
    assert get_client_ip_address(request) == CLIENT_X

    # Two proxies (a TLS load balancer, then nginx): the load balancer wrote the client, nginx the load balancer.
    for name, value in settings_of_a_process_with(TRUSTED_PROXY_COUNT="2").items():
        setattr(settings, name, value)
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"192.0.2.1, {CLIENT_X}, 10.0.0.9")
    assert get_client_ip_address(request) == CLIENT_X

    # No proxy (the default: gunicorn serves clients itself): X-Forwarded-For is the client's own word, ignored.
    for name, value in settings_of_a_process_with().items():
        setattr(settings, name, value)
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    request = RequestFactory().get("/", REMOTE_ADDR=CLIENT_Y, HTTP_X_FORWARDED_FOR=CLIENT_X)
    assert get_client_ip_address(request) == CLIENT_Y


def test_issue_15_hole_10_the_api_throttle_counts_anonymous_clients_by_the_same_address(as_behind_one_proxy):
    from api.throttling import TokenRateThrottle

    request = RequestFactory().get("/api/v1/skills/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"192.0.2.1, {CLIENT_X}")
    request.auth, request.user = None, None

    throttle = TokenRateThrottle()

    assert throttle.get_cache_key(request, view=None) == throttle.cache_format % {"scope": "token", "ident": CLIENT_X}


def test_failed_api_authentications_are_counted_per_client_behind_the_proxy(client, as_behind_one_proxy, monkeypatch):
    """A bad token counts against the address the proxy wrote, not the proxy's: one client's guesses do not throttle
    everyone else behind it, and a forged entry before it does not give a fresh bucket."""
    from api.throttling import TokenRateThrottle

    monkeypatch.setattr(TokenRateThrottle, "THROTTLE_RATES", {"token": "3/minute"})
    minute = (35_000_000 + random.randrange(10**6)) * 60
    monkeypatch.setattr(TokenRateThrottle, "timer", staticmethod(lambda: minute))
    url, bad = reverse("api:skill-list"), {"HTTP_AUTHORIZATION": "Token " + "0" * 40}

    def guess(forwarded_for: str) -> int:
        return client.get(url, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for, **bad).status_code

    statuses = [guess(f"192.0.2.{i}, {CLIENT_X}") for i in range(5)]

    assert statuses == [401, 401, 401, 429, 429]
    assert guess(CLIENT_Y) == 401


LIMITS = ["LOGIN_LOCKOUT_ADDRESS_LIMIT", "LOGIN_LOCKOUT_USERNAME_LIMIT"]


def test_the_lockout_limits_come_from_the_environment_and_a_username_limit_below_the_address_one_is_refused():
    assert settings_of_a_process_with(LIMITS) == {"LOGIN_LOCKOUT_ADDRESS_LIMIT": 5, "LOGIN_LOCKOUT_USERNAME_LIMIT": 20}
    assert settings_of_a_process_with(LIMITS, AXES_FAILURE_LIMIT="3", AXES_USERNAME_FAILURE_LIMIT="12") == {
        "LOGIN_LOCKOUT_ADDRESS_LIMIT": 3,
        "LOGIN_LOCKOUT_USERNAME_LIMIT": 12,
    }

    refused = _process_with(LIMITS, AXES_FAILURE_LIMIT="5", AXES_USERNAME_FAILURE_LIMIT="4")

    assert refused.returncode != 0
    assert "AXES_USERNAME_FAILURE_LIMIT (4) at least AXES_FAILURE_LIMIT" in refused.stderr
