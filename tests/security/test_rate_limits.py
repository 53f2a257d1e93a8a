"""Rate limits: API throttling per user, and login attempts locked out by django-axes."""

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.urls import reverse

from api.throttling import TokenRateThrottle
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


@pytest.fixture
def three_per_minute(monkeypatch):
    """The throttle reads its rates when DRF loads; set a small one for this test (API_THROTTLE_RATE in production)."""
    monkeypatch.setattr(TokenRateThrottle, "THROTTLE_RATES", {"token": "3/minute"})
    cache.clear()
    yield
    cache.clear()


def test_the_api_throttles_each_token_on_its_own(client, token_of, three_per_minute):
    first = {"HTTP_AUTHORIZATION": f"Token {token_of(UserFactory(username='first'))}"}
    second = {"HTTP_AUTHORIZATION": f"Token {token_of(UserFactory(username='second'))}"}
    url = reverse("api:skill-list")

    statuses = [client.get(url, **first).status_code for _ in range(4)]
    refused = client.get(url, **first)

    assert statuses == [200, 200, 200, 429]
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert refused.json()["error"]["code"] == "throttled"
    assert client.get(url, **second).status_code == 200  # another consumer is not slowed down


def test_a_user_has_one_bucket_whether_by_token_or_by_session(client, token_of, three_per_minute):
    """Issue 15, hole 15: a staff user's token and admin session were counted in two buckets, doubling the rate."""
    user = UserFactory(username="staff", is_staff=True)
    token = {"HTTP_AUTHORIZATION": f"Token {token_of(user)}"}
    client.force_login(user)
    url = reverse("api:skill-list")

    statuses = [client.get(url, **token).status_code, client.get(url).status_code, client.get(url, **token).status_code]
    by_session, by_token = client.get(url), client.get(url, **token)

    assert statuses == [200, 200, 200]
    assert (by_session.status_code, by_token.status_code) == (429, 429)
    assert by_session.json()["error"]["code"] == "throttled"


def test_the_default_rate_comes_from_the_settings(settings):
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] == ["api.throttling.TokenRateThrottle"]
    assert TokenRateThrottle().get_rate() == settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["token"]


def _login(client, password: str):
    return client.post(reverse("admin:login"), {"username": "recruiter", "password": password})


def test_the_admin_login_locks_an_account_at_the_fifth_wrong_password_even_for_the_right_one(client, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    UserFactory(username="recruiter", is_staff=True, is_superuser=True)

    wrong = [_login(client, f"guess-{i}").status_code for i in range(5)]
    right = _login(client, PASSWORD)

    assert wrong == [200, 200, 200, 200, 429]  # the form with its error four times, then locked
    assert right.status_code == 429, "the right password must not open a locked account"
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("admin:index")).status_code == 302
    assert AccessAttempt.objects.get(username="recruiter").failures_since_start >= 5


def test_the_lockout_is_per_account_and_address(client):
    UserFactory(username="recruiter", is_staff=True, is_superuser=True)
    UserFactory(username="colleague", is_staff=True, is_superuser=True)
    for i in range(6):
        _login(client, f"guess-{i}")

    colleague = client.post(reverse("admin:login"), {"username": "colleague", "password": PASSWORD})
    elsewhere = client.post(
        reverse("admin:login"), {"username": "recruiter", "password": PASSWORD}, REMOTE_ADDR="203.0.113.9"
    )

    assert colleague.status_code == 302
    assert elsewhere.status_code == 302
