"""A location line ("City, Region, Country") as a typed Location: the parsers' shared reading of it."""

from __future__ import annotations

from core.countries import country_code
from core.text import clean_text
from ingestion.documents import Location

__all__ = ["location_from_text"]


def location_from_text(line: str) -> Location:
    """Read "City, Region, Country" (one to three comma-separated parts, more are folded into the region).

    One part: a country when it names one, else a city. Two parts: city + country when the second names a country,
    else city + region.
    """
    parts = [p for p in (clean_text(x) for x in (line or "").split(",")) if p]
    if not parts:
        return Location()
    if len(parts) == 1:
        code = country_code(parts[0], allow_codes=False)
        if code:
            return Location(country=parts[0], country_code=code)
        return Location(city=parts[0])
    if len(parts) == 2:
        code = country_code(parts[1], allow_codes=False)
        if code:
            return Location(city=parts[0], country=parts[1], country_code=code)
        return Location(city=parts[0], region=parts[1])
    country = parts[-1]
    return Location(
        city=parts[0],
        region=", ".join(parts[1:-1]),
        country=country,
        country_code=country_code(country),
    )
