"""Keyset (cursor) pagination over any total ordering, annotations included.

DRF's CursorPagination positions on the first ordering field plus an offset, which degrades on orderings with many
ties (hundreds of candidates share a ``match`` of 90). This paginator reads the queryset's own ``order_by`` (which must
end with the primary key, as ``candidate_search`` guarantees) and encodes the values of every key of the last row in
the cursor; the next page is ``WHERE (k1, id) < (v1, v_id)`` in the ordering's direction, written so that PostgreSQL can
use the index of the leading key. Stable while imports run: rows never shift between pages.

A cursor is opaque, not unforgeable: whatever a client sends in its place is a 400 (``not a cursor this API gave
out``), never an error of the JSON decoder, the driver or the database.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Q, QuerySet
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import BasePagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from profiles.search.backends.base import Page


class KeysetPagination(BasePagination):
    cursor_query_param = "cursor"
    page_size_query_param = "page_size"

    def __init__(self):
        self.page_size = settings.API_PAGE_SIZE
        self.max_page_size = settings.API_MAX_PAGE_SIZE

    # --- Request parsing ---------------------------------------------------------------------------------------

    def get_page_size(self, request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isdigit() or not 1 <= int(raw) <= self.max_page_size:
            raise ValidationError({self.page_size_query_param: [f"a whole number from 1 to {self.max_page_size}"]})
        return int(raw)

    def _decode_cursor(self, request, keys: list[OrderKey], queryset: QuerySet) -> tuple[list, bool] | None:
        raw = request.query_params.get(self.cursor_query_param)
        if raw is None:
            return None
        try:
            data = _cursor_payload(raw)
            if data["o"] != _ordering_label(keys) or len(data["v"]) != len(keys):
                raise ValidationError({self.cursor_query_param: ["belongs to another ordering or filter"]})
            values = [
                _cursor_value(key, _output_field(queryset, key.name), value)
                for key, value in zip(keys, data["v"], strict=True)
            ]
            return values, bool(data.get("r"))
        except (
            ValueError,
            KeyError,
            TypeError,
            OverflowError,
            binascii.Error,
            UnicodeError,
            DjangoValidationError,
        ) as exc:
            raise ValidationError({self.cursor_query_param: ["not a cursor this API gave out"]}) from exc

    # --- Paging ------------------------------------------------------------------------------------------------

    def paginate_queryset(self, queryset: QuerySet, request, view=None) -> list:
        self.request = request
        self.base_url = request.build_absolute_uri()
        size = self.get_page_size(request)
        keys = _ordering_keys(queryset)
        self.keys = keys
        cursor = self._decode_cursor(request, keys, queryset)
        reverse = bool(cursor and cursor[1])
        if cursor:
            queryset = queryset.filter(_after(keys, cursor[0], reverse=reverse))
        if reverse:
            queryset = queryset.reverse()
        rows = list(queryset[: size + 1])
        has_more = len(rows) > size
        rows = rows[:size]
        if reverse:
            rows.reverse()
            self.has_next, self.has_previous = True, has_more
        else:
            self.has_next, self.has_previous = has_more, cursor is not None
        self.page = rows
        return rows

    def _link(self, row, *, reverse: bool) -> str:
        values = [_jsonable(getattr(row, key.name)) for key in self.keys]
        payload = {"o": _ordering_label(self.keys), "v": values}
        if reverse:
            payload["r"] = 1
        token = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode()).rstrip(b"=")
        return replace_query_param(self.base_url, self.cursor_query_param, token.decode("ascii"))

    def get_next_link(self) -> str | None:
        if not self.has_next or not self.page:
            return None
        return self._link(self.page[-1], reverse=False)

    def get_previous_link(self) -> str | None:
        if not self.has_previous:
            return None
        if not self.page:  # ran past the end: the first page is as good a way back as any
            return remove_query_param(self.base_url, self.cursor_query_param)
        return self._link(self.page[0], reverse=True)

    def get_paginated_response(self, data) -> Response:
        return Response(
            OrderedDict([("next", self.get_next_link()), ("previous", self.get_previous_link()), ("results", data)])
        )

    def get_paginated_response_schema(self, schema: dict) -> dict:
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {
                "next": {"type": "string", "format": "uri", "nullable": True, "description": "The next page."},
                "previous": {"type": "string", "format": "uri", "nullable": True, "description": "The page before."},
                "results": schema,
            },
        }

    def get_schema_operation_parameters(self, view) -> list[dict]:
        return [
            {
                "name": self.cursor_query_param,
                "required": False,
                "in": "query",
                "description": "Opaque position from a `next` or `previous` link.",
                "schema": {"type": "string"},
            },
            {
                "name": self.page_size_query_param,
                "required": False,
                "in": "query",
                "description": f"Results per page (default {self.page_size}, at most {self.max_page_size}).",
                "schema": {"type": "integer", "minimum": 1, "maximum": self.max_page_size},
            },
        ]


# The candidate list's order by ``q``'s relevance, as its cursors name it.
TEXT_ORDERING = "-rank,-id"
_MAX_ID = 2**63 - 1


class TextPagination(KeysetPagination):
    """``KeysetPagination``, and for an order by ``q``'s relevance whose page the search backend cuts
    (``profiles.search.text_pages``), cursors that carry the backend's key: ``{"o": "-rank,-id", "v": key}``. The
    SQL backend's key is the keyset's own ``(relevance, id)``, so a cursor of either path reads on the other; the
    index's is ``(tag, score, id)``, and the backend in use decides what an other's key means.

    The backend reads forward only: a text page's ``previous`` is the first page, and a backwards cursor (a
    ``previous`` link the keyset gave out) is the keyset's to answer (``text_page_wanted`` returns None)."""

    def __init__(self):
        super().__init__()
        self.text_after: tuple | None = None
        self.text_mode = False

    def text_page_wanted(self, request) -> Page | None:
        """The ``Page`` of the text order the request asks for, or None for a backwards cursor. A 400 for a cursor
        the API did not give, or one of another ordering."""
        self.request = request
        self.base_url = request.build_absolute_uri()
        size = self.get_page_size(request)
        raw = request.query_params.get(self.cursor_query_param)
        if raw is None:
            return Page(limit=size)
        try:
            data = _cursor_payload(raw)
            if data["o"] != TEXT_ORDERING:
                raise ValidationError({self.cursor_query_param: ["belongs to another ordering or filter"]})
            key = _text_key(data["v"])
        except (ValueError, binascii.Error, UnicodeError) as exc:
            raise ValidationError({self.cursor_query_param: ["not a cursor this API gave out"]}) from exc
        if data.get("r"):
            return None
        return Page(limit=size, after=key)

    def keep_text_page(self, rows: list, *, page: Page, last_key: tuple | None, has_more: bool) -> list:
        """The rows of the page ``text_page_wanted`` asked for, and what its links need."""
        self.text_mode = True
        self.page = rows
        self.text_after = last_key
        self.has_next = has_more and last_key is not None
        self.has_previous = page.after is not None
        return rows

    def get_next_link(self) -> str | None:
        if not self.text_mode:
            return super().get_next_link()
        if not self.has_next:
            return None
        payload = {"o": TEXT_ORDERING, "v": list(self.text_after)}
        token = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode()).rstrip(b"=")
        return replace_query_param(self.base_url, self.cursor_query_param, token.decode("ascii"))

    def get_previous_link(self) -> str | None:
        if not self.text_mode:
            return super().get_previous_link()
        return remove_query_param(self.base_url, self.cursor_query_param) if self.has_previous else None


def _text_key(values: list) -> tuple:
    """A text key as a cursor carries it: ``(relevance, id)`` or ``(tag, relevance, id)``, the relevance a finite
    number and the id a candidate's; ValueError for anything else."""
    *head, relevance, pk = values
    if len(head) > 1 or (head and not isinstance(head[0], str)):
        raise ValueError("not a text key's shape")
    if type(pk) is not int or not 1 <= pk <= _MAX_ID:
        raise ValueError("not a candidate id")
    if type(relevance) not in (int, float) or not math.isfinite(relevance):
        raise ValueError("not a relevance")
    return tuple(values)


@dataclass(frozen=True, slots=True)
class OrderKey:
    name: str
    descending: bool
    nullable: bool


def _ordering_keys(queryset: QuerySet) -> list[OrderKey]:
    """The keys of the queryset's ordering (model fields or annotations); the last must be the primary key."""
    order_by = list(queryset.query.order_by) or list(queryset.model._meta.ordering)
    keys = []
    for item in order_by:
        if not isinstance(item, str):
            raise TypeError(f"KeysetPagination orders by names, not {item!r}")
        name = item.lstrip("-")
        keys.append(OrderKey(name, item.startswith("-"), bool(getattr(_output_field(queryset, name), "null", False))))
    if not keys or keys[-1].name not in ("id", "pk"):
        raise TypeError("KeysetPagination needs an ordering that ends with the primary key")
    return keys


def _ordering_label(keys: list[OrderKey]) -> str:
    return ",".join(("-" if key.descending else "") + key.name for key in keys)


def _output_field(queryset: QuerySet, name: str):
    if name in queryset.query.annotations:
        return queryset.query.annotations[name].output_field
    return queryset.model._meta.get_field(name)


def _cursor_payload(raw: str) -> dict:
    """The decoded cursor, ``{"o": ordering label, "v": [scalar, ...], "r": 0 or 1}``; ValueError for anything else.

    Each value is a JSON scalar, and a string one PostgreSQL can hold: a NUL made the driver's DataError, a lone
    surrogate (``"\\ud800"``, which JSON may spell) its UnicodeEncodeError.
    """
    try:
        data = json.loads(base64.urlsafe_b64decode(raw.encode("ascii") + b"==="))
    except RecursionError as exc:  # `[[[[…` nested past the decoder's depth limit
        raise ValueError("nested too deep") from exc
    if not (
        isinstance(data, dict)
        and set(data) <= {"o", "v", "r"}
        and isinstance(data.get("o"), str)
        and isinstance(data.get("v"), list)
        and type(data.get("r", 0)) is int  # not True, not 1.0
        and data.get("r", 0) in (0, 1)
    ):
        raise ValueError("not a cursor's shape")
    for value in data["v"]:
        if not (value is None or isinstance(value, bool | int | float | str)):
            raise ValueError("not a scalar")
        if isinstance(value, str) and "\x00" in value:
            raise ValueError("a NUL character")
        if isinstance(value, str):
            value.encode("utf-8")  # UnicodeEncodeError on a lone surrogate
    return data


def _cursor_value(key: OrderKey, field, value):
    """A cursor's value as the query compares it, or ValueError (ValidationError) unless it is one the API writes for
    its key (``_jsonable``): NULL only where the column has NULLs, an integer (not a string, a boolean or a fraction)
    within the column's range, a string within its length, a datetime in ISO 8601 with its UTC offset. Datetimes are
    compared in UTC, since PostgreSQL refuses the UTC offsets past ±15:59 that Python reads."""
    if value is None:
        if not key.nullable:
            raise ValueError(f"{key.name} is never NULL")
        return None
    while field.is_relation:  # a foreign key holds its target's values
        field = field.target_field
    python = field.to_python(value)
    field.run_validators(python)
    written = _jsonable(python)
    if type(written) is not type(value) or written != value:  # "12" for 12, True for 1, 1.5 for 1, NaN
        raise ValueError(f"not a value of {key.name}")
    if isinstance(python, datetime):
        if python.tzinfo is None:
            raise ValueError("a datetime without its UTC offset")
        return python.astimezone(UTC)
    return python


def _jsonable(value):
    return value.isoformat() if isinstance(value, datetime) else value


def _after(keys: list[OrderKey], values: list, *, reverse: bool) -> Q:
    """Rows strictly after ``values`` in the ordering (before them when ``reverse``), ties broken by the last key.

    PostgreSQL sorts NULL as the largest value (last ascending, first descending), so NULLs follow that rule here.
    Each level is written ``k <= v AND (k < v OR <rest>)`` (for descending keys) so the leading key bounds an index.
    """
    key, *rest = keys
    name, value, desc = key.name, values[0], key.descending != reverse
    if not rest:
        return Q(**{f"{name}__lt" if desc else f"{name}__gt": value})
    tail = _after(rest, values[1:], reverse=reverse)
    if value is None:
        # At NULL: more NULLs after it (by the tiebreak), then, descending, every non-NULL value.
        null_tail = Q(**{f"{name}__isnull": True}) & tail
        return null_tail | Q(**{f"{name}__isnull": False}) if desc else null_tail
    bound, strict = (f"{name}__lte", f"{name}__lt") if desc else (f"{name}__gte", f"{name}__gt")
    after = Q(**{bound: value}) & (Q(**{strict: value}) | tail)
    return after | Q(**{f"{name}__isnull": True}) if key.nullable and not desc else after
