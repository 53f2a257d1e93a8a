"""The person's accounts, links and place from ``basics``: identifiers, the personal site, the location."""

from __future__ import annotations

import re

from core.countries import country_code, country_name
from core.identity import identity_text, url_parts
from ingestion.documents import (
    Identifiers,
    Location,
)
from ingestion.parsers.jsonresume.values import dicts_in, first_text
from ingestion.parsers.locations import location_from_text

GITHUB_REPO_RE = re.compile(
    r"(?:^|[/.@])github\.com[/:]([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})", re.IGNORECASE
)
GITHUB_NOT_OWNERS = frozenset(
    {
        "features", "sponsors", "orgs", "settings", "marketplace", "topics", "collections", "explore", "about",
        "pricing", "enterprise", "login", "join", "apps", "security", "site", "team", "readme", "trending", "events",
        "customer-stories", "solutions", "resources", "search", "notifications",
    }
)  # fmt: skip


def _url_parts(url: str) -> tuple[str, list[str]]:
    """(host without www., path segments) of a URL, read as identity keys read it (``core.identity.url_parts``: a
    trailing dot or a default port, ``\\``, tabs, percent-escapes and ``git@host:owner/repo`` as a browser or git
    would)."""
    return url_parts(url) if url else ("", [])


_LINKEDIN_SLUG_RE = re.compile(r"^[\w.%-]{3,100}$")  # a display name ("Ada Quill") is not a slug
_HANDLE_RE = re.compile(r"^@?([A-Za-z0-9_.-]{1,100})$")
_NETWORK_HOSTS = {
    "github": ("github.com",),
    "linkedin": ("linkedin.com",),
    "twitter": ("twitter.com", "x.com"),
    "gitlab": ("gitlab.com",),
    "stackoverflow": ("stackoverflow.com",),
}
_NETWORK_OF_HOST = {host: network for network, hosts in _NETWORK_HOSTS.items() for host in hosts}
_NETWORK_NAMES = {"github": "github", "linkedin": "linkedin", "twitter": "twitter", "x": "twitter",
                  "gitlab": "gitlab", "stackoverflow": "stackoverflow"}  # fmt: skip


def _network_of_host(host: str) -> str:
    """The network whose pages ``host`` serves, or "": not any subdomain (copilot.github.com is a product's site),
    only LinkedIn's regional ones and the mobile sites."""
    network = _NETWORK_OF_HOST.get(host.removeprefix("mobile."), "")
    return network or ("linkedin" if host.endswith(".linkedin.com") else "")


def _network_of(name: str, host: str) -> str:
    """ "github", "linkedin", "twitter", "gitlab", "stackoverflow" or "" from a profile's URL host or network name."""
    return _network_of_host(host) or _NETWORK_NAMES.get(name.lower().replace(" ", "").replace("/", ""), "")


def _handle(network: str, username: str, host: str, segments: list[str]) -> str:
    """The account a profile names on ``network``: from its URL when it has one there, else the username."""
    on_network = network == _network_of_host(host)
    if network == "linkedin":
        slug = segments[1] if on_network and len(segments) >= 2 and segments[0] in ("in", "pub") else ""
        slug = slug or username
        return slug if _LINKEDIN_SLUG_RE.match(slug) else ""
    if network == "stackoverflow":
        if on_network and len(segments) >= 2 and segments[0] == "users" and segments[1].isdigit():
            return segments[1]
        return username if username.isdigit() else ""
    if network == "github":  # the username names the account even when the URL is a repository's
        named_host, named_segments = _url_parts(username) if "github.com" in username.lower() else ("", [])
        owners = [
            _account(username),
            *(named_segments[:1] if named_host == "github.com" else []),  # a URL written as the username
            *(segments[:1] if on_network else []),
        ]
        return next((o for owner in owners if (o := _account(owner)) and o.lower() not in GITHUB_NOT_OWNERS), "")
    return _account(segments[0] if on_network and segments else username)


def _account(text: str) -> str:
    """``text`` as an account name ("@ada" -> "ada"), or "" when it is not one (a display name, a URL)."""
    m = _HANDLE_RE.match(identity_text(text))  # invisible characters are no part of a name
    return m.group(1) if m else ""


def identifiers_of(basics: dict, email: str) -> tuple[Identifiers, str]:
    """The accounts ``basics`` names (``profiles[]``, then ``url`` and the legacy ``website``), and the personal site:
    the first of ``url`` and ``website`` that is no network's page (else the first of them)."""
    found: dict[str, list[str]] = {network: [] for network in _NETWORK_HOSTS}
    found_folded: dict[str, set[str]] = {network: set() for network in _NETWORK_HOSTS}
    urls: dict[str, None] = {}  # in the file's order, each once
    sites = [site for key in ("url", "website") if (site := first_text(basics, key))]
    entries = [
        (first_text(p, "network"), first_text(p, "username"), first_text(p, "url"))
        for p in dicts_in(basics.get("profiles"))
    ]
    entries += [("", "", site) for site in sites]
    site_networks: dict[str, str] = {}
    for name, username, url in entries:
        host, segments = _url_parts(url)
        network = site_networks[url] = _network_of(name, host)
        handle = _handle(network, username, host, segments) if network else ""
        if handle and handle.casefold() not in found_folded[network]:
            found[network].append(handle)
            found_folded[network].add(handle.casefold())
        if url:
            urls[url] = None
    personal = [site for site in sites if not site_networks[site]]
    github = found["github"]
    identifiers = Identifiers(
        github=github[0] if github else "",
        email=email,
        linkedin=next(iter(found["linkedin"]), ""),
        urls=list(urls),
        more_github=github[1:],
        twitter=next(iter(found["twitter"]), ""),
        gitlab=next(iter(found["gitlab"]), ""),
        stackoverflow=next(iter(found["stackoverflow"]), ""),
    )
    return identifiers, (personal or sites or [""])[0]


def location_of(basics: dict) -> Location:
    raw = basics.get("location")
    if isinstance(raw, str):
        return location_from_text(raw)
    if not isinstance(raw, dict):
        return Location()
    given = first_text(raw, "countryCode", "country")
    code = country_code(given)
    country = country_name(code) if code else given
    return Location(city=first_text(raw, "city"), region=first_text(raw, "region"), country=country, country_code=code)
