"""api.renderers.JSONRenderer writes the bytes DRF's JSONRenderer writes, only faster."""

import datetime as dt
import decimal
import json
import uuid
from collections import OrderedDict

import pytest
from django.utils.translation import gettext_lazy
from rest_framework import renderers
from rest_framework.exceptions import ErrorDetail
from rest_framework.utils.serializer_helpers import ReturnDict, ReturnList

from api.renderers import JSONRenderer

pytestmark = pytest.mark.django_db


PAYLOAD = OrderedDict(
    [
        ("next", "http://testserver/api/v1/candidates/?cursor=eyJvIjoiLW1hdGNoIn0&skill=python%3A8"),
        ("previous", None),
        (
            "results",
            ReturnList(
                [
                    ReturnDict(
                        {
                            "id": 9007199254740993,  # beyond a double's integers: must stay exact
                            "name": "Jürgen Wéi 魏金亮 <script>alert(1)</script>",
                            "summary": 'line\u2028separator and\u2029paragraph, "quotes", \\, \t, \x00',
                            "badges": ["Rockstar", "Top School"],
                            "match": 85,
                            "rank": 0.0607927,
                            "active": True,
                            "years_coding": None,
                            "updated_at": dt.datetime(2026, 11, 30, 17, 42, 25, 123456, tzinfo=dt.UTC),
                            "born": dt.date(1990, 1, 2),
                            "at": dt.time(9, 30, 15, 250000),
                            "salary": decimal.Decimal("1234.50"),
                            "uuid": uuid.UUID("12345678-1234-5678-1234-567812345678"),
                            "label": gettext_lazy("Skills"),
                            "scores": {5: 8, 4: 7},
                        },
                        serializer=None,
                    )
                ],
                serializer=None,
            ),
        ),
        ("errors", {"skill": [ErrorDetail("'python:eleven' is not slug", code="invalid")]}),
    ]
)


def test_compact_output_is_byte_for_byte_drfs():
    ours = JSONRenderer().render(PAYLOAD, "application/json", {})
    drfs = renderers.JSONRenderer().render(PAYLOAD, "application/json", {})

    assert ours == drfs
    assert b"\\u2028" in ours  # still a JavaScript-safe string
    assert json.loads(ours)["results"][0]["id"] == 9007199254740993


def test_indented_output_is_drfs():
    ours = JSONRenderer().render(PAYLOAD, "application/json; indent=2", {})

    assert ours == renderers.JSONRenderer().render(PAYLOAD, "application/json; indent=2", {})
    assert b'\n  "next"' in ours


def test_nothing_renders_as_nothing():
    assert JSONRenderer().render(None) == b""


def test_the_api_answers_with_it(api):
    response = api.get("/api/v1/skills/", {"search": "pyth"})

    assert response.status_code == 200
    assert isinstance(response.accepted_renderer, JSONRenderer)
    assert response.content == renderers.JSONRenderer().render(response.data, "application/json", {})
    assert any(skill["slug"] == "python" for skill in response.json()["results"])
