"""Identity keys: how a person is recognised again, one normalisation of every identifier, and the name check.

Every identifier a candidate is known by (an e-mail address, a GitHub, GitLab, LinkedIn, Twitter/X or Stack Overflow
account, a site, the name with location) goes through ``identifier_key`` before it is stored, compared, locked or
hashed for a suppression, so that every spelling of it is one key:

- text: Unicode NFC, invisible format characters dropped (zero-width spaces and joiners, bidirectional marks, soft
  hyphens: category Cf), surrounding whitespace trimmed;
- a URL is read as a browser reads it (tabs and newlines anywhere dropped, ``\\`` as ``/``), and ``git@host:owner/repo``
  as ``host/owner/repo``; its key is the host (lower case, IDNA labels decoded, no ``www.``, no trailing dot, no default
  port, no user) and the path (percent-decoded, no empty, ``.`` or ``..`` segments, no trailing slash), without
  scheme, query or fragment, case-folded: ``https://www.Site.example:443/a%2Db/`` and ``site.example./a-b`` are
  ``site.example/a-b``;
- an account: percent-decoded, no leading ``@``, no trailing ``/``, case-folded (``jos%C3%A9-garc%C3%ADa`` is
  ``josé-garcía``);
- an e-mail address: no ``mailto:``, percent-decoded, the domain without a trailing dot, case-folded. Its mailbox
  (``name+cv@x`` is ``name@x``) is a further form a suppression matches (``identity_key_forms``), not an identity key:
  the import keeps plus-addresses apart, the erasure does not;
- the name with location: ``name_key`` of the name and of the town, the country as given.

A key of an already normalised value is that value: normalising stored rows again changes none.

A person's name key is computed in two places, here in Python (the loader's identity keys, the duplicate pairs check)
and in SQL (the possible-duplicates walk, over an index on the expression): ``name_key`` and ``NAME_KEY_SQL`` are one
definition written twice, side by side, and tests feed both the same hard cases. The SQL form is the reference,
because profiles' migration 0006 indexes exactly that expression: NFKD, the combining diacritical marks
(U+0300-U+036F) dropped, runs of whitespace made one space, trimmed, then PostgreSQL's ``lower()``, which lowers
character by character (no "ß" → "ss" as ``casefold()`` does, no word-final sigma as ``str.lower()`` does). That is
``lower()`` under a libc UTF-8 locale (``C.UTF-8``, ``en_US.UTF-8``: what initdb and pgserver create); a database
created with ``LC_CTYPE=C`` lowers ASCII only, and one with an ICU locale applies the sigma rule.

Not every identifier is personal: a site whose domain is also one of the person's employers' (a work entry's site, a
company named by its domain) names the employer (``personal_site``), and the loader keeps a site several people
name out of matching too. Under every key, ``names_clearly_differ`` is the safety net: a file whose name is clearly
another person's than the candidate its key leads to is not that candidate.

Plain Python, no Django: the parsers, the normaliser, the loader, the suppressions and the migrations all call it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import unquote

__all__ = [
    "EMAIL",
    "NAME",
    "NAME_KEY_SQL",
    "URL",
    "URL_TOKEN_SQL",
    "email_key",
    "email_mailbox",
    "handle_key",
    "identifier_key",
    "identity_key_forms",
    "identity_lock_texts",
    "identity_text",
    "name_key",
    "name_location_folded_key",
    "name_location_key",
    "names_clearly_differ",
    "network_page",
    "personal_site",
    "site_domain",
    "url_host",
    "url_key",
    "url_parts",
    "url_token",
]

# The kinds of key with a rule of their own (the values of ``profiles.models.CandidateIdentifier.Kind``); every other
# kind is an account.
EMAIL = "email"
URL = "url"
NAME = "name"

# --- Text ----------------------------------------------------------------------------------------------------------


def _drop_format_characters(text: str) -> str:
    if text.isascii():
        return text
    return "".join([char for char in text if unicodedata.category(char) != "Cf"])


def identity_text(text: str) -> str:
    """``text`` in NFC, without invisible format characters (category Cf), trimmed: what every key starts from."""
    return _drop_format_characters(unicodedata.normalize("NFC", text)).strip()


def _percent_decoded(text: str) -> str:
    """``text`` with its percent-escapes decoded, when they spell UTF-8; as it was when they do not."""
    if "%" not in text:
        return text
    try:
        return unquote(text, errors="strict")
    except UnicodeDecodeError:
        return text


# --- Names -----------------------------------------------------------------------------------------------------------

NAME_KEY_SQL = (
    r"lower(btrim(regexp_replace(regexp_replace(normalize(name, NFKD), '[\u0300-\u036f]', '', 'g'), '\s+', ' ', 'g')))"
)

_COMBINING_DIACRITICS_RE = re.compile("[\u0300-\u036f]")
_WHITESPACE_RE = re.compile(r"\s+")


def name_key(name: str) -> str:
    """Accent-, case- and spacing-insensitive form of a person's name: ``NAME_KEY_SQL`` in Python."""
    decomposed = unicodedata.normalize("NFKD", name)
    spaced = _WHITESPACE_RE.sub(" ", _COMBINING_DIACRITICS_RE.sub("", decomposed)).strip(" ")
    # Character by character, as PostgreSQL's lower() does: str.lower() on the whole string would apply Unicode's
    # context rules (a word-final capital sigma becomes "ς", which lower('Σ') never gives).
    return "".join([char.lower() for char in spaced])


def name_location_key(name: str, city: str, place: str) -> str:
    """The weakest identity key: the name key with the city and the country (ISO code, or the name as written), the
    name's and the town's invisible characters dropped first."""
    return f"{name_key(_drop_format_characters(name))}|{_drop_format_characters(city).casefold()}|{place}"


def name_location_folded_key(key: str) -> str:
    """A name-location key (``name_location_key``) with the city and the country folded as the name is: without
    accents, spacing or case, so "Malmo" and "Malmö" are one town. A form the suppression records hash and the
    import's refusal looks up besides the key itself (``identity_key_forms``); the loader matches on the key."""
    return "|".join(name_key(_drop_format_characters(part)) for part in key.split("|"))


def _name_location_rekeyed(key: str) -> str:
    """A stored name-location key in today's form: its name and its town keyed again."""
    parts = key.split("|")
    if len(parts) != 3:
        return key
    name, city, place = parts
    return f"{name_key(_drop_format_characters(name))}|{_drop_format_characters(city).casefold()}|{place}"


_CJK_RE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_NAME_TOKEN_RE = re.compile(r"[^\W_]+")


def _agree(first: str, second: str) -> bool:
    """Two words of names that may be the same person's: equal, or one the other's start ("Alex", "Alexander")."""
    shorter, longer = sorted((first, second), key=len)
    return shorter == longer or (len(shorter) >= 3 and longer.startswith(shorter))


def names_clearly_differ(first: str, second: str) -> bool:
    """Whether two names are clearly two people's: no word in common (accents, case, spacing, order and invisible
    characters aside; "Alex" agrees with "Alexander"), and not one name's initials spelling the other ("A. Q." and
    "Ada Quill"). "Ada Quill" and "Ada Smith" do not clearly differ (a name changes on marriage); "Ada Quill" and
    "Ben Ortiz" do. A missing name differs from none. Names in scripts written without spaces (Chinese, Japanese,
    Korean) agree when one holds the other."""
    words_a = _NAME_TOKEN_RE.findall(name_key(identity_text(first)))
    words_b = _NAME_TOKEN_RE.findall(name_key(identity_text(second)))
    if not words_a or not words_b:
        return False
    compact_a, compact_b = "".join(words_a), "".join(words_b)
    if compact_a == compact_b:
        return False
    if _CJK_RE.search(compact_a) or _CJK_RE.search(compact_b):
        shorter, longer = sorted((compact_a, compact_b), key=len)
        return not (len(shorter) >= 2 and shorter in longer)
    full_a = [word for word in words_a if len(word) > 1]
    full_b = [word for word in words_b if len(word) > 1]
    if any(_agree(a, b) for a in full_a for b in full_b):
        return False
    for initials, words in ((words_a, words_b), (words_b, words_a)):
        if all(len(word) == 1 for word in initials) and [w[0] for w in words][: len(initials)] == initials:
            return False
    return True


# --- URLs ------------------------------------------------------------------------------------------------------------

_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_WEB_SCHEME_RE = re.compile(r"^(?:https?|ftp|wss?):/*", re.IGNORECASE)  # a browser's "https:/x" or "https:x" too
# scp-like syntax, as git writes a remote: user@host:owner/repo (a port would be digits alone before a slash).
_SCP_RE = re.compile(r"^(?:[^@/:]+@)?([A-Za-z0-9\-.]+\.[A-Za-z]{2,}\.?):(?![0-9]*(?:/|$))(.+)$")
_OTHER_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+-]*:(?!//)")  # mailto:, tel:, javascript: (a dot makes it a host)
_TABS_AND_NEWLINES_RE = re.compile(r"[\t\n\r]")
_WHITESPACE_IN_URL_RE = re.compile(r"\s+")  # a tab a parser made a space, or a space typed in: no URL holds one
_DEFAULT_PORTS = frozenset({"", "80", "443"})


def _url_text(url: str) -> str:
    """The URL as a browser reads what was typed: NFC, invisible characters, tabs and newlines dropped (and any other
    whitespace, which a parser may have made of a tab), surrounding controls trimmed, backslashes as slashes."""
    text = _WHITESPACE_IN_URL_RE.sub("", identity_text(url)).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c"
                                                                   "\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18"
                                                                   "\x19\x1a\x1b\x1c\x1d\x1e\x1f ")  # fmt: skip
    return text.replace("\\", "/")


def _host(authority: str) -> str:
    """The host of ``[user@]host[:port]``, normalised, with a port that is not a default one."""
    hostport = authority.rpartition("@")[2]
    if hostport.startswith("["):  # an IPv6 literal
        host, _, rest = hostport[1:].partition("]")
        host, port = f"[{host.lower()}]", rest.removeprefix(":")
    else:
        host, _, port = hostport.partition(":")
    host = unicodedata.normalize("NFC", _percent_decoded(host)).casefold().rstrip(".")
    if "xn--" in host:
        host = ".".join(_idna_decoded(label) for label in host.split("."))
    host = host.removeprefix("www.")
    return host if port in _DEFAULT_PORTS or not port.isdigit() else f"{host}:{port.lstrip('0') or '0'}"


def _idna_decoded(label: str) -> str:
    if not label.startswith("xn--"):
        return label
    try:
        return label.encode("ascii").decode("idna")
    except UnicodeError:
        return label


def url_parts(url: str) -> tuple[str, list[str]]:
    """(host, path segments) of a URL written with or without a scheme, read as ``url_key`` reads it: the host
    normalised, the segments percent-decoded with their case kept; ``git@github.com:ada/tool`` is
    ``("github.com", ["ada", "tool"])``."""
    text = _url_text(url)
    if not text:
        return "", []
    if _SCHEME_RE.match(text) is None and (scp := _SCP_RE.match(text)) is not None:
        authority, rest = scp.group(1), "/" + scp.group(2)
    elif _OTHER_SCHEME_RE.match(text) and not _WEB_SCHEME_RE.match(text):
        return "", []  # no site: an address, a telephone number, a script
    else:
        if _SCHEME_RE.match(text):
            text = text.split("://", 1)[1]
        elif _WEB_SCHEME_RE.match(text):
            text = _WEB_SCHEME_RE.sub("", text, count=1)
        text = text.lstrip("/")
        cut = min((index for index in map(text.find, "/?#") if index >= 0), default=len(text))
        authority, rest = text[:cut], text[cut:]
    path = rest.split("#", 1)[0].split("?", 1)[0]
    segments: list[str] = []
    for segment in _percent_decoded(path).split("/"):
        segment = identity_text(segment)
        if segment in ("", "."):
            continue
        if segment == "..":
            if segments:
                segments.pop()
            continue
        segments.append(segment)
    return _host(authority), segments


def url_host(url: str) -> str:
    """The host of a URL, or of a URL key, as ``url_key`` writes it (port included when not a default one)."""
    return url_parts(url)[0]


def url_key(url: str) -> str:
    """A URL's identity key: the host and the path as ``url_parts`` reads them, case-folded, no scheme, query or
    fragment (``http://tove.example.org/``, ``https://www.tove.example.org.:443`` and
    ``https://TOVE.example.org/?utm_source=cv#about`` are ``tove.example.org``)."""
    host, segments = url_parts(url)
    if "." not in host and not host.startswith("["):
        return ""  # no site anyone could visit: a word, or what a script or an address left
    return "/".join([host, *segments]).casefold()


_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go", "gv", "mil", "ltd", "plc"})


def site_domain(host: str) -> str:
    """The domain a host belongs to, as its owner registered it (``careers.globex.example`` and ``globex.example`` are
    ``globex.example``; ``shop.globex.co.uk`` is ``globex.co.uk``): the last two labels, three under a country's
    second level (``co.uk``, ``com.au``). An approximation of the public suffix list, used only to read a company's
    name in a host."""
    labels = host.partition(":")[0].split(".")
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def _same_site(first: str, second: str) -> bool:
    """One host, or one a subdomain of the other (``careers.globex.example`` and ``globex.example``)."""
    return first == second or first.endswith(f".{second}") or second.endswith(f".{first}")


_COMPANY_SUFFIXES_RE = re.compile(
    r"\b(?:inc|ltd|llc|llp|gmbh|ag|ab|as|asa|oy|oyj|sa|sas|sarl|srl|spa|bv|nv|plc|pty|corp|corporation|company|co|"
    r"kk|limited|group|holding|holdings)\b\.?",
    re.IGNORECASE,
)
_DOMAIN_RE = re.compile(r"^[^\s/@]+\.[^\W\d_]{2,}$")


_NETWORK_HOSTS = frozenset(
    {"github.com", "gitlab.com", "linkedin.com", "twitter.com", "x.com", "stackoverflow.com", "mobile.twitter.com"}
)


def network_page(url: str) -> bool:
    """A page on a network's host (``github.com/ada``): the person's by its path, whoever else names the host."""
    host = url_host(url)
    return host in _NETWORK_HOSTS or host.endswith(".linkedin.com")


def personal_site(url: str, *, work_sites: Iterable[str] = (), companies: Iterable[str] = ()) -> bool:
    """Whether a site (a URL, or its key) can identify its person: not when its host is also one of their
    employers' (the host of a work entry's site, or a subdomain of it or the reverse; a company written as a domain,
    "Globex.com"; a company's name, legal suffix, spaces and punctuation aside, as the host's first label or its
    domain's: "Globex Inc." and ``globex.example``), since a colleague's file names it as well. A network's profile
    (``github.com/ada``) is a person's page on a shared host, judged by its account: call this for sites only."""
    host = url_host(url).partition(":")[0]
    if not host:
        return False
    if any(_same_site(host, work_host) for site in work_sites if (work_host := url_host(site).partition(":")[0])):
        return False
    labels = {host.split(".", 1)[0], site_domain(host).split(".", 1)[0]}
    for company in companies:
        text = identity_text(company).casefold()
        if _DOMAIN_RE.match(text) and _same_site(host, url_host(text)):
            return False
        compact = re.sub(r"[\W_]+", "", _COMPANY_SUFFIXES_RE.sub("", text))
        if len(compact) >= 3 and compact in labels:
            return False
    return True


# --- A URL key's account --------------------------------------------------------------------------------------------
# The network account a URL key names, as ``kind:account`` (``github.com/ada/tool`` is ``github:ada``), else
# ``url:<key>``: what the possible-duplicates pairs compare identifiers by, so a GitHub username and a github.com URL
# are one identifier. The pairs compute it in SQL over the stored keys (``URL_TOKEN_SQL``): one definition written
# twice, from the same patterns, and tests/profiles/test_identity.py feeds both the same hard cases.
_URL_ACCOUNT_PATTERNS = (
    ("github", r"^github\.com/([^/]+)"),
    ("gitlab", r"^gitlab\.com/([^/]+)"),
    ("linkedin", r"^(?:[a-z0-9-]+\.)?linkedin\.com/(?:in|pub)/([^/]+)"),
    ("so", r"^stackoverflow\.com/users/([0-9]+)"),
    ("twitter", r"^(?:mobile\.)?(?:twitter|x)\.com/([^/]+)"),
)
_URL_ACCOUNT_RES = tuple((kind, re.compile(pattern)) for kind, pattern in _URL_ACCOUNT_PATTERNS)
URL_TOKEN_SQL = (
    "coalesce("
    + ", ".join(f"'{kind}:' || substring({{value}} from '{pattern}')" for kind, pattern in _URL_ACCOUNT_PATTERNS)
    + ", 'url:' || {value})"
)


def url_token(key: str) -> str:
    """``URL_TOKEN_SQL`` in Python: the account a URL key names on a network, as ``kind:account``, else ``url:key``."""
    for kind, pattern in _URL_ACCOUNT_RES:
        if (found := pattern.match(key)) is not None:
            return f"{kind}:{found.group(1)}"
    return f"url:{key}"


# --- Accounts and e-mail addresses --------------------------------------------------------------------------------


def handle_key(value: str) -> str:
    """An account's identity key (a GitHub or GitLab username, a LinkedIn slug, a Twitter/X handle, a Stack Overflow
    id): percent-decoded, without a leading ``@`` or a trailing ``/``, case-folded."""
    text = _TABS_AND_NEWLINES_RE.sub("", identity_text(_percent_decoded(identity_text(value))))
    return text.strip("/ ").removeprefix("@").casefold()


def email_key(email: str) -> str:
    """An e-mail address's identity key: no ``mailto:`` (nor its ``?subject=``), percent-decoded, the domain without
    a trailing dot, case-folded."""
    text = _TABS_AND_NEWLINES_RE.sub("", identity_text(email))
    if text[:7].casefold() == "mailto:":
        text = text[7:].split("?", 1)[0]
    text = identity_text(_percent_decoded(text)).casefold()
    local, at, domain = text.rpartition("@")
    if not at:
        return text
    domain = domain.rstrip(".")
    if "xn--" in domain:
        domain = ".".join(_idna_decoded(label) for label in domain.split("."))
    return f"{local}@{domain}"


def email_mailbox(key: str) -> str:
    """The mailbox of an e-mail key: the address without its plus-address (``ada+cv@x`` is ``ada@x``)."""
    local, at, domain = key.rpartition("@")
    if not at or "+" not in local:
        return key
    return f"{local.split('+', 1)[0]}@{domain}"


# --- Keys ------------------------------------------------------------------------------------------------------------


def identifier_key(kind: str, value: str) -> str:
    """The one normalisation: ``value`` as the identity key of its kind (``url``, ``email``, ``name``, or an account
    of any other kind)."""
    if kind == URL:
        return url_key(value)
    if kind == EMAIL:
        return email_key(value)
    if kind == NAME:
        return _name_location_rekeyed(value)
    return handle_key(value)


def identity_key_forms(kind: str, value: str) -> tuple[str, ...]:
    """The forms of an identity key a suppression hashes, the import's refusal looks up (``privacy.hashing``) and the
    locks are taken on: the key (``value`` is normalised first, so any spelling gives the same forms), and

    - an e-mail's mailbox (``ada+cv@x`` matches a suppression of ``ada@x`` and the reverse);
    - a name with location with its town folded as the name is ("Malmo" is "Malmö");
    - a URL as earlier versions stored it (``https://`` and ``http://``, with and without ``www.``, before the key):
      suppressions made then hold those digests, and the refusal of a file that matches one of them adds the others
      (``privacy.services.suppressions_widen``)."""
    key = identifier_key(kind, value)
    if not key:
        return ()
    if kind == URL:
        return (key, f"https://{key}", f"http://{key}", f"https://www.{key}", f"http://www.{key}")
    if kind == EMAIL:
        return tuple(dict.fromkeys((key, email_mailbox(key))))
    if kind == NAME:
        return tuple(dict.fromkeys((key, name_location_folded_key(key))))
    return (key,)


def identity_lock_texts(keys: Iterable[tuple[str, str]]) -> list[str]:
    """The texts of the advisory locks an import and an erasure take on these ``(kind, key)`` identity keys
    (``db.locks.lock_keys``, for both): every form of each key, so a file
    and an erasure that meet on any form wait for each other. Sorted; the lock statement takes them in the order of
    their hashes, one global order, so no two takers deadlock."""
    return sorted({f"{kind}:{form}" for kind, value in keys for form in identity_key_forms(kind, value)})
