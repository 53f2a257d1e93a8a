"""Who a profile is: its identity keys looked up under their locks, the stored candidate it matches (the rule of
``profiles.identity_match``), a key that led to a clearly different name recorded as a possible duplicate, and the
outcome a dry run reports."""

from __future__ import annotations

from dataclasses import dataclass

from core.identity import names_clearly_differ, url_parts
from db.cursors import bound_cursor
from ingestion.models import SourceFile
from ingestion.normalise import NormalisedProfile
from profiles.identity_match import is_the_person
from profiles.models import Candidate, CandidateIdentifier, PossibleDuplicate, SharedIdentifier


@dataclass(slots=True, eq=False)
class Person:
    """A candidate as one load sees it: a stored row (its imported fields), or a new one (no pk until inserted)."""

    pk: int | None
    values: dict
    sha: str
    protected: frozenset[str] = frozenset()


def find_existing(keys_by_doc: list[list[tuple[str, str]]]) -> dict[tuple[str, str], int]:
    all_keys = {key for keys in keys_by_doc for key in keys}
    if not all_keys:
        return {}
    kinds, values = zip(*all_keys, strict=True)
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT i.kind, i.value, i.candidate_id FROM profiles_candidateidentifier i "
            "JOIN unnest(%b::varchar[], %b::varchar[]) AS k(kind, value) USING (kind, value)",
            [list(kinds), list(values)],
        )
        return {(kind, value): cid for kind, value, cid in cursor.fetchall()}


def shared_keys(keys_by_doc: list[list[tuple[str, str]]]) -> set[tuple[str, str]]:
    """The keys of these documents that several people name (``SharedIdentifier``): no one's identity key."""
    sites = sorted({value for keys in keys_by_doc for kind, value in keys if kind == CandidateIdentifier.Kind.URL})
    if not sites:
        return set()
    with bound_cursor() as cursor:
        cursor.execute(
            "SELECT kind, value FROM profiles_sharedidentifier WHERE kind = %b AND value = ANY(%b::varchar[])",
            [CandidateIdentifier.Kind.URL.value, sites],
        )
        return set(cursor.fetchall())


def match_candidate(
    keys: list[tuple[str, str]], known: dict[tuple[str, str], int], name_of: dict[int, str], name: str
) -> tuple[int | None, tuple[tuple[str, str], int] | None]:
    """The stored candidate a document with these keys and this name is, and the first external key that led to a
    candidate of a clearly different name (``core.identity.names_clearly_differ``), which the document is not.

    An external identifier (strongest first) is the person unless the names clearly differ; the name with location
    is the person by the rule of ``profiles.identity_match.is_the_person`` (not when the document names external ids
    of kinds the candidate has and the document's do not match: a namesake in the same town)."""
    clash = None
    for key in keys:
        if key[0] == CandidateIdentifier.Kind.NAME_LOCATION or key not in known:
            continue
        if not names_clearly_differ(name_of[known[key]], name):
            return known[key], None
        clash = clash or (key, known[key])
    has_external = any(k[0] != CandidateIdentifier.Kind.NAME_LOCATION for k in keys)
    name_match = known.get(keys[-1])
    if name_match is None or name_match == (clash and clash[1]):
        return None, clash
    # The name matches; a document that names external ids the matched candidate does not have is the same person
    # only if that candidate has no external ids of those kinds either.
    kinds = {k[0] for k in keys[:-1]} if has_external else set()

    def candidate_kinds() -> set[str]:
        return set(
            CandidateIdentifier.objects.filter(candidate_id=name_match, kind__in=kinds).values_list("kind", flat=True)
        )

    if not is_the_person(external=False, name=True, document_kinds=kinds, person_kinds=candidate_kinds):
        return None, clash
    return name_match, clash


@dataclass(slots=True)
class Clash:
    """A file whose key led to a candidate of a clearly different name: recorded as a possible duplicate."""

    index: int  # of the profile in the chunk
    key: tuple[str, str]
    holder: Person
    person: Person | None = None  # the candidate the file wrote


_KEY_WORDS = {
    CandidateIdentifier.Kind.EMAIL: "the e-mail address",
    CandidateIdentifier.Kind.GITHUB: "the GitHub account",
    CandidateIdentifier.Kind.GITLAB: "the GitLab account",
    CandidateIdentifier.Kind.LINKEDIN: "the LinkedIn profile",
    CandidateIdentifier.Kind.TWITTER: "the Twitter/X handle",
    CandidateIdentifier.Kind.STACKOVERFLOW: "the Stack Overflow profile",
    CandidateIdentifier.Kind.URL: "the site",
}


def clash_warning(clash: Clash, created: bool) -> str:
    kind, value = clash.key
    holder, person = clash.holder, clash.person
    said = f"{_KEY_WORDS.get(kind, kind)} {value}"
    what = (
        f"imported as a new candidate, {person.values['name']}, rather than over {holder.values['name']}"
        if created
        else f"imported into {person.values['name']} (#{person.pk})"
    )
    return (
        f"This file names {said}, which is {holder.values['name']}'s (#{holder.pk}), a clearly different name from "
        f"{person.values['name']}: {what}, and the two are listed as possible duplicates."
    )


def is_bare_site(key: tuple[str, str]) -> bool:
    """A site's own address (a domain, no path): when several people name it, it is nobody's."""
    kind, value = key
    if kind != CandidateIdentifier.Kind.URL:
        return False
    host, segments = url_parts(value)
    return bool(host) and not segments


def clashes_record(clashes: list[Clash], now_shared: set[tuple[str, str]]) -> None:
    """The possible duplicates the chunk's clashes found, and the sites that turned out to be several people's."""
    pairs = {(clash.holder.pk, clash.person.pk): clash.key for clash in clashes if clash.holder.pk != clash.person.pk}
    if pairs:
        PossibleDuplicate.objects.bulk_create(
            [
                PossibleDuplicate(
                    first_id=first,
                    second_id=second,
                    reason=PossibleDuplicate.Reason.NAME_DIFFERS,
                    kind=kind,
                    value=value,
                )
                for (first, second), (kind, value) in pairs.items()
            ],
            ignore_conflicts=True,
        )
    if now_shared:
        SharedIdentifier.objects.bulk_create(
            [SharedIdentifier(kind=kind, value=value) for kind, value in sorted(now_shared)], ignore_conflicts=True
        )
        for kind, value in sorted(now_shared):
            CandidateIdentifier.objects.filter(kind=kind, value=value).delete()


def preview_outcomes(profiles: list[NormalisedProfile]) -> dict[str, int]:
    """What loading these profiles would do (created / updated / unchanged), reading only."""
    all_keys = [profile.identity_keys for profile in profiles]
    shared = shared_keys(all_keys)
    keys_by_doc = [[key for key in keys if key not in shared] for keys in all_keys]
    known = find_existing(keys_by_doc)
    stored = dict(Candidate.objects.filter(pk__in=set(known.values())).values_list("pk", "document_sha256"))
    name_of = dict(Candidate.objects.filter(pk__in=stored.keys()).values_list("pk", "name"))
    counts = {SourceFile.Outcome.CREATED: 0, SourceFile.Outcome.UPDATED: 0, SourceFile.Outcome.UNCHANGED: 0}
    for profile, keys in zip(profiles, keys_by_doc, strict=True):
        target, _ = match_candidate(keys, known, name_of, profile.values["name"])
        if target is None:
            counts[SourceFile.Outcome.CREATED] += 1
        elif stored.get(target) == profile.fingerprint:
            counts[SourceFile.Outcome.UNCHANGED] += 1
        else:
            counts[SourceFile.Outcome.UPDATED] += 1
    return counts
