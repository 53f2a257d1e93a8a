"""Forged cursors on every keyset-paginated endpoint: a 400 in the error shape or a page, never a 500.

A cursor is base64 of ``{"o": ordering, "v": [value of each ordering key], "r": 0 or 1}``. Whatever a client puts in
its place (nulls where the column has none, strings for ids, numbers past any column, text that is not base64, bytes
that are not UTF-8 or not JSON) must come back as ``cursor: not a cursor this API gave out`` or, for a well-formed
position, as a page.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api.pagination import KeysetPagination
from exports.models import Export
from jobs import services as job_services
from privacy.models import SourcingRecord
from tests.api.conftest import api_views
from tests.api.test_job_match import DESCRIPTION
from tests.api.test_job_match import pool as pool  # the fixture: candidates a description ranks
from tests.factories import ImportBatchFactory, UserFactory

pytestmark = pytest.mark.django_db

NOT_OURS = {
    "error": {
        "code": "invalid",
        "message": "cursor: not a cursor this API gave out",
        "details": {"cursor": ["not a cursor this API gave out"]},
    }
}


def _keyset_routes() -> list[tuple[str, str]]:
    """(name, HTTP method) of every API endpoint whose pages are keyset cursors."""
    return [
        (name, "get" if hasattr(view, "get") else "post")
        for name, view in api_views()
        if issubclass(getattr(view, "pagination_class", None) or object, KeysetPagination)
    ]


KEYSET_ROUTES = _keyset_routes()


def test_the_keyset_endpoints_are_all_found():
    """The walk above finds every list (a new one is tested without being named here)."""
    assert {name for name, _ in KEYSET_ROUTES} >= {
        "candidate-list",
        "candidate-similar",
        "skill-list",
        "repository-list",
        "job-match",
        "job-list",
        "job-matches",
        "import-list",
        "export-list",
        "privacy-notice-list",
    }


@dataclass(frozen=True)
class KeysetEndpoint:
    name: str
    method: str
    url: str
    body: dict | None
    given: dict  # the cursor of the page after the first row, as the API gives it out

    @property
    def ordering(self) -> str:  # "-updated_at,-id"
        return self.given["o"]

    @property
    def values(self) -> list:  # a real position: a value of each ordering key's type
        return self.given["v"]

    def get(self, client: APIClient, cursor: str):
        if self.method == "post":
            return client.post(f"{self.url}?cursor={quote(cursor, safe='')}", self.body, format="json")
        return client.get(self.url, {"cursor": cursor})


@pytest.fixture
def owner(pool):
    """A superuser (every permission) with a row behind every list: a job, an import, an export, a notice due."""
    user = UserFactory(username="cursor-owner", is_staff=True, is_superuser=True)
    job_services.job_create(user=user, title="Backend", description=DESCRIPTION)
    ImportBatchFactory(created_by=user)
    Export.objects.create(owner=user, format="csv", query="")
    SourcingRecord.objects.create(candidate=pool["ada"], notice_due_at=timezone.now() + dt.timedelta(days=3))
    return user


@pytest.fixture
def owner_api(owner) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")
    return client


@pytest.fixture
def endpoint(request, owner_api, owner, pool) -> KeysetEndpoint:
    """The endpoint ``request.param`` names (name, method), and the cursor it gives out after its first row."""
    name, method = request.param
    kwargs = {}
    if name == "candidate-similar":
        kwargs = {"pk": pool["ada"].pk}
    elif name == "job-matches":
        kwargs = {"pk": owner.jobs.get().pk}
    url = reverse(f"api:{name}", kwargs=kwargs)
    body = {"description": DESCRIPTION} if method == "post" else None
    response = owner_api.post(url, body, format="json") if method == "post" else owner_api.get(url)
    assert response.status_code == 200, response.content[:300]
    paginator = response.renderer_context["view"].paginator
    assert paginator.page, f"{name}: no row to take a cursor from"
    link = paginator._link(paginator.page[0], reverse=False)
    given = json.loads(base64.urlsafe_b64decode(parse_qs(urlsplit(link).query)["cursor"][0] + "==="))
    return KeysetEndpoint(name, method, url, body, given)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _cursor(payload) -> str:
    return _b64(json.dumps(payload).encode())


def test_the_forged_cursor_of_the_issue_is_a_400(api):
    """``{"o":"-updated_at,-id","v":[null,null]}``: neither key can be NULL, and the id's NULL was a 500."""
    response = api.get(reverse("api:candidate-list"), {"cursor": _cursor({"o": "-updated_at,-id", "v": [None, None]})})

    assert response.status_code == 400, response.content[:300]
    assert response.json() == NOT_OURS


@pytest.mark.parametrize("endpoint", KEYSET_ROUTES, indirect=True, ids=[name for name, _ in KEYSET_ROUTES])
def test_a_null_for_every_key_is_a_400_on_every_keyset_endpoint(owner_api, endpoint):
    valid = endpoint.get(owner_api, _cursor(endpoint.given))
    nulls = endpoint.get(owner_api, _cursor({"o": endpoint.ordering, "v": [None] * len(endpoint.values)}))

    assert valid.status_code == 200, valid.content[:300]
    assert nulls.status_code == 400, nulls.content[:300]
    assert nulls.json() == NOT_OURS


@pytest.mark.parametrize(
    "values",
    [
        ["2026-01-01T00:00:00+00:00", "12"],  # an id as a string
        ["2026-01-01T00:00:00+00:00", True],  # an id as a boolean
        ["2026-01-01T00:00:00+00:00", 1.5],  # an id as a fraction
        ["2026-01-01T00:00:00+00:00", 2**63],  # past any id
        [1767225600, 1],  # a datetime as a number
        ["2026-01-01", 1],  # a date, not a datetime
        ["2026-01-01T00:00:00", 1],  # without its offset
        ["yesterday", 1],
        [None, 1],  # updated_at is never NULL
    ],
)
def test_a_value_of_the_wrong_type_for_its_key_is_a_400(api, values):
    response = api.get(reverse("api:candidate-list"), {"cursor": _cursor({"o": "-updated_at,-id", "v": values})})

    assert response.status_code == 400, response.content[:300]
    assert response.json() == NOT_OURS


@pytest.mark.parametrize("r", [True, 1.0, "1", [], 2])
def test_the_direction_is_0_or_1_and_nothing_else(api, r):
    cursor = _cursor({"o": "-updated_at,-id", "v": ["2026-01-01T00:00:00+00:00", 1], "r": r})

    response = api.get(reverse("api:candidate-list"), {"cursor": cursor})

    assert (response.status_code, response.json()) == (400, NOT_OURS)


def test_a_null_where_the_column_has_nulls_is_a_position(api):
    """years_coding may be NULL: a cursor at a NULL is one the API gives out (after every number, descending)."""
    cursor = _cursor({"o": "-years_coding,-id", "v": [None, 10**9]})

    response = api.get(reverse("api:candidate-list"), {"cursor": cursor, "ordering": "-years_coding"})

    assert response.status_code == 200, response.content[:300]


# --- Cursors of every shape ----------------------------------------------------------------------------------------

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=12)
    | st.datetimes(
        timezones=st.none()
        | st.builds(dt.timezone, st.timedeltas(min_value=-dt.timedelta(hours=23), max_value=dt.timedelta(hours=23)))
    ).map(dt.datetime.isoformat)
    | st.dates().map(dt.date.isoformat)
)
_JSON = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
)


def _value_like(value) -> st.SearchStrategy:
    """A value in the place of a real one: itself, NULL, or anything else."""
    return st.sampled_from(["itself", "itself", "null", "scalar", "json"]).flatmap(
        lambda kind: {"itself": st.just(value), "null": st.none(), "scalar": _SCALARS, "json": _JSON}[kind]
    )


@st.composite
def _cursors(draw, ordering: str, values: list) -> str:
    """Any text in the cursor's place: mostly payloads with a real position's values, some of them replaced by values
    of any type (NULL, huge numbers, text, dates, lists), and base64 of any JSON, base64 of any bytes, and any text."""
    kind = draw(st.sampled_from(["payload"] * 4 + ["json", "bytes", "text"]))
    if kind == "text":
        return draw(st.text(max_size=40))
    if kind == "bytes":  # base64 of anything: not UTF-8, not JSON, truncated
        return _b64(draw(st.binary(max_size=40)))
    if kind == "json":
        return _cursor(draw(_JSON))
    # Three in four: this endpoint's ordering; three in four: a value for each key, each kept, NULL or anything.
    payload = {"o": ordering if draw(st.integers(0, 3)) else draw(st.text(max_size=12))}
    if draw(st.integers(0, 3)):
        payload["v"] = [draw(_value_like(value)) for value in values]
    else:
        payload["v"] = draw(st.lists(_JSON, max_size=len(values) + 1))
    if draw(st.booleans()):
        payload["r"] = draw(st.sampled_from([0, 1]) | _JSON)
    if draw(st.integers(0, 9)) == 0:
        payload[draw(st.text(max_size=3))] = draw(_JSON)
    return _cursor(payload)


@pytest.mark.parametrize("endpoint", KEYSET_ROUTES, indirect=True, ids=[name for name, _ in KEYSET_ROUTES])
def test_any_cursor_is_a_page_or_a_400_in_the_error_shape_on_every_keyset_endpoint(owner_api, endpoint):
    @given(cursor=_cursors(endpoint.ordering, endpoint.values))
    @settings(
        derandomize=True,  # the same cursors on every run of the normal suite
        max_examples=100,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    def answers(cursor: str):
        with transaction.atomic():  # a database error must fail this example alone, not the ones after it
            response = endpoint.get(owner_api, cursor)
        assert response.status_code in (200, 400), (cursor, response.content[:300])
        assert response["Content-Type"] == "application/json"
        if response.status_code == 400:
            error = response.json()["error"]
            assert (error["code"], set(error["details"])) == ("invalid", {"cursor"}), (cursor, error)
            assert error["message"].startswith("cursor: "), (cursor, error)

    answers()
