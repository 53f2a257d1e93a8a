"""The API's JSON request parser: DRF's, with a body nested too deeply for the decoder refused as a 400.

The standard library's decoder recurses once per nested array or object and raises RecursionError past the
interpreter's limit (about a thousand levels, ``"[" * 1200 + "]" * 1200``). DRF's parser lets that through as a 500
with Django's HTML page; here it is a ParseError, which the exception handler answers in the API's error shape like
any body that does not parse. Our bodies are a few levels deep. Set as ``DEFAULT_PARSER_CLASSES``' JSON parser, so
that every view that reads JSON reads it here.
"""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError("JSON parse error - nested too deeply") from exc
