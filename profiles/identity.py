"""Identity keys: how a candidate is recognised again when another file about the same person arrives.

A person's name key is computed in two places, here in Python (the loader's identity keys, the duplicate pairs
check) and in SQL (the possible-duplicates walk, over an index on the expression): ``name_key`` and
``NAME_KEY_SQL`` are one definition written twice, side by side, and tests feed both the same hard cases. The SQL
form is the reference, because migration 0006 indexes exactly that expression: NFKD, the combining diacritical marks
(U+0300-U+036F) dropped, runs of whitespace made one space, trimmed, then PostgreSQL's ``lower()``, which lowers
character by character (no "ß" → "ss" as ``casefold()`` does, no word-final sigma as ``str.lower()`` does).

That is ``lower()`` under a libc UTF-8 locale (``C.UTF-8``, ``en_US.UTF-8``: what initdb and pgserver create).
A database created with ``LC_CTYPE=C`` lowers ASCII only, and one with an ICU locale applies the sigma rule: there the
two forms would part on such names, which ``tests/profiles/test_identity.py`` shows on the server it runs against.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "NAME_KEY_SQL",
    "email_key",
    "identity_key_forms",
    "identity_lock_texts",
    "name_key",
    "name_location_folded_key",
    "name_location_key",
    "url_key",
]

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
    """The weakest identity key: the name key with the city and the country (ISO code, or the name as written)."""
    return f"{name_key(name)}|{city.casefold()}|{place}"


def name_location_folded_key(key: str) -> str:
    """A name-location key (``name_location_key``) with the city and the country folded as the name is: without
    accents, spacing or case, so "Malmo" and "Malmö" are one town. A form the suppression records hash and the
    import's refusal looks up besides the loader's (``identity_key_forms``); the loader still matches on its own."""
    return "|".join(name_key(part) for part in key.split("|"))


def url_key(url: str) -> str:
    """A profile URL's canonical key: the host, lower-case and without ``www.``, and the path without its trailing
    slash; no scheme, user, query or fragment (``http://tove.example.org/``, ``https://www.tove.example.org`` and
    ``https://TOVE.example.org/?utm_source=cv#about`` are one site)."""
    text = url.strip()
    rest = text.split("://", 1)[1] if "://" in text else text.removeprefix("//")
    rest = rest.split("#", 1)[0].split("?", 1)[0]
    host, _, path = rest.partition("/")
    host = host.rpartition("@")[2].lower().removeprefix("www.")
    path = path.rstrip("/")
    return f"{host}/{path}" if path else host


def email_key(email: str) -> str:
    """An e-mail address's canonical key: no ``mailto:`` (nor its ``?subject=``), trimmed, case-folded."""
    text = email.strip()
    if text[:7].casefold() == "mailto:":
        text = text[7:].split("?", 1)[0]
    return text.strip().casefold()


def identity_key_forms(kind: str, value: str) -> tuple[str, ...]:
    """An identity key as the loader stores it (``ingestion.normalise.identity_keys``: a URL only case-folded and
    without its trailing slash) and, for a URL, an e-mail or a name with location, its canonical form too. The
    suppression records hash both, and the import's refusal looks both up, so another spelling of an erased person's
    site, address or town is refused without re-keying the identifiers stored in the loader's form."""
    if kind == "url":
        return tuple(dict.fromkeys((value, url_key(value))))
    if kind == "email":
        return tuple(dict.fromkeys((value, email_key(value))))
    if kind == "name":
        return tuple(dict.fromkeys((value, name_location_folded_key(value))))
    return (value,)


def identity_lock_texts(keys) -> list[str]:
    """The texts of the advisory locks an import and an erasure take on these ``(kind, value)`` identity keys
    (``ingestion.loaders._lock_keys``, ``privacy.services._lock_identity_keys``): every form of each key, so two files
    spelling the person's site or address differently, or a file and an erasure, wait for each other. Sorted; the
    lock statement takes them in the order of their hashes, one global order, so no two takers deadlock."""
    return sorted({f"{kind}:{form}" for kind, value in keys for form in identity_key_forms(kind, value)})
