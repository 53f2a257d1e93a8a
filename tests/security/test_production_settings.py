"""Production settings (DEBUG off): HTTPS only, HSTS, secure cookies, CSRF on every session write.

``manage.py check --deploy`` is run by tests/talentdb/test_settings.py; these tests check the answers themselves.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

BASE_DIR = Path(__file__).resolve().parents[2]
SECURITY_SETTINGS = [
    "DEBUG",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_HTTPONLY",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "X_FRAME_OPTIONS",
    "CSRF_TRUSTED_ORIGINS",
    "ALLOWED_HOSTS",
    "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SAMESITE",
    "SECURE_REFERRER_POLICY",
    "MIDDLEWARE",
    "CONTENT_SECURITY_POLICY",
    "TRUSTED_PROXY_COUNT",
    "AXES_IPWARE_META_PRECEDENCE_ORDER",
]


@pytest.fixture(scope="module")
def production() -> dict:
    """The security settings of a fresh process started as production starts it: DEBUG=0 and a secret."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"DEBUG", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS"}
    }
    env.update(DEBUG="0", SECRET_KEY="production-like-" + "k" * 50, DJANGO_SETTINGS_MODULE="talentdb.settings")
    code = (
        "import json, django; django.setup(); from django.conf import settings;"
        f"print(json.dumps({{name: getattr(settings, name) for name in {SECURITY_SETTINGS!r}}}, default=str))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_settings_force_https_hsts_and_secure_cookies(production):
    assert production["DEBUG"] is False
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert production["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert production["SESSION_COOKIE_SECURE"] is True
    assert production["CSRF_COOKIE_SECURE"] is True
    assert production["SESSION_COOKIE_HTTPONLY"] is True
    assert production["SESSION_COOKIE_SAMESITE"] in ("Lax", "Strict")
    assert production["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert production["X_FRAME_OPTIONS"] == "DENY"
    assert production["CSRF_TRUSTED_ORIGINS"] == []
    assert "*" not in production["ALLOWED_HOSTS"]
    middleware = production["MIDDLEWARE"]
    assert middleware[0] == "django.middleware.security.SecurityMiddleware"
    assert "django.middleware.csrf.CsrfViewMiddleware" in middleware
    assert "django.middleware.clickjacking.XFrameOptionsMiddleware" in middleware
    assert middleware[-1] == "axes.middleware.AxesMiddleware"
    # Issue 15, hole 14: a Content-Security-Policy on every answer, our own origin only.
    assert "csp.middleware.CSPMiddleware" in middleware
    assert production["CONTENT_SECURITY_POLICY"]["DIRECTIVES"]["default-src"] == ["'self'"]
    # Issue 15, hole 10: no proxy is trusted unless configured; X-Forwarded-For is then the client's own word.
    assert production["TRUSTED_PROXY_COUNT"] == 0
    assert production["AXES_IPWARE_META_PRECEDENCE_ORDER"] == ["REMOTE_ADDR"]


@pytest.fixture
def as_in_production(settings, production):
    """Undo the suite's plain-HTTP conveniences: this process answers as production does."""
    for name in (
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
    ):
        setattr(settings, name, production[name])
    return settings


def test_plain_http_is_redirected_to_https(client, as_in_production):
    response = client.get("/healthz")

    assert response.status_code == 301
    assert response["Location"] == "https://testserver/healthz"


@pytest.mark.django_db
def test_https_answers_carry_hsts_and_the_browser_protections(client, as_in_production):
    response = client.get("/healthz", secure=True)

    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.django_db
def test_session_and_csrf_cookies_are_secure_and_the_session_cookie_is_http_only(as_in_production):
    UserFactory(username="ada", is_staff=True)
    client = Client(enforce_csrf_checks=True)
    login_page = client.get(reverse("admin:login"), secure=True)
    csrf = login_page.cookies["csrftoken"]
    assert csrf["secure"] is True

    response = client.post(
        reverse("admin:login"),
        {"username": "ada", "password": "correct horse battery staple", "csrfmiddlewaretoken": csrf.value},
        secure=True,
        HTTP_REFERER="https://testserver/admin/login/",
    )

    assert response.status_code == 302
    session = response.cookies["sessionid"]
    assert session["secure"] is True
    assert session["httponly"] is True
    assert session["samesite"] == "Lax"


@pytest.mark.django_db
def test_a_login_without_the_csrf_token_is_refused(as_in_production):
    UserFactory(username="ada", is_staff=True)
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        reverse("admin:login"), {"username": "ada", "password": "correct horse battery staple"}, secure=True
    )

    assert response.status_code == 403
    assert "sessionid" not in response.cookies


@pytest.mark.django_db
def test_session_authenticated_api_writes_need_the_csrf_token(as_in_production):
    user = UserFactory(username="importer")
    from django.contrib.auth.models import Permission

    user.user_permissions.add(Permission.objects.get(codename="add_importbatch", content_type__app_label="ingestion"))
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.post(reverse("api:import-list"), {}, secure=True, HTTP_ACCEPT="application/json")

    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]["message"]
