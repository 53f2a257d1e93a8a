"""Every URL the project serves, found by walking the URL configuration, refuses who may not use it.

A new endpoint is tested the day it is added: an API URL must be given a policy below, anything outside the API and
the admin must be put on the short allow-list on purpose.
"""

import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from tests.security.conftest import Endpoint, concrete_endpoints, database_fingerprint, post_forms

pytestmark = pytest.mark.django_db

# Open to anyone: the load balancer's probe, and the admin's way in and out. Static files are served by WhiteNoise
# before the URL configuration is consulted.
# "home" only redirects to the admin index, which asks for the login.
PUBLIC = {"healthz", "home", "admin:login", "admin:logout"}

# What an authenticated user needs on each API endpoint (issue 4: read-only access for any API consumer, imports need
# the import permission). GET of READ endpoints is open to every logged-in user; every other method is refused.
READ, IMPORT, VIEW_CANDIDATES, JOBS = "read", "import", "view candidates", "jobs"
API_POLICY = {
    "api:root": READ,  # links only, behind the same login
    "api:candidate-list": READ,
    "api:candidate-export-csv": READ,
    "api:candidate-export-jsonl": READ,
    "api:candidate-detail": READ,
    "api:skill-list": READ,
    "api:skill-related": READ,
    "api:repository-list": READ,
    "api:import-list": IMPORT,
    "api:import-detail": READ,
    "api:export-list": IMPORT,  # like imports: starting a job needs a permission (exports.add_export)
    "api:export-detail": READ,
    "api:export-download": READ,
    # POST reads (a description does not fit a URL), with the candidate view permission (profiles.view_candidate).
    "api:job-match": VIEW_CANDIDATES,
    "api:candidate-similar": VIEW_CANDIDATES,  # ranked like a job match: the candidate view permission
    # Stored jobs: reading needs jobs.view_job, writing jobs.add_job / jobs.change_job, and a job's owner changes it.
    "api:job-list": JOBS,
    "api:job-detail": JOBS,
    "api:job-pipeline": JOBS,
    "api:job-matches": JOBS,  # a stored job's ranking: jobs.view_job and profiles.view_candidate
    # Privacy notices not sent yet (issue 18): privacy.view_sourcingrecord, the Privacy officer group's.
    "api:privacy-notice-list": "privacy officers",
    "schema": READ,
    "swagger-ui": READ,
    "redoc": READ,
}
# The API docs are HTML pages for people: anonymous visitors are sent to the login page (issue 15, hole 14).
DOCS_PAGES = {"swagger-ui", "redoc"}
UNSAFE = ("post", "put", "patch", "delete")

# Admin pages a staff member without any model permission may open: they show nothing of the data.
STAFF_SITE_PAGES = {
    "admin:index",
    "admin:login",
    "admin:logout",
    "admin:password_change",
    "admin:password_change_done",
    "admin:jsi18n",
}


@pytest.fixture
def endpoints(one_of_everything) -> list[Endpoint]:
    return concrete_endpoints()


def _is_api_error(response, *statuses: int) -> bool:
    if response.status_code not in statuses:
        return False
    if "json" not in response.get("Content-Type", ""):
        return True  # the Swagger page answers in HTML; its status is what matters
    body = response.json()
    return set(body) == {"error"} and {"code", "message"} <= set(body["error"]) and body["error"]["message"]


def _is_login_redirect(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(reverse("admin:login") + "?next=")


def unclassified(endpoints: list[Endpoint]) -> list[str]:
    """URLs outside /api/ and /admin/ that are not public on purpose, and API URLs without a declared policy."""
    stray = [e.url for e in endpoints if e.area == "site" and e.name not in PUBLIC]
    undeclared = [e.url for e in endpoints if e.area == "api" and e.name not in API_POLICY]
    return stray + undeclared


def test_every_url_is_either_public_on_purpose_or_in_the_api_or_the_admin(endpoints):
    assert len(endpoints) > 50
    assert unclassified(endpoints) == [], "protect these URLs, or declare them in PUBLIC / API_POLICY on purpose"


def anonymous_failures(client, endpoints: list[Endpoint]) -> list[str]:
    failures = []
    for endpoint in endpoints:
        if endpoint.name in PUBLIC:
            continue
        if endpoint.area == "api":
            accept = "text/html" if endpoint.name in DOCS_PAGES else "application/json"
            for method in ("get", *UNSAFE):
                response = getattr(client, method)(endpoint.url, HTTP_ACCEPT=accept)
                docs_login = endpoint.name in DOCS_PAGES and method == "get" and _is_login_redirect(response)
                if not (docs_login or _is_api_error(response, 401, 403)):
                    failures.append(f"{method.upper()} {endpoint.url}: {response.status_code}")
        else:
            for method in ("get", "post"):
                response = getattr(client, method)(endpoint.url)
                if not _is_login_redirect(response):
                    failures.append(f"{method.upper()} {endpoint.url}: {response.status_code}")
    return failures


def test_anonymous_visitors_are_refused_by_every_api_endpoint_and_admin_page(client, endpoints):
    failures = anonymous_failures(client, endpoints)
    assert failures == [], "\n".join(failures)


def test_the_walk_catches_a_new_endpoint_that_forgot_its_protection(client, settings, one_of_everything):
    settings.ROOT_URLCONF = "tests.security.leaky_urls"

    endpoints = concrete_endpoints()
    failures = anonymous_failures(client, endpoints)

    assert set(unclassified(endpoints)) == {"/api/v1/leak/", "/admin-reports/"}
    assert "GET /api/v1/leak/: 200" in failures


def test_api_tokens_that_do_not_exist_are_refused(client, endpoints):
    for endpoint in (e for e in endpoints if e.area == "api"):
        accept = "text/html" if endpoint.name in DOCS_PAGES else "application/json"
        response = client.get(endpoint.url, HTTP_AUTHORIZATION="Token not-a-real-token", HTTP_ACCEPT=accept)
        assert _is_api_error(response, 401, 403), endpoint.url


def test_the_swagger_page_refuses_a_bad_token_that_asks_for_json_without_a_server_error(client):
    client.raise_request_exception = False

    response = client.get(reverse("swagger-ui"), HTTP_AUTHORIZATION="Token nope", HTTP_ACCEPT="application/json")

    # The page is HTML only: content negotiation refuses the JSON request before authentication runs.
    assert response.status_code == 406
    assert response.json()["error"]["code"] == "not_acceptable"


@pytest.mark.parametrize("auth", ["session", "token"])
def test_a_user_without_permissions_may_only_read_the_api_and_never_enter_the_admin(
    client, endpoints, nobody, token_of, one_of_everything, auth
):
    credentials = {}
    if auth == "session":
        client.force_login(nobody)
    else:
        credentials = {"HTTP_AUTHORIZATION": f"Token {token_of(nobody)}"}
    failures = []
    for endpoint in endpoints:
        if endpoint.name in PUBLIC:
            continue
        if endpoint.area == "admin":
            response = client.get(endpoint.url, **credentials)
            if not _is_login_redirect(response):
                failures.append(f"GET {endpoint.url}: {response.status_code}")
            continue
        accept = "text/html" if endpoint.name in DOCS_PAGES else "application/json"
        for method in UNSAFE:
            response = getattr(client, method)(endpoint.url, HTTP_ACCEPT=accept, **credentials)
            if not _is_api_error(response, 403, 405):
                failures.append(f"{method.upper()} {endpoint.url}: {response.status_code}")
    # Someone else's import batch is not even shown to exist.
    batch_url = reverse("api:import-detail", args=[one_of_everything["batch"].pk])
    response = client.get(batch_url, HTTP_ACCEPT="application/json", **credentials)
    if response.status_code != 404:
        failures.append(f"GET {batch_url} (another user's batch): {response.status_code}")
    assert failures == [], "\n".join(failures)


def test_uploading_needs_the_import_permission(client, nobody, token_of):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        reverse("api:import-list"),
        {"files": [SimpleUploadedFile("a.txt", b"Ada Lovelace\nEngineer\nLondon, England, United Kingdom\n")]},
        HTTP_AUTHORIZATION=f"Token {token_of(nobody)}",
    )

    assert _is_api_error(response, 403)
    assert "import permission" in response.json()["error"]["message"]


def test_a_staff_member_without_permissions_sees_no_data_in_the_admin(client, endpoints, staff_nobody):
    client.force_login(staff_nobody)
    failures = []
    for endpoint in endpoints:
        if endpoint.area != "admin" or endpoint.name in STAFF_SITE_PAGES | PUBLIC:
            continue
        if endpoint.name == "admin:view_on_site":
            continue  # redirects to the object's own page (none here), which does its own checks
        for method in ("get", "post"):
            response = getattr(client, method)(endpoint.url)
            if response.status_code in (403, 404, 405):
                continue
            if response.status_code == 302 and response["Location"] == f"{endpoint.url}change/":
                continue  # the admin's old object URL forwards to the change page, which refuses (checked too)
            failures.append(f"{method.upper()} {endpoint.url}: {response.status_code}")
    index = client.get(reverse("admin:index"))
    assert index.status_code == 200
    assert not index.context["app_list"], "the admin index lists models to a user without permissions"
    assert failures == [], "\n".join(failures)


# Admin URLs whose POST writes a model (the change, add and delete forms, simple-history's revert form): a Viewer is
# refused. (A Viewer's own password is theirs to change: admin:password_change is a staff page, not a model's.)
_WRITING_ADMIN_URL = re.compile(r"_(add|change|delete|simple_history)$")


def _model_ids(endpoint: Endpoint) -> list[str]:
    match = re.match(r"/admin/(\w+)/(\w+)/", endpoint.url)
    if not match:
        return []
    try:
        model = apps.get_model(match.group(1), match.group(2))
    except LookupError:
        return []
    return [str(pk) for pk in model._default_manager.order_by("pk").values_list("pk", flat=True)[:20]]


def _plausible_posts(superuser: Client, endpoint: Endpoint) -> list[dict]:
    """What a browser of a user allowed everything would post to this URL: each form of the page as the superuser sees
    it, with the buttons that save, confirm or apply pressed, and every action of a changelist run on every row."""
    buttons = {"_save": "Save", "post": "yes", "apply": "1"}
    page = superuser.get(endpoint.url, follow=True)
    html = page.content.decode(errors="replace") if "html" in page.get("Content-Type", "") else ""
    posts = [{**form.data(), **buttons} for form in post_forms(html)] or [buttons]
    for form in post_forms(html):
        for action in (a for a in form.options.get("action", []) if a):
            posts.append(
                {
                    **form.data(),
                    **buttons,
                    "action": action,
                    "_selected_action": _model_ids(endpoint),
                    "select_across": "0",
                    "index": "0",
                    "new_name": "Written by a viewer",
                }
            )
    return posts


def test_a_viewer_changes_nothing_by_posting_to_any_admin_url(endpoints, viewer, one_of_everything):
    """Issue 15, hole 1 and its "Done when": every admin URL, posted to by a Viewer with a valid CSRF token and the
    data a superuser's browser would send, leaves every table as it was; a URL that writes answers 403."""
    superuser = Client()
    superuser.force_login(one_of_everything["owner"])
    client = Client(enforce_csrf_checks=True)
    client.force_login(viewer)
    index = client.get(reverse("admin:index")).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', index).group(1)
    failures, posted = [], 0
    for endpoint in endpoints:
        if endpoint.area != "admin" or endpoint.name in PUBLIC or endpoint.name == "admin:view_on_site":
            continue  # logging in or out is not a write of data; view_on_site only redirects
        for data in _plausible_posts(superuser, endpoint):
            before = database_fingerprint()
            response = client.post(endpoint.url, {**data, "csrfmiddlewaretoken": token})
            if getattr(response, "streaming", False):
                b"".join(response.streaming_content)
            after = database_fingerprint()
            posted += 1
            changed = sorted(table for table in after if after[table] != before.get(table))
            what = f"POST {endpoint.url} ({data.get('action') or 'form'}): {response.status_code}"
            if changed:
                failures.append(f"{what} changed {', '.join(changed)}")
            elif response.status_code >= 500:
                failures.append(what)
            elif (
                _WRITING_ADMIN_URL.search(endpoint.name)
                and endpoint.name not in STAFF_SITE_PAGES
                and not (response.status_code in (403, 405) or _is_login_redirect(response))
            ):
                failures.append(f"{what}, not refused")
    assert posted > 60
    assert failures == [], "\n".join(failures)
