"""Every endpoint needs a login; tokens go in `Authorization: Token <key>`; each user is throttled."""

import random
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory
from rest_framework.throttling import SimpleRateThrottle

from api.throttling import TokenRateThrottle
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db

ENDPOINTS = [
    reverse("api:candidate-list"),
    reverse("api:candidate-detail", kwargs={"pk": 1}),
    reverse("api:candidate-export-csv"),
    reverse("api:candidate-export-jsonl"),
    reverse("api:skill-list"),
    reverse("api:repository-list"),
    reverse("api:import-list"),
    reverse("api:import-detail", kwargs={"pk": 1}),
    reverse("schema"),
    reverse("swagger-ui"),
]
NOT_AUTHENTICATED = {
    "error": {"code": "not_authenticated", "message": "Authentication credentials were not provided.", "details": {}}
}


# The Swagger page sends an anonymous visitor to the login page instead (tests/talentdb/test_api_docs.py).
@pytest.mark.parametrize("url", [url for url in ENDPOINTS if url != reverse("swagger-ui")])
def test_anonymous_requests_get_a_401_in_the_error_shape(anonymous, url):
    response = anonymous.get(url)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    if not url.startswith("/api/v1/"):
        return  # drf-spectacular's views answer in DRF's own shape
    assert response.json() == NOT_AUTHENTICATED


def test_anonymous_uploads_get_a_401(anonymous):
    response = anonymous.post(reverse("api:import-list"), {})

    assert response.status_code == 401
    assert response.json() == NOT_AUTHENTICATED


@pytest.mark.parametrize("url", ENDPOINTS)
def test_a_token_opens_every_endpoint(api, url):
    CandidateFactory(pk=1)

    response = api.get(url)

    assert response.status_code in (200, 404)  # import 1 is not the consumer's
    if "imports/1/" in url:
        assert response.json()["error"]["code"] == "not_found"


def test_a_wrong_or_revoked_token_is_a_401(consumer):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")
    response = client.get(reverse("api:candidate-list"))
    assert (response.status_code, response.json()["error"]["message"]) == (401, "Invalid token.")

    token = Token.objects.create(user=consumer)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(reverse("api:candidate-list")).status_code == 200
    token.delete()
    assert client.get(reverse("api:candidate-list")).status_code == 401


def test_a_token_authenticates_as_its_user_in_one_query(api, consumer, django_assert_num_queries):
    [token] = Token.objects.filter(user=consumer)
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {token.key}")

    with django_assert_num_queries(1):
        user, auth = TokenAuthentication().authenticate(request)

    assert (user.pk, user.username, user.is_active) == (consumer.pk, "consumer", True)
    assert (auth.key, auth.user_id, auth.created) == (token.key, consumer.pk, token.created)
    assert not auth._state.adding  # a stored token, as DRF's own lookup returns


def test_the_token_of_a_deactivated_user_is_a_401(api, consumer):
    assert api.get(reverse("api:skill-list")).status_code == 200
    consumer.is_active = False
    consumer.save()

    response = api.get(reverse("api:skill-list"))

    assert (response.status_code, response.json()["error"]["message"]) == (401, "User inactive or deleted.")


def test_a_logged_in_session_works_for_the_browsable_api(client, consumer):
    client.force_login(consumer)

    assert client.get(reverse("api:candidate-list")).status_code == 200


def test_a_session_must_still_send_the_csrf_token_to_upload(importer):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(importer)

    response = client.post(reverse("api:import-list"), {})

    assert response.status_code == 403
    assert response.json()["error"]["message"].startswith("CSRF Failed")


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_consumers_only_read(api, method):
    CandidateFactory(pk=2)

    assert getattr(api, method)(reverse("api:candidate-list")).status_code == 405
    assert getattr(api, method)(reverse("api:candidate-detail", kwargs={"pk": 2})).status_code == 405
    assert getattr(api, method)(reverse("api:skill-list")).status_code == 405


def test_each_token_is_throttled(api, monkeypatch):
    monkeypatch.setattr(TokenRateThrottle, "THROTTLE_RATES", {"token": "2/minute"})
    url = reverse("api:skill-list")

    statuses = [api.get(url).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    response = api.get(url)
    assert response.json()["error"]["code"] == "throttled"
    assert response.json()["error"]["message"].startswith("Request was throttled.")
    assert int(response["Retry-After"]) > 0
    # Another token has its own budget.
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=UserFactory(username='other')).key}")
    assert other.get(url).status_code == 200


@pytest.fixture
def clock(monkeypatch) -> list[float]:
    """The throttle's clock, set to the start of a minute that no other test run counts in (Redis outlives runs)."""
    now = [(33_000_000 + random.randrange(10**6)) * 60]
    monkeypatch.setattr(TokenRateThrottle, "timer", staticmethod(lambda: now[0]))
    return now


def test_a_throttled_token_gets_its_budget_back_when_the_minute_turns(api, monkeypatch, clock):
    monkeypatch.setattr(TokenRateThrottle, "THROTTLE_RATES", {"token": "2/minute"})
    url = reverse("api:skill-list")
    clock[0] += 45

    assert [api.get(url).status_code for _ in range(3)] == [200, 200, 429]
    assert api.get(url)["Retry-After"] == "15"  # the seconds left of this minute
    clock[0] += 15
    assert [api.get(url).status_code for _ in range(3)] == [200, 200, 429]


def test_the_throttle_counts_each_user_in_one_small_expiring_counter(api, clock):
    url = reverse("api:skill-list")

    for _ in range(5):
        assert api.get(url).status_code == 200

    [token] = Token.objects.all()
    # Keyed by the user, not the token: one bucket whether the user sends a token or an admin session (issue 15, 15).
    counter = cache.make_and_validate_key(f"throttle_token_user:{token.user_id}:{int(clock[0] // 60)}")
    server = redis.Redis.from_url(settings.REDIS_URL)
    assert server.get(counter) == b"5"
    assert 0 < server.ttl(counter) <= 120  # its minute and the next
    assert not server.keys(f"*{token.key}*")  # the secret itself is in no key name


def _token_request(key: str) -> Request:
    request = Request(APIRequestFactory().get("/"))
    request._user, request._auth = UserFactory.build(pk=random.randrange(10**9, 2 * 10**9)), Token(key=key)
    return request


class StockTokenThrottle(SimpleRateThrottle):
    """DRF's own throttle with this project's key: what TokenRateThrottle replaces."""

    scope = "token"
    get_cache_key = TokenRateThrottle.get_cache_key


def test_one_request_after_another_the_throttle_decides_as_drfs_own(monkeypatch, clock):
    rates = {"token": "3/minute"}
    monkeypatch.setattr(TokenRateThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(StockTokenThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(StockTokenThrottle, "timer", staticmethod(lambda: clock[0]))
    ours, stock = _token_request(secrets.token_hex(20)), _token_request(secrets.token_hex(20))

    decisions = [
        (TokenRateThrottle().allow_request(ours, None), StockTokenThrottle().allow_request(stock, None))
        for _ in range(5)
    ]

    assert decisions == [(True, True)] * 3 + [(False, False)] * 2
    assert TokenRateThrottle().get_cache_key(ours, None) == StockTokenThrottle().get_cache_key(ours, None)


def test_requests_of_one_token_side_by_side_get_no_more_than_its_rate_unlike_with_drfs_own(monkeypatch, clock):
    rates = {"token": "100/minute"}
    monkeypatch.setattr(TokenRateThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(StockTokenThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(StockTokenThrottle, "timer", staticmethod(lambda: clock[0]))  # no minute turns meanwhile

    def allowed(throttle_class: type[SimpleRateThrottle]) -> int:
        """Requests let through of 400 sent by 8 threads at once with one token."""
        request, start = _token_request(secrets.token_hex(20)), threading.Barrier(8)

        def client() -> int:
            start.wait()
            return sum(throttle_class().allow_request(request, None) for _ in range(50))

        with ThreadPoolExecutor(max_workers=8) as pool:
            return sum(pool.map(lambda _: client(), range(8)))

    assert allowed(TokenRateThrottle) == 100
    assert allowed(StockTokenThrottle) > 100  # DRF's read-modify-write of the request list loses updates
