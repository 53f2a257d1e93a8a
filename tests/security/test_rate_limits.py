"""Rate limits: API throttling per user, and login attempts locked out by django-axes."""

import datetime as dt
import io
import random

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

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


@pytest.fixture
def thirty_per_minute(monkeypatch):
    """30 requests a minute, on a clock stopped in a minute that no other run counts in (Redis outlives runs)."""
    monkeypatch.setattr(TokenRateThrottle, "THROTTLE_RATES", {"token": "30/minute"})
    minute = (34_000_000 + random.randrange(10**6)) * 60
    monkeypatch.setattr(TokenRateThrottle, "timer", staticmethod(lambda: minute + 20))


ADDRESS, OTHER_ADDRESS = "198.51.100.7", "203.0.113.20"
BAD_TOKEN = {"HTTP_AUTHORIZATION": "Token " + "0" * 40}


@pytest.mark.parametrize("credentials", [{}, BAD_TOKEN], ids=["anonymous", "bad token"])
def test_failed_authentications_count_against_the_address_and_are_throttled_past_its_rate(
    client, token_of, thirty_per_minute, credentials
):
    """Authentication fails before DRF checks throttles: 40 anonymous or bad-token requests were 40 401s."""
    url = reverse("api:skill-list")

    statuses = [client.get(url, REMOTE_ADDR=ADDRESS, **credentials).status_code for _ in range(40)]
    refused = client.get(url, REMOTE_ADDR=ADDRESS, **credentials)

    assert statuses == [401] * 30 + [429] * 10
    assert refused.status_code == 429
    assert refused["Retry-After"] == "40"  # the seconds left of this minute
    assert refused.json()["error"]["code"] == "throttled"
    # Another address still gets its 401; a good token from the same address is counted as its user, not refused.
    assert client.get(url, REMOTE_ADDR=OTHER_ADDRESS, **credentials).status_code == 401
    good = {"HTTP_AUTHORIZATION": f"Token {token_of(UserFactory(username='consumer'))}"}
    assert client.get(url, REMOTE_ADDR=ADDRESS, **good).status_code == 200


def test_anonymous_and_bad_token_requests_share_the_address_bucket(client, thirty_per_minute):
    url = reverse("api:candidate-list")

    bad = [client.get(url, REMOTE_ADDR=ADDRESS, **BAD_TOKEN).status_code for _ in range(20)]
    anonymous = [client.get(url, REMOTE_ADDR=ADDRESS).status_code for _ in range(20)]

    assert bad == [401] * 20
    assert anonymous == [401] * 10 + [429] * 10


def test_failed_authentications_have_a_rate_of_their_own_below_a_consumers(client, token_of, monkeypatch):
    monkeypatch.setattr(TokenRateThrottle, "THROTTLE_RATES", {"token": "30/minute", "anonymous": "5/minute"})
    minute = (35_000_000 + random.randrange(10**6)) * 60
    monkeypatch.setattr(TokenRateThrottle, "timer", staticmethod(lambda: minute + 20))
    url = reverse("api:skill-list")
    good = {"HTTP_AUTHORIZATION": f"Token {token_of(UserFactory(username='consumer'))}"}

    failed = [client.get(url, REMOTE_ADDR=ADDRESS, **BAD_TOKEN).status_code for _ in range(6)]
    served = [client.get(url, REMOTE_ADDR=ADDRESS, **good).status_code for _ in range(10)]

    assert failed == [401] * 5 + [429]
    assert served == [200] * 10


def test_the_default_rates_come_from_the_settings(settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] == ["api.throttling.TokenRateThrottle"]
    assert TokenRateThrottle().get_rate() == rates["token"]
    assert rates["anonymous"] == "60/minute"  # API_ANON_THROTTLE_RATE; the suite itself lifts it (conftest.py)


def _login(client, password: str, address: str = "127.0.0.1", username: str = "recruiter"):
    return client.post(reverse("admin:login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def test_the_admin_login_locks_an_account_at_the_fifth_wrong_password_even_for_the_right_one(client, settings):
    assert settings.LOGIN_LOCKOUT_ADDRESS_LIMIT == 5
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


# --- One username from many addresses ------------------------------------------------------------------------------


def _guess_from_many_addresses(client, failures: int) -> list[int]:
    """``failures`` wrong passwords for recruiter, four from each address (each address one short of its lockout)."""
    return [_login(client, f"guess-{i}", f"198.51.100.{i // 4 + 1}").status_code for i in range(failures)]


def test_wrong_passwords_from_many_addresses_lock_the_username_at_its_own_limit(client, settings):
    """A lockout per username and address only gave N addresses 4N guesses every 15 minutes."""
    assert settings.LOGIN_LOCKOUT_USERNAME_LIMIT == 20
    UserFactory(username="recruiter", is_staff=True, is_superuser=True)

    statuses = _guess_from_many_addresses(client, 20)
    fresh_address = _login(client, PASSWORD, "203.0.113.50")

    assert statuses == [200] * 19 + [429]  # the 20th failure, from a fifth address, locks the username
    assert fresh_address.status_code == 429, "a new address must not open a username locked from everywhere"
    assert "_auth_user_id" not in client.session


def test_a_username_locked_from_everywhere_leaves_other_usernames_and_its_api_tokens_alone(client, token_of):
    recruiter = UserFactory(username="recruiter", is_staff=True, is_superuser=True)
    UserFactory(username="colleague", is_staff=True, is_superuser=True)
    _guess_from_many_addresses(client, 20)
    assert _login(client, PASSWORD, "203.0.113.50").status_code == 429

    colleague = _login(client, PASSWORD, "198.51.100.1", username="colleague")
    client.logout()
    api = client.get(reverse("api:skill-list"), HTTP_AUTHORIZATION=f"Token {token_of(recruiter)}")

    assert colleague.status_code == 302
    assert api.status_code == 200, "only password logins are locked: the account's API token still works"


def test_the_lockout_page_says_how_long_and_how_an_administrator_unlocks_it(client):
    UserFactory(username="recruiter", is_staff=True, is_superuser=True)
    _guess_from_many_addresses(client, 20)

    page = _login(client, PASSWORD, "203.0.113.50")

    assert page.status_code == 429
    assert page["Content-Type"].startswith("text/html")
    text = " ".join(page.content.decode().split())
    assert "Too many failed logins for recruiter from several addresses" in text
    assert "Password logins to this account are locked for 15 minutes, from every address." in text
    assert "Try again in 15 minutes, or ask an administrator to unlock it now:" in text
    assert "python manage.py axes_reset_username recruiter" in text
    assert "API tokens keep working." in text


def test_the_lockout_page_of_one_address_says_so(client):
    UserFactory(username="recruiter", is_staff=True, is_superuser=True)
    for i in range(5):
        _login(client, f"guess-{i}")

    text = " ".join(_login(client, PASSWORD).content.decode().split())

    assert "Too many failed logins for recruiter from your address" in text
    assert "Password logins to this account from your address are locked for 15 minutes." in text
    assert "python manage.py axes_reset_username recruiter" in text


def test_an_administrator_unlocks_the_username_with_the_command_the_page_names(client):
    UserFactory(username="recruiter", is_staff=True, is_superuser=True)
    _guess_from_many_addresses(client, 20)
    assert _login(client, PASSWORD, "203.0.113.50").status_code == 429

    call_command("axes_reset_username", "recruiter", stdout=io.StringIO())

    assert _login(client, PASSWORD, "203.0.113.50").status_code == 302


def test_failures_older_than_the_cool_off_do_not_count_towards_the_username(client, settings):
    UserFactory(username="recruiter", is_staff=True, is_superuser=True)
    _guess_from_many_addresses(client, 19)
    AccessAttempt.objects.update(attempt_time=timezone.now() - dt.timedelta(minutes=16))

    assert _guess_from_many_addresses(client, 19) == [200] * 19


class _EvictsAfterAdd:
    """The throttle's cache, losing each counter right after ``add``: what Redis does to a key it evicts under its
    memory limit, or an operator's cache clear, between the throttle's ``add`` and its ``incr``."""

    def __init__(self, cache):
        self._cache = cache

    def add(self, key, value, timeout=None):
        added = self._cache.add(key, value, timeout=timeout)
        self._cache.delete(key)
        return added

    def __getattr__(self, name):
        return getattr(self._cache, name)


def test_a_counter_lost_between_add_and_incr_counts_the_request_instead_of_failing_it(
    client, token_of, three_per_minute, monkeypatch
):
    monkeypatch.setattr(TokenRateThrottle, "cache", _EvictsAfterAdd(TokenRateThrottle.cache))
    auth = {"HTTP_AUTHORIZATION": f"Token {token_of(UserFactory(username='evicted'))}"}

    assert client.get(reverse("api:skill-list"), **auth).status_code == 200
