"""Keyed hashes of identifiers: what a suppression record keeps of an erased person.

HMAC-SHA256 under ``settings.PRIVACY_HASH_KEY`` (derived from ``SECRET_KEY`` unless set): a plain hash of an e-mail
address can be reversed by hashing a list of addresses; without the key, a digest says nothing. The identifiers are
hashed as identity keys (``core.identity.identifier_key``: the one normalisation every identifier goes through
before it is stored or compared), in every form ``core.identity.identity_key_forms`` gives (an e-mail's mailbox, the
folded town, a URL as older versions stored it), so a later file of the same person, however it spells them, gives
one of the same digests.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from django.conf import settings

from core.identity import identity_key_forms

__all__ = ["identifier_digest", "identifier_digests"]


def identifier_digest(kind: str, value: str) -> str:
    """The hex HMAC-SHA256 of one identity key; the kind is part of the message, so equal values of two kinds (a
    GitHub and a GitLab username) give different digests."""
    return _digest(settings.PRIVACY_HASH_KEY.encode(), kind, value)


def identifier_digests(keys: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(kind, digest) of each (kind, identity key), repeats dropped, in their order, with the digests of the key's
    other forms (``core.identity.identity_key_forms``), which the erasure stores and the import's refusal looks up:
    ``ada+cv@x`` is refused after ``ada@x`` was erased, and a suppression made when URLs kept their scheme still
    matches."""
    key = settings.PRIVACY_HASH_KEY.encode()  # once for all: the import hashes a chunk's thousand keys at a time
    return list(
        dict.fromkeys(
            (kind, _digest(key, kind, form))
            for kind, value in keys
            if value
            for form in identity_key_forms(kind, value)
            if form
        )
    )


def _digest(key: bytes, kind: str, value: str) -> str:
    # surrogatepass: a key holding an unpaired surrogate (a parser's bug) still hashes, so that its file fails where
    # it is saved, alone and with a message, not here for the whole chunk.
    return hmac.digest(key, f"{kind}\x00{value}".encode("utf-8", "surrogatepass"), hashlib.sha256).hex()
