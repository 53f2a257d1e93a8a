"""Sourcing records (the import's) and what an import that refused files of erased people leaves: its audit row and
the suppressions it widened."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from privacy.hashing import identifier_digests
from privacy.models import PrivacyEvent, Suppression

# The notice is due a month after sourcing, in PostgreSQL's month arithmetic (31 January + 1 month is the end of
# February), as migration 0002's backfill computes it too.
_SOURCING_INSERT_SQL = """
INSERT INTO privacy_sourcingrecord (candidate_id, sourced_at, source_batch_id, source_file_id, lawful_basis,
    notice_due_at, notified_at, notice_channel)
SELECT r.candidate_id, now(), r.batch_id, r.file_id, 'legitimate_interest', now() + interval '1 month', NULL, ''
FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[]) AS r(candidate_id, batch_id, file_id)
ON CONFLICT (candidate_id) DO NOTHING
"""


def sourcing_records_add(*, rows: Sequence[tuple[int, int | None, int | None]]) -> None:
    """Record how these candidates were sourced, those who have no record yet: (candidate id, batch id, file id).

    One statement for a whole chunk, in the import's transaction, so a candidate and their record commit together.
    The import passes every candidate it wrote; only the first import of each writes a row (``ON CONFLICT``)."""
    first: dict[int, tuple[int | None, int | None]] = {}
    for candidate_id, batch_id, file_id in rows:
        first.setdefault(candidate_id, (batch_id, file_id))
    if not first:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            _SOURCING_INSERT_SQL,
            [list(first), [batch for batch, _ in first.values()], [file for _, file in first.values()]],
        )


def import_refusals_record(*, files: int, keys_by_doc: Sequence[Sequence[tuple[str, str]]] = ()) -> None:
    """The audit row of an import that refused files of erased people (how many, no more), and the refused
    documents' identity keys (``keys_by_doc``) to widen the suppressions they matched (``suppressions_widen``)."""
    if files:
        PrivacyEvent.objects.create(kind=PrivacyEvent.Kind.IMPORT_REFUSED, counts={"files": files})
    if keys_by_doc:
        suppressions_widen(keys_by_doc=keys_by_doc)


def suppressions_widen(*, keys_by_doc: Sequence[Sequence[tuple[str, str]]]) -> int:
    """Add the digests of every form of an identifier that matched a suppression in one of its forms, under the
    suppression it matched; returns how many were added.

    A digest cannot be re-keyed: a suppression made before a form existed (``core.identity.identity_key_forms``:
    the one normalisation of identifiers, the mailbox of an e-mail, the folded town) holds the forms of its day
    alone, and another spelling of the same site would not match it. A refused file brings the identifier back in
    clear for a moment: its other forms are hashed then, so the next spelling is refused too. Only identifiers that
    matched are widened (the erased person's own, in the form they had), never the other identifiers of the file."""
    groups = [forms for keys in keys_by_doc for key in keys if len(forms := identifier_digests([key])) > 1]
    if not groups:
        return 0
    wanted = {digest for forms in groups for digest in forms}
    found = {
        (row.kind, row.digest): row
        for row in Suppression.objects.filter(
            digest__in=[digest for _, digest in wanted], kind__in={kind for kind, _ in wanted}
        ).order_by("erased_at", "pk")
    }
    added = []
    for forms in groups:
        matched = [found[form] for form in forms if form in found]
        if not matched:
            continue
        first = min(matched, key=lambda row: (row.erased_at, row.pk))
        for kind, digest in forms:
            if (kind, digest) not in found:
                added.append(
                    Suppression(
                        kind=kind,
                        digest=digest,
                        erased_at=first.erased_at,
                        reason=first.reason,
                        erased_by_id=first.erased_by_id,
                        request_id=first.request_id,
                        erasure_id=first.erasure_id,
                    )
                )
    return len(Suppression.objects.bulk_create(added, ignore_conflicts=True)) if added else 0
