"""The one rule that says whether a document is a person already known, for the import (``ingestion.loaders``: is it
a stored candidate?) and for privacy (``privacy.selectors``: is it an erased person?).

An external identifier (an e-mail, a GitHub, GitLab, Stack Overflow or LinkedIn profile, a personal site) that
matches is the person. The name with location alone is the person unless the document names external identifiers of
a kind the person has (other accounts of the same kind: a namesake in the same town). Pure: the callers look up what
matched, in their own tables (candidates' identifiers, suppressions' digests).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from profiles.models import CandidateIdentifier

__all__ = ["NAME", "external_kinds", "is_the_person"]

NAME = CandidateIdentifier.Kind.NAME_LOCATION


def external_kinds(keys: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The kinds of external identifier among ``(kind, value)`` keys (the name with location is none)."""
    return frozenset(kind for kind, _ in keys if kind != NAME)


def is_the_person(
    *,
    external: bool,
    name: bool,
    document_kinds: Collection[str],
    person_kinds: Callable[[], Collection[str]],
) -> bool:
    """Whether a document is the person: ``external``, an external identifier of theirs matched; ``name``, their name
    with location did. ``document_kinds`` are the kinds of external identifier the document names
    (``external_kinds``); ``person_kinds`` gives those the person has, asked only when the name alone decides."""
    if external:
        return True
    if not name:
        return False
    return not document_kinds or not set(document_kinds) & set(person_kinds())
