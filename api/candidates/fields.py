"""Fields the candidate shapes share with the ranked pages' rows: a month as YYYY-MM, a rounded relevance,
a candidate's location and the candidate URL written without reversing a route per row."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from profiles.models import Candidate


def year_month(value) -> str | None:
    return value.strftime("%Y-%m") if value else None


# A month as the API writes it: "2021-03", null when the file gave none (or, for an end, while the job is current).
MONTH_SCHEMA = {"type": "string", "nullable": True, "pattern": r"^\d{4}-\d{2}$"}


class MonthField(serializers.ReadOnlyField):
    """A date column read as its month, ``YYYY-MM`` or null."""

    def to_representation(self, value) -> str | None:
        return year_month(value)


extend_schema_field(MONTH_SCHEMA)(MonthField)


# PostgreSQL's ts_rank is a float4 ratio with every digit it has, and 1e-20 where a query leaves it nothing to weigh (a
# word that must be absent, words far apart); four decimals are what a reader can compare. The ordering and the
# cursors use the unrounded value, so rows that show the same rank keep their order.
RANK_DECIMALS = 4


def readable_rank(value: float | None) -> float | None:
    return None if value is None else round(float(value), RANK_DECIMALS)


class RankField(serializers.FloatField):
    """``q``'s full-text relevance, rounded to ``RANK_DECIMALS``."""

    def to_representation(self, value) -> float | None:
        return readable_rank(value)


class LocationSerializer(serializers.Serializer):
    city = serializers.CharField()
    region = serializers.CharField()
    country = serializers.CharField()
    country_code = serializers.CharField(help_text="ISO 3166-1 alpha-2; empty when unknown.")


def candidate_location(candidate: Candidate) -> dict:
    """A candidate's ``location`` object (LocationSerializer's shape), as every candidate answer writes it."""
    return {
        "city": candidate.city,
        "region": candidate.region,
        "country": candidate.country,
        "country_code": candidate.country_code,
    }


class IdentityUrlField(serializers.HyperlinkedIdentityField):
    """A HyperlinkedIdentityField that reverses the URL once per response and formats it for each row, instead of
    resolving the URL pattern again for every candidate of a page. The placeholder goes through the real URL pattern,
    so the routing stays the one source of the URL."""

    _PLACEHOLDER = 987654321987654321

    def get_url(self, obj, view_name, request, format):
        pk = getattr(obj, self.lookup_field)
        if pk is None:
            return None
        cache_key = (view_name, id(request), format)
        cached = getattr(self, "_url_template", None)
        if cached is None or cached[0] != cache_key:
            placeholder = type("Placeholder", (), {self.lookup_field: self._PLACEHOLDER})()
            url = super().get_url(placeholder, view_name, request, format)
            self._url_template = cached = (cache_key, url.replace(str(self._PLACEHOLDER), "{}"))
        return cached[1].format(pk)
