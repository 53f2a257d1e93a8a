"""Privacy reads: which documents name an erased person."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from db.cursors import bound_cursor
from privacy.hashing import identifier_digests
from privacy.models import Suppression
from profiles.identity_match import NAME, external_kinds, is_the_person

__all__ = ["Suppressed", "documents_naming_person", "suppressed_documents"]


class Suppressed(NamedTuple):
    """When the person a document names was erased, and why (``Suppression.Reason``)."""

    erased_at: datetime
    reason: str


class _Found(NamedTuple):
    erased_at: datetime
    erasure_id: int | None
    reason: str


def suppressed_documents(*, keys_by_doc: Sequence[Sequence[tuple[str, str]]]) -> list[Suppressed | None]:
    """For each document's identity keys (``NormalisedProfile.identity_keys``), when and why the person it names was
    erased, or None: one query for the lot (two when a name alone matched).

    The rule is the loader's (``profiles.identity_match.is_the_person``): an external identifier (e-mail, GitHub, a
    profile URL...) that matches is the person. The name with location alone is the person unless the document names
    accounts of a kind the erased person had (other accounts of the same kind: a namesake in the same town), which is
    what tells a different person apart.
    """
    digests_by_doc = [identifier_digests(keys) for keys in keys_by_doc]
    wanted = {key for digests in digests_by_doc for key in digests}
    if not wanted:
        return [None] * len(digests_by_doc)
    kinds, values = zip(*wanted, strict=True)
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT s.kind, s.digest, s.erased_at, s.erasure_id, s.reason FROM privacy_suppression s "
            "JOIN unnest(%b::varchar[], %b::varchar[]) AS k(kind, digest) USING (kind, digest)",
            [list(kinds), list(values)],
        )
        found = {(kind, digest): _Found(*row) for kind, digest, *row in cursor}
    if not found:
        return [None] * len(digests_by_doc)

    name_only = {
        found[key].erasure_id
        for digests in digests_by_doc
        for key in digests
        if key in found and key[0] == NAME and found[key].erasure_id is not None
    }
    kinds_of = _kinds_by_erasure(name_only) if name_only else {}
    refused: list[Suppressed | None] = []
    for digests in digests_by_doc:
        external = [found[key] for key in digests if key[0] != NAME and key in found]
        name = next((found[key] for key in digests if key[0] == NAME and key in found), None)
        if not is_the_person(
            external=bool(external),
            name=name is not None,
            document_kinds=external_kinds(digests),
            person_kinds=lambda name=name: kinds_of.get(name.erasure_id, set()),
        ):
            refused.append(None)
            continue
        first = min(external, key=lambda row: row.erased_at) if external else name
        refused.append(Suppressed(first.erased_at, first.reason))
    return refused


def _kinds_by_erasure(erasure_ids: set[int]) -> dict[int, set[str]]:
    """The kinds of external identifier each of these erased people had."""
    kinds: dict[int, set[str]] = {}
    rows = (
        Suppression.objects.filter(erasure_id__in=erasure_ids)
        .exclude(kind=NAME)
        .values_list("erasure_id", "kind")
        .distinct()
    )
    for erasure_id, kind in rows:
        kinds.setdefault(erasure_id, set()).add(kind)
    return kinds


def documents_naming_person(
    *, keys_by_doc: Sequence[Sequence[tuple[str, str]]], digests: frozenset[tuple[str, str]]
) -> list[bool]:
    """For each document's identity keys, whether it names the person whose identity-key digests are ``digests``
    (``privacy.services.erasure_context``), by the rule of ``suppressed_documents``: an external identifier of theirs,
    or their name with location in a document that names no account of a kind they have (a namesake has their own)."""
    their_kinds = external_kinds(digests)
    naming = []
    for keys in keys_by_doc:
        document = identifier_digests(keys)
        naming.append(
            is_the_person(
                external=any(key in digests for key in document if key[0] != NAME),
                name=any(key in digests for key in document if key[0] == NAME),
                document_kinds=external_kinds(document),
                person_kinds=lambda: their_kinds,
            )
        )
    return naming
