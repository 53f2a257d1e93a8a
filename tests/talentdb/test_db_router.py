"""The read-replica middleware's token pins (talentdb/db_router.py), without a replica: what it stores in the cache and
what it does when the cache cannot be reached. tests/talentdb/test_replica.py proves the routing on a real replica."""

import hashlib

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import RequestFactory
from multidb.pinning import this_thread_is_pinned, unpin_this_thread

from talentdb.db_router import PINNED_API_CLIENT_KEY_PREFIX, ReplicaRoutingMiddleware
from tests.factories import UserFactory

UNREACHABLE_CACHE = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
}


@pytest.fixture
def middleware():
    yield ReplicaRoutingMiddleware(lambda request: HttpResponse())
    unpin_this_thread()


def _request(method: str, token: str):
    return getattr(RequestFactory(), method)("/api/v1/jobs/", HTTP_AUTHORIZATION=f"Token {token}")


@pytest.mark.django_db
def test_an_authenticated_write_pins_a_digest_of_the_token(middleware):
    request = _request("post", token="secret-token-value")
    request.user = UserFactory()
    key = PINNED_API_CLIENT_KEY_PREFIX + hashlib.sha256(b"secret-token-value").hexdigest()

    middleware.process_response(request, HttpResponse())
    middleware.process_request(_request("get", token="secret-token-value"))

    assert this_thread_is_pinned()
    assert cache.get(key) == 1
    cache.delete(key)


def test_a_refused_write_pins_nothing(middleware):
    request = _request("post", token="refused-token")
    request.user = None  # DRF's UNAUTHENTICATED_USER

    middleware.process_response(request, HttpResponse())
    middleware.process_request(_request("get", token="refused-token"))

    assert not this_thread_is_pinned()


def test_without_the_cache_a_tokens_reads_go_to_the_primary(middleware, settings, caplog):
    settings.CACHES = UNREACHABLE_CACHE

    middleware.process_request(_request("get", token="any-token"))

    assert this_thread_is_pinned()
    assert "The cache is unreachable" in caplog.text


@pytest.mark.django_db
def test_without_the_cache_a_write_is_still_answered(middleware, settings, caplog):
    settings.CACHES = UNREACHABLE_CACHE
    request = _request("post", token="any-token")
    request.user = UserFactory()

    response = middleware.process_response(request, HttpResponse("written"))

    assert response.content == b"written"
    assert "this API token's reads are not pinned" in caplog.text
