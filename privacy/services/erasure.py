"""The erasure itself: the person's identity keys, their suppressions, and everything held about them deleted in one
transaction (what other apps hold of them they remove in registered steps, ``privacy.erasure``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.identity import (
    email_key,
    identifier_key,
    name_location_key,
    network_page,
    personal_site,
    url_key,
)
from db.locks import lock_keys
from privacy.erasure import ErasureContext, erasure_steps
from privacy.hashing import identifier_digests
from privacy.models import ErasureRequest, PrivacyEvent, Suppression
from privacy.services.mentions import ERASED_TEXT, admin_log_forget, saved_searches_naming, shared_identifiers_of
from privacy.services.repositories import repositories_delete_unused, repositories_forget, repositories_of_accounts
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    MergeRecord,
    Position,
)
from profiles.selectors import candidate_filter_choices_forget


def candidate_identity_keys(candidate: Candidate) -> list[tuple[str, str]]:
    """Every identity key the person is known by, in the one normalisation (``core.identity.identifier_key``): their
    identifiers as the import stored them, and those their current fields give (an e-mail or a personal site edited
    by hand, the name with location as it reads now)."""
    stored = CandidateIdentifier.objects.filter(candidate=candidate).values_list("kind", "value")
    keys = [(kind, identifier_key(kind, value)) for kind, value in stored]
    kind = CandidateIdentifier.Kind
    if candidate.email:
        keys.append((kind.EMAIL, email_key(candidate.email)))
    if candidate.website:
        work = list(Position.objects.filter(candidate=candidate).values_list("url", "company"))
        work_sites, companies = [url for url, _ in work if url], [candidate.company, *(name for _, name in work)]
        if network_page(candidate.website) or personal_site(
            candidate.website, work_sites=work_sites, companies=companies
        ):
            keys.append((kind.URL, url_key(candidate.website)))
    place = candidate.country_code or candidate.country.casefold()
    keys.append((kind.NAME_LOCATION, name_location_key(candidate.name, candidate.city, place)))
    return list(dict.fromkeys(key for key in keys if key[1]))


def erasure_message(erased_at: datetime, *, reason: str = Suppression.Reason.REQUEST) -> str:
    """What a refused file's row says, with the day of the erasure in the site's time zone; a retention erasure was
    nobody's request, and says so."""
    day = timezone.localdate(erased_at)
    if reason == Suppression.Reason.RETENTION:
        return f"This person's data was erased on {day:%Y-%m-%d} under the retention policy; the file was not imported"
    return f"This person asked to be erased on {day:%Y-%m-%d}; the file was not imported"


@transaction.atomic
def candidate_erase(
    *, candidate: Candidate, user, request: ErasureRequest | None = None, reason: str = Suppression.Reason.REQUEST
) -> PrivacyEvent:
    """Erase a person: keep keyed hashes of their identifiers (so no later import brings them back), then delete
    everything held about them, in one transaction; returns the audit row, which holds counts only.

    Deleted: the candidate and all that cascades from it (skills, jobs, education, languages, contributions,
    identifiers, shortlist and pipeline entries with their events and notes, not-duplicate marks, the sourcing
    record), the history rows of them and of the candidates merged into them, the merge records naming them, the
    admin log's rows about those objects (and their name in other rows' messages), repositories only they contributed
    to, saved searches for them by name or identifier, the records saying an identifier of theirs is shared, and
    whatever the registered steps remove (source files' bytes, export files and queries). Caches are forgotten once it
    commits.
    """
    # The loader's order: its key locks first, then the candidate's row; the keys again once both are held (an import
    # that finished meanwhile may have added some).
    lock_keys(candidate_identity_keys(Candidate.objects.get(pk=candidate.pk)))
    candidate = Candidate.objects.select_for_update().get(pk=candidate.pk)
    now = timezone.now()
    context = erasure_context(candidate, erased_at=now, reason=reason)
    ids, digests, counts = context.candidate_ids, sorted(context.digests), context.counts
    counts.update({"candidates": 1, "merged_candidates": len(ids) - 1})

    if request is None:
        request = ErasureRequest.objects.filter(candidate=candidate, status=ErasureRequest.Status.OPEN).first()
    event = PrivacyEvent.objects.create(kind=PrivacyEvent.Kind.ERASURE, at=now, by=user, request=request)
    created = Suppression.objects.bulk_create(
        [
            Suppression(
                kind=kind, digest=digest, erased_at=now, erased_by=user, request=request, erasure=event, reason=reason
            )
            for kind, digest in digests
        ],
        ignore_conflicts=True,  # the same key of an earlier erasure stays with that one, its date the first
    )
    counts["suppressions"] = len(created)
    # Every open request about them is decided by this erasure.
    ErasureRequest.objects.filter(candidate=candidate, status=ErasureRequest.Status.OPEN).update(
        status=ErasureRequest.Status.DONE, decided_by=user, decided_at=now
    )
    # A reason is free text ("Tove phoned from +46..."), whatever its help text asks: none about them is kept, a
    # rejected one's neither. Before the delete, which empties the requests' candidate.
    ErasureRequest.objects.filter(candidate=candidate).exclude(reason="").update(reason=ERASED_TEXT)

    for name, step in erasure_steps().items():
        counts[name] = step(context)

    counts["admin_log_entries"] = admin_log_forget(candidate, names=context.names)
    counts["saved_searches"] = saved_searches_naming(context).delete()[0]
    counts["shared_identifiers"] = shared_identifiers_of(context).delete()[0]
    counts["merge_records"] = MergeRecord.objects.filter(Q(survivor_id__in=ids) | Q(merged_id__in=ids)).delete()[0]
    repository_ids = list(candidate.contributions.values_list("repository_id", flat=True))
    accounts = list(
        CandidateIdentifier.objects.filter(
            candidate=candidate, kind__in=[CandidateIdentifier.Kind.GITHUB, CandidateIdentifier.Kind.GITLAB]
        ).values_list("value", flat=True)
    )
    candidate.delete()
    # After the delete: it writes a last history row ("deleted"), which goes with the others.
    counts["history_rows"] = Candidate.history.model.objects.filter(id__in=ids).delete()[0]
    owned = repositories_of_accounts(accounts)
    counts["repositories"] = repositories_delete_unused(ids=[*repository_ids, *owned])
    counts["repositories_anonymised"] = repositories_forget(
        [*repository_ids, *owned], accounts=accounts, needles=context.needles
    )

    event.counts, event.to_review = counts, context.to_review
    event.save(update_fields=["counts", "to_review"])
    transaction.on_commit(candidate_filter_choices_forget, robust=True)
    return event


def erasure_context(
    candidate: Candidate, *, erased_at: datetime | None = None, reason: str = Suppression.Reason.REQUEST
) -> ErasureContext:
    """What an erasure of the candidate knows of them (``privacy.erasure.ErasureContext``): their ids with those
    merged into them, the digests of their identity keys, and the strings a row not tied to them may name them by.
    The access request reads with the same context what the erasure would take."""
    merges = list(MergeRecord.objects.filter(survivor=candidate).values_list("merged_id", "merged_name"))
    merged_names = [name for _, name in merges]
    identifiers = [
        (kind, value)
        for kind, value in candidate_identity_keys(candidate)
        if kind != CandidateIdentifier.Kind.NAME_LOCATION and value
    ]
    return ErasureContext(
        identifiers=tuple(identifiers),
        candidate_ids=(candidate.pk, *(merged_id for merged_id, _ in merges)),
        digests=frozenset(identifier_digests(candidate_identity_keys(candidate))),
        erased_at=erased_at or timezone.now(),
        needles=_needles(candidate, merged_names=merged_names),
        reason=reason,
        names=tuple(name for name in dict.fromkeys([candidate.name, *merged_names, candidate.email]) if name),
    )


def _needles(candidate: Candidate, *, merged_names: Sequence[str] = ()) -> tuple[str, ...]:
    """The person's names and external identifiers as a file would write them (the identifiers are stored
    lower-cased: a step compares without case)."""
    external = CandidateIdentifier.objects.filter(candidate=candidate).exclude(
        kind=CandidateIdentifier.Kind.NAME_LOCATION
    )
    values = [candidate.name, *merged_names, candidate.email, *external.values_list("value", flat=True)]
    return tuple(dict.fromkeys(value for value in values if len(value) >= 3))
