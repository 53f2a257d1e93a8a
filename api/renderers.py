"""JSON responses encoded by orjson.

A page of 50 candidates is ~1,000 skill objects, and encoding them in Python was a visible share of a request
(docs/benchmarks-history.md); orjson encodes them in C. The output is DRF's JSONRenderer's (compact, UTF-8, U+2028 /
U+2029 escaped): values orjson does not encode itself (datetimes, decimals, lazy strings, ...) go through DRF's own
encoder, and a request for indented JSON (the browsable API, ``Accept: application/json; indent=2``) is rendered by
DRF. One difference: a NaN or infinite float (none of our fields holds one) becomes ``null`` where DRF's strict
encoder raises.
"""

from __future__ import annotations

import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

# DRF's fallback for the values JSON has no type for; orjson calls it for anything it does not encode natively.
_drf_default = JSONEncoder().default
# Datetimes through DRF's encoder too (it writes UTC as "Z" and keeps milliseconds, orjson would not); keys may be
# integers, as the standard library allows.
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        if data is None:
            return b""
        if self.get_indent(accepted_media_type, renderer_context or {}) is not None:
            return super().render(data, accepted_media_type, renderer_context)
        encoded = orjson.dumps(data, default=_drf_default, option=_OPTIONS)
        # JSON that is also valid JavaScript, as DRF's renderer writes it.
        return encoded.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
