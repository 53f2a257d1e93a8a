"""The top of a CV: the name, the headline, the e-mail address, the phone number, the place, and the profile links.

The e-mail address, the phone number and the links are the candidate's only where the CV gives its own contact
details: its header (above the first heading) and a contact section. Anywhere else they may be someone else's (a
referee's address, a former employer's switchboard, a project's repository), and an e-mail address or an account is
how a profile is recognised: taken from a References section, it would merge the candidate with their referee. Such an
address or number is left out, with a warning. Links become identifiers: GitHub, GitLab, LinkedIn and Stack Overflow
accounts by ``core.identity.url_parts``, the first other site as the personal site. A phone number is no date (a birth
date) and no number labelled as an ID (a student or an identity card number); one labelled as a phone comes first.
The name is the header's first line that reads as a person's name; the headline the next that is no contact detail and
no place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.contact_text import EMAIL_RE as _EMAIL_RE
from core.contact_text import URL_RE as _URL_RE
from core.contact_text import phone_matches
from core.countries import country_code
from core.identity import url_parts
from core.text import clean_text, phone_text
from ingestion.documents import Identifiers, Location
from ingestion.parsers.cv.dates import find_range
from ingestion.parsers.locations import location_from_text

__all__ = ["ELSEWHERE_EMAIL_WARNING", "ELSEWHERE_PHONE_WARNING", "Header", "header_of", "identifiers_of"]

ELSEWHERE_EMAIL_WARNING = (
    "The CV's header and contact section give no e-mail address; one further down (a referee's or a company's, "
    "perhaps) was not taken as the candidate's."
)
ELSEWHERE_PHONE_WARNING = (
    "The CV's header and contact section give no phone number; one further down was not taken as the candidate's."
)

_PHONE_LABEL_RE = re.compile(
    r"\b(?:phone|tel|telephone|mobile|mobil|cell|handy|telefon|téléphone|tél|portable|teléfono|móvil|telefone|"
    r"telemóvel|celular|telefono|cellulare|cell)\b\.?\s*[:.]?\s*",
    re.IGNORECASE,
)
# A number after one of these words is a date of birth or an identity, student or tax number, never the phone's.
_NOT_PHONE_LABEL_RE = re.compile(
    r"\b(?:geburt\w*|geb\.|birth\w*|born|d\.?o\.?b\.?|né|née|nacid[oa]|nacimiento|nascita|nato|nata|nascimento|"
    r"matrikel\w*|matr\.|id|ids|personalausweis\w*|ausweis\w*|passport|reisepass\w*|pass-?nr\.?|ssn|"
    r"social security|sozialversicherung\w*|steuer-?id\w*|steuernummer|tax|dni|nie|nif|codice fiscale|"
    r"student\s+(?:number|no\.?)|iban|bic|vat|ust-?idnr\.?)\b",
    re.IGNORECASE,
)
# Where a number's label ends: the part of the line after the last of these separators.
_LABEL_WINDOW = 40
_LABEL_START_RE = re.compile(r".*(?:[|·•▪◦;,\t]|\s{3,})")
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
    warnings: list[str] = field(default_factory=list)


def _is_name(line: str) -> bool:
    words = line.split()
    return 2 <= len(words) <= 5 and len(line) <= 60 and all(_NAME_WORD_RE.match(word) for word in words)


def _is_contact(part: str) -> bool:
    return bool(
        _EMAIL_RE.search(part)
        or _URL_RE.search(part)
        or _PHONE_LABEL_RE.match(part)
        or _phone_in(part)
        or (_NOT_PHONE_LABEL_RE.match(part) and any(char.isdigit() for char in part))  # "Geburtsdatum: 12.03.1990"
    )


def _phone_in(text: str) -> str:
    return next(iter(_phones_in(text)), ("", False))[0]


def _phones_in(text: str) -> list[tuple[str, bool]]:
    """The phone numbers in a line, each with whether a phone label comes before it; none after a birth or ID label."""
    found = []
    for m in phone_matches(text):
        if find_range(m.group(0)):
            continue
        # A label stands just before its number: a window of its length keeps a long line's scan linear.
        before = text[max(0, m.start() - _LABEL_WINDOW) : m.start()]
        label = _LABEL_START_RE.sub("", before.rsplit("\n", 1)[-1])
        if _NOT_PHONE_LABEL_RE.search(label):
            continue
        found.append((phone_text(m.group(0)), bool(_PHONE_LABEL_RE.search(label))))
    return found


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
    """The header's fields; the e-mail address, the phone number and the place are looked for in ``contact_lines`` (a
    contact section, often a sidebar's) too, when the header has none. ``warnings`` says when the rest of ``text``
    holds an e-mail address or a phone number and the header and contact section none."""
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
    contacts = [line for line in contact_lines if line]
    own = "\n".join([*lines, *contacts])
    email = _EMAIL_RE.search(own)
    found.email = email.group(0).rstrip(".") if email else ""
    if not email and _EMAIL_RE.search(text):
        found.warnings.append(ELSEWHERE_EMAIL_WARNING)
    phones = [phone for line in [*lines, *contacts] for phone in _phones_in(line)]
    # A number labelled as the phone's before one that is not ("Tel: …" under a line of other numbers).
    found.phone = next((phone for phone, labelled in phones if labelled), phones[0][0] if phones else "")
    if not phones and any(_phones_in(line) for line in text.split("\n") if _PHONE_LABEL_RE.search(line)):
        found.warnings.append(ELSEWHERE_PHONE_WARNING)
    if not (found.location.city or found.location.country):
        for line in [*contacts, *text.split("\n")]:
            labelled_place = _LOCATION_LABEL_RE.match(line)
            if (labelled_place or line in contacts) and (location := _location_of(line)):
                found.location = location
                break
    return found


def identifiers_of(text: str, email: str) -> tuple[Identifiers, str]:
    """The accounts ``text`` links (the first of each network) and its personal site (the first other link): the CV's
    header and contact section, where the links are the candidate's own."""
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
