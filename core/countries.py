"""Countries: ISO 3166-1 codes from names, common names and codes, and display names (pycountry's bundled data).

Django-free and offline.
"""

from __future__ import annotations

import functools
import unicodedata

import pycountry

from core.text import clean_text

__all__ = ["COUNTRY_ALIASES", "country_code", "country_name", "is_country_name"]

# Common names pycountry does not resolve by itself (keys are casefolded, dots removed).
COUNTRY_ALIASES: dict[str, str] = {
    "usa": "US",
    "us": "US",
    "united states of america": "US",
    "america": "US",
    "the united states": "US",
    "uk": "GB",
    "united kingdom": "GB",
    "great britain": "GB",
    "britain": "GB",
    "england": "GB",
    "scotland": "GB",
    "wales": "GB",
    "northern ireland": "GB",
    "russia": "RU",
    "south korea": "KR",
    "korea": "KR",
    "republic of korea": "KR",
    "north korea": "KP",
    "turkey": "TR",
    "turkiye": "TR",
    "ivory coast": "CI",
    "cote d'ivoire": "CI",
    "palestine": "PS",
    "macedonia": "MK",
    "holland": "NL",
    "the netherlands": "NL",
    "brunei": "BN",
    "cape verde": "CV",
    "drc": "CD",
    "dr congo": "CD",
    "democratic republic of the congo": "CD",
    "republic of the congo": "CG",
    "micronesia": "FM",
    "swaziland": "SZ",
    "burma": "MM",
    "east timor": "TL",
    "vatican": "VA",
    "vatican city": "VA",
    "uae": "AE",
    "czech republic": "CZ",
    "the bahamas": "BS",
    "the gambia": "GM",
    "prc": "CN",
    "mainland china": "CN",
    "hong kong sar": "HK",
    "macau": "MO",
    "kosovo": "XK",
    # The names CVs in German, French, Spanish, Portuguese and Italian give their own and their neighbours' countries.
    "deutschland": "DE",
    "allemagne": "DE",
    "alemania": "DE",
    "alemanha": "DE",
    "germania": "DE",
    "osterreich": "AT",
    "autriche": "AT",
    "schweiz": "CH",
    "suisse": "CH",
    "svizzera": "CH",
    "suiza": "CH",
    "espana": "ES",
    "espagne": "ES",
    "spanien": "ES",
    "spagna": "ES",
    "espanha": "ES",
    "italia": "IT",
    "italie": "IT",
    "italien": "IT",
    "frankreich": "FR",
    "francia": "FR",
    "franca": "FR",
    "brasil": "BR",
    "belgique": "BE",
    "belgien": "BE",
    "belgie": "BE",
    "nederland": "NL",
    "niederlande": "NL",
    "pays-bas": "NL",
    "paesi bassi": "NL",
    "paises bajos": "NL",
    "royaume-uni": "GB",
    "reino unido": "GB",
    "regno unito": "GB",
    "grossbritannien": "GB",
    "mexico": "MX",
    "polska": "PL",
    "polen": "PL",
    "portogallo": "PT",
}

# Names that pycountry does not carry at all (alpha-2 -> display name).
_EXTRA_COUNTRY_NAMES = {"XK": "Kosovo"}


def _country_alias_key(s: str) -> str:
    s = clean_text(s).casefold().replace(".", "").replace("\u2019", "'")
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return s.strip()


@functools.cache
def _country_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for country in pycountry.countries:
        for attr in ("name", "common_name", "official_name"):
            value = getattr(country, attr, None)
            if value:
                index.setdefault(_country_alias_key(value), country.alpha_2)
    for alias, code in COUNTRY_ALIASES.items():
        index[alias] = code
    return index


def _country_by_name(key: str) -> str:
    index = _country_index()
    if key in index:
        return index[key]
    if key.startswith("the ") and key[4:] in index:
        return index[key[4:]]
    return ""


def country_code(name_or_code: str, *, allow_codes: bool = True) -> str:
    """ISO 3166-1 alpha-2 code for a country name, common name, alpha-3 or alpha-2 code; "" when unknown.

    ``allow_codes=False`` only accepts names (so "CA" in "Palo Alto, CA" is not read as Canada).
    """
    if not isinstance(name_or_code, str):
        return ""
    raw = clean_text(name_or_code)
    if not raw or len(raw) > 80:
        return ""
    return _country_code_of_clean(raw, allow_codes)


@functools.lru_cache(maxsize=10_000)
def _country_code_of_clean(raw: str, allow_codes: bool) -> str:
    """country_code of a cleaned string of at most 80 characters: places recur, each is looked up once per process."""
    key = _country_alias_key(raw)
    if not key:
        return ""
    if allow_codes and raw.isascii() and raw.isalpha():
        if len(raw) == 2:
            up = raw.upper()
            if up in _EXTRA_COUNTRY_NAMES or pycountry.countries.get(alpha_2=up) is not None:
                return up
            if up == "UK":
                return "GB"
        elif len(raw) == 3:
            country = pycountry.countries.get(alpha_3=raw.upper())
            if country is not None:
                return country.alpha_2
    if not allow_codes and len(key) <= 3 and key not in ("usa", "uk", "uae", "drc", "prc"):
        return ""
    return _country_by_name(key)


def is_country_name(s: str) -> bool:
    """True when ``s`` names a country (names and common abbreviations such as USA/UK; bare codes like "CA" do not)."""
    return bool(country_code(s, allow_codes=False))


def country_name(code: str) -> str:
    """Display name of an alpha-2 (or alpha-3) code: the common name where pycountry has one; "" when unknown."""
    if not isinstance(code, str):
        return ""
    code = clean_text(code).upper()
    if code in _EXTRA_COUNTRY_NAMES:
        return _EXTRA_COUNTRY_NAMES[code]
    country = None
    if len(code) == 2 and code.isascii() and code.isalpha():
        country = pycountry.countries.get(alpha_2=code)
    elif len(code) == 3 and code.isascii() and code.isalpha():
        country = pycountry.countries.get(alpha_3=code)
    if country is None:
        return ""
    if code == "RU":
        return "Russia"
    return getattr(country, "common_name", None) or country.name
