"""The top of a CV: the name, the headline, the e-mail address, the phone number, the place, and the profile links.

Links are read wherever they stand (a sidebar, the footer, a DOCX's link targets) and become identifiers: GitHub,
GitLab, LinkedIn and Stack Overflow accounts by ``core.identity.url_parts``, the first other site as the personal
site. The name is the header's first line that reads as a person's name; the headline the next that is no contact
detail and no place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.countries import country_code
from core.identity import url_parts
from core.text import clean_text, phone_text
from ingestion.documents import Identifiers, Location
from ingestion.parsers.cv.dates import find_range
from ingestion.parsers.locations import location_from_text

__all__ = ["Header", "header_of", "identifiers_of"]

_EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+")
_PHONE_RE = re.compile(r"(?<![\w+])(?:\+|00)?\(?\d[\d\s()./-]{6,20}\d(?!\w)")
_PHONE_LABEL_RE = re.compile(
    r"\b(?:phone|tel|telephone|mobile|mobil|cell|handy|telefon|téléphone|tél|portable|teléfono|móvil|telefone|"
    r"telemóvel|celular|telefono|cellulare|cell)\b\.?\s*[:.]?\s*",
    re.IGNORECASE,
)
_URL_RE = re.compile(
    r"(?:https?://|www\.)[^\s<>()\"'|·•,]{2,300}"
    r"|\b(?:github\.com|gitlab\.com|linkedin\.com|[a-z]{2,3}\.linkedin\.com|stackoverflow\.com)/[^\s<>()\"'|·•,]{1,200}",
    re.IGNORECASE,
)
_LOCATION_LABEL_RE = re.compile(
    r"^(?:location|address|based in|wohnort|adresse|anschrift|localisation|ubicación|dirección|localização|"
    r"endereço|residenza|indirizzo|località)\s*[:.]\s*",
    re.IGNORECASE,
)
_PARTS_RE = re.compile(r"\s+[|·•▪◦]\s+|\s{3,}|\t|\s+[-–—]\s+")
_NAME_WORD_RE = re.compile(r"^[^\W\d_][^\W\d_'’.-]*(?:[-'’.][^\W\d_]+)*\.?$")
_MAX_HEADER_LINES = 12


@dataclass(slots=True)
class Header:
    name: str = ""
    headline: str = ""
    email: str = ""
    phone: str = ""
    location: Location = field(default_factory=Location)


def _is_name(line: str) -> bool:
    words = line.split()
    return 2 <= len(words) <= 5 and len(line) <= 60 and all(_NAME_WORD_RE.match(word) for word in words)


def _is_contact(part: str) -> bool:
    return bool(_EMAIL_RE.search(part) or _URL_RE.search(part) or _PHONE_LABEL_RE.match(part) or _phone_in(part))


def _phone_in(text: str) -> str:
    for m in _PHONE_RE.finditer(text):
        digits = sum(char.isdigit() for char in m.group(0))
        if 8 <= digits <= 15 and not find_range(m.group(0)):
            return phone_text(m.group(0))
    return ""


def _location_of(part: str) -> Location | None:
    """The place a header part names: labelled ("Location: Lyon"), or "City, Country" with a country we know."""
    labelled = _LOCATION_LABEL_RE.match(part)
    text = part[labelled.end() :] if labelled else part
    if len(text) > 80 or (any(char.isdigit() for char in text) and not labelled):
        return None
    location = location_from_text(text)
    if labelled or location.country_code:
        return location
    if country_code(text, allow_codes=False):
        return location
    return None


def _is_headline(line: str) -> bool:
    return (
        len(line) <= 150
        and not _is_contact(line)
        and not _location_of(line)
        and not _LOCATION_LABEL_RE.match(line)
        and not _is_name(line)
    )


def header_of(header_lines: list[str], text: str, contact_lines: list[str] = ()) -> Header:
    """The header's fields; the e-mail address is looked for in the whole ``text``, the phone number and the place in
    ``contact_lines`` (a contact section, often a sidebar's) too, when the header has none."""
    found = Header()
    lines = [line for line in header_lines if line][:_MAX_HEADER_LINES]
    for line in lines:
        whole = clean_text(line)
        if found.name and not found.headline and _is_headline(whole):
            found.headline = whole  # a headline's dash is its own ("Engineer — distributed systems")
            continue
        parts = [part for part in _PARTS_RE.split(line) if part.strip()]
        for part in parts:
            part = clean_text(part)
            if _is_contact(part):
                continue
            location = _location_of(part) if not found.location.city and not found.location.country else None
            if location:
                found.location = location
            elif not found.name and _is_name(part):
                found.name = part
            elif found.name and not found.headline and len(part) <= 150 and not _LOCATION_LABEL_RE.match(part):
                found.headline = part
    if not found.name and lines and len(lines[0]) <= 60 and not _is_contact(lines[0]):
        found.name = clean_text(lines[0])
    head = "\n".join(lines)
    email = _EMAIL_RE.search(head) or _EMAIL_RE.search(text)
    found.email = email.group(0).rstrip(".") if email else ""
    labelled = [line for line in text.split("\n") if _PHONE_LABEL_RE.search(line)]
    contacts = [line for line in contact_lines if line]
    found.phone = next((phone for line in [*lines, *contacts, *labelled] if (phone := _phone_in(line))), "")
    if not (found.location.city or found.location.country):
        for line in [*contacts, *text.split("\n")]:
            labelled_place = _LOCATION_LABEL_RE.match(line)
            if (labelled_place or line in contacts) and (location := _location_of(line)):
                found.location = location
                break
    return found


def identifiers_of(text: str, email: str) -> tuple[Identifiers, str]:
    """The accounts the CV links (the first of each network) and its personal site (the first other link)."""
    accounts: dict[str, str] = {}
    urls: list[str] = []
    site = ""
    linked = "\n".join(line for line in text.split("\n") if "/" in line or "www." in line)
    for m in _URL_RE.finditer(linked):
        url = m.group(0).rstrip(".;:")
        host, segments = url_parts(url)
        if _is_network(host):
            account = _account(host, segments)
            if account is None:
                continue
            accounts.setdefault(*account)
        elif host and "." in host and not email.endswith("@" + host):
            site = site or (url if "://" in url else f"https://{url}")
        else:
            continue
        if url not in urls:
            urls.append(url)
    identifiers = Identifiers(
        github=accounts.get("github", ""),
        email=email,
        linkedin=accounts.get("linkedin", ""),
        urls=urls,
        gitlab=accounts.get("gitlab", ""),
        stackoverflow=accounts.get("stackoverflow", ""),
    )
    return identifiers, site


_NETWORK_HOSTS = ("github.com", "gitlab.com", "linkedin.com", "stackoverflow.com")


def _is_network(host: str) -> bool:
    return host in _NETWORK_HOSTS or host.endswith(".linkedin.com")


def _account(host: str, segments: list[str]) -> tuple[str, str] | None:
    """(network, account) of a network's profile page; None for its other pages (they name nobody)."""
    if host in ("github.com", "gitlab.com") and segments:
        return host.removesuffix(".com"), segments[0]
    if host.endswith("linkedin.com") and len(segments) >= 2 and segments[0] == "in":
        return "linkedin", segments[1]
    if host == "stackoverflow.com" and len(segments) >= 2 and segments[0] == "users" and segments[1].isdigit():
        return "stackoverflow", segments[1]
    return None
