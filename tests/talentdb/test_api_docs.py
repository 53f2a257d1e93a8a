"""Issue 15, hole 14: the API docs (Swagger UI at /api/docs/, Redoc at /api/redoc/) are served from our own static
files (drf-spectacular-sidecar), not from a public CDN; the admin, the docs and the API answer with a
Content-Security-Policy (django-csp) that allows only our own origin; an anonymous visitor of the docs is sent to the
login page."""

import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ASSET = re.compile(r'\b(?:src|href)="([^"]*)"')
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)([^>]*)>", re.IGNORECASE)


@pytest.fixture
def reader(client):
    client.force_login(UserFactory(username="reader"))
    return client


def _local_assets(html: str) -> list[str]:
    """Every script, stylesheet and icon the page loads, each of which must be one of our static files."""
    assets = ASSET.findall(html)
    assert assets
    for url in assets:
        assert url.startswith("/"), f"loaded from elsewhere: {url}"
        assert not url.startswith("//"), f"loaded from elsewhere: {url}"
    return assets


def _assert_static_files_exist(assets: list[str]) -> None:
    prefix = f"/{settings.STATIC_URL.strip('/')}/"
    static = [url for url in assets if url.startswith(prefix)]
    assert static
    for url in static:
        assert finders.find(url.removeprefix(prefix)), f"no such static file: {url}"


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives = {}
    for part in filter(None, (p.strip() for p in header.split(";"))):
        name, *values = part.split()
        directives[name] = values
    return directives


def test_issue_15_hole_14_swagger_ui_is_served_from_our_static_files(reader):
    response = reader.get(reverse("swagger-ui"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "cdn.jsdelivr.net" not in html
    assert "@latest" not in html
    assets = _local_assets(html)
    _assert_static_files_exist(assets)
    assert any(url.endswith("swagger-ui-bundle.js") for url in assets)
    # Its start-up script is a script file of its own (no inline script for the policy to allow), from this view.
    [script] = [url for url in assets if "script=" in url]
    code = reader.get(script)
    assert code.status_code == 200
    assert code["Content-Type"].startswith("application/javascript")
    assert reverse("schema") in code.content.decode()


def test_issue_15_hole_14_redoc_is_served_from_our_static_files(reader):
    response = reader.get(reverse("redoc"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "googleapis" not in html
    assert "cdn." not in html
    assets = _local_assets(html)
    _assert_static_files_exist(assets)
    assert any(url.endswith("redoc.standalone.js") for url in assets)
    assert f'spec-url="{reverse("schema")}"' in html


@pytest.mark.parametrize("name", ["swagger-ui", "redoc"])
def test_issue_15_hole_14_an_anonymous_visitor_of_the_docs_is_sent_to_the_login_page(client, name):
    url = reverse(name)

    response = client.get(url, HTTP_ACCEPT="text/html")

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('admin:login')}?next={url}"


@pytest.mark.parametrize("name", ["swagger-ui", "redoc"])
def test_issue_15_hole_14_a_bad_token_on_the_docs_is_still_a_401_in_the_api_error_shape(client, name):
    response = client.get(reverse(name), HTTP_AUTHORIZATION="Token not-a-real-token", HTTP_ACCEPT="text/html")

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def _assert_strict_policy(response) -> dict[str, list[str]]:
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["base-uri"] == ["'self'"]
    scripts = directives["script-src"]
    assert "'self'" in scripts
    assert not {"'unsafe-inline'", "'unsafe-eval'", "*"} & set(scripts), scripts
    # Nothing but our own origin (and data:/blob: URLs the pages make themselves) anywhere in the policy.
    for name, values in directives.items():
        for value in values:
            assert value.startswith("'") or value in ("data:", "blob:"), f"{name} allows {value}"
    return directives


def test_issue_15_hole_14_the_admin_the_docs_and_the_api_answer_with_a_content_security_policy(client, admin_user):
    anonymous = client.get(reverse("admin:login"))
    assert anonymous.status_code == 200
    _assert_strict_policy(anonymous)

    client.force_login(admin_user)
    for url in (
        reverse("admin:index"),
        reverse("admin:profiles_candidate_changelist"),
        reverse("swagger-ui"),
        reverse("redoc"),
        reverse("api:skill-list"),
        reverse("schema"),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        _assert_strict_policy(response)


@pytest.mark.parametrize(
    "url_name", ["admin:index", "admin:ingestion_importbatch_changelist", "admin:ingestion_importbatch_add"]
)
def test_issue_15_hole_14_every_inline_script_of_the_admin_carries_the_answers_nonce(admin_client, url_name):
    response = admin_client.get(reverse(url_name))

    assert response.status_code == 200
    nonces = {value.removeprefix("'nonce-").removesuffix("'") for value in policy(response)["script-src"]}
    for attributes in INLINE_SCRIPT.findall(response.content.decode()):
        if 'type="application/json"' in attributes:
            continue  # data, never run
        match = re.search(r'nonce="([^"]+)"', attributes)
        assert match, f"an inline script without a nonce: <script{attributes}>"
        assert match.group(1) in nonces
