"""How the loader's Python values travel to PostgreSQL: JSON by orjson."""

from __future__ import annotations

import json

import orjson
from psycopg.types.json import Jsonb


def _json_dumps(value) -> bytes | str:
    """orjson, several times faster than psycopg's default (the standard library's json); that one still takes what
    orjson refuses (a lone surrogate, which PostgreSQL then rejects like any other value holding one)."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value)


def jsonb(value) -> Jsonb:
    return Jsonb(value, dumps=_json_dumps)
