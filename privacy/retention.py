"""Retention: a candidate with no activity for ``RETENTION_DAYS`` who is in no open job's pipeline is
erased (``privacy.services.candidate_erase``) or anonymised (``candidate_anonymise``), as ``RETENTION_ACTION`` says.

Activity is the latest of: the candidate's own changes (``updated_at``: an import that changed them, an edit, a
merge), a history row (an edit or a revert), a file of theirs received or imported (the import's source files), and a
change of one of their shortlist or pipeline entries (added, moved, noted). Being in the pipeline of an open job keeps
a candidate whatever the dates: a recruiter is working on them.

The import's source files and the jobs are apps above this one (the layers: ingestion | jobs -> privacy), so they are
reached through the relations Django knows by name, never imported; tests/privacy/test_retention.py pins the names
against those apps' models. Every test is an index-backed anti-join (NOT EXISTS) on the candidates whose
``updated_at`` is old, so the selection is one statement at any size.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist
from django.db import DatabaseError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from db.errors import is_transient
from db.locks import lock_keys
from privacy.erasure import ErasureContext, erasure_steps
from privacy.models import PrivacyEvent, SourcingRecord, Suppression
from privacy.services import (
    admin_log_forget,
    candidate_erase,
    candidate_identity_keys,
    repositories_delete_unused,
)
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    Contribution,
    Education,
    MergeRecord,
    NotDuplicate,
    Position,
    Shortlist,
    ShortlistEntry,
    ShortlistEntryEvent,
    SpokenLanguage,
)
from profiles.search import candidates_refresh_search_columns
from profiles.selectors import candidate_filter_choices_forget

logger = logging.getLogger(__name__)

ERASE, ANONYMISE = "erase", "anonymise"
ACTIONS = (ERASE, ANONYMISE)
# Candidates one run (one task) handles; the task queues itself again while more are left.
BATCH_SIZE = 200

# jobs.models.Job.pipeline's query name from a shortlist, and Job.Status.OPEN.
PIPELINE_OWNER = "job"
OPEN_STATUS = "open"
# ingestion.models.SourceFile.candidate's accessor from a candidate, and the file's received and imported times.
IMPORT_RELATION = "sources"
IMPORT_TIMES = ("created_at", "processed_at")

# An anonymised candidate's name (the column may not be empty) and the mark that keeps them out of later runs: the
# hash of the document last loaded, which no loaded document can have (a sha256 is 64 hex digits).
ANONYMISED_NAME = "Anonymised candidate"
ANONYMISED_MARK = "anonymised"
# What anonymisation blanks on the candidate (the rest stays: country, years of coding and employment, spoken
# languages, the declared totals, and through them and the skills the search columns).
ANONYMISED_BLANK = ("headline", "title", "company", "city", "region", "summary", "email", "website")


def retention_cutoff(now: dt.datetime | None = None) -> dt.datetime:
    return (now or timezone.now()) - dt.timedelta(days=settings.RETENTION_DAYS)


def _import_relation():
    """The import's source-file relation, or None when no installed app has one (no import, no import activity)."""
    try:
        return Candidate._meta.get_field(IMPORT_RELATION)
    except FieldDoesNotExist:
        return None


def _has_pipeline_owner() -> bool:
    """Whether an installed app owns shortlists as pipelines (jobs); without it no pipeline is open."""
    return any(rel.name == PIPELINE_OWNER for rel in Shortlist._meta.related_objects)


def expired_candidates(*, now: dt.datetime | None = None) -> QuerySet[Candidate]:
    """Candidates whose last activity is older than ``RETENTION_DAYS`` and who are in no open job's pipeline; those
    already anonymised are not among them."""
    cutoff = retention_cutoff(now)
    person = OuterRef("pk")
    recent = [
        Exists(Candidate.history.model.objects.filter(id=person, history_date__gte=cutoff)),
        Exists(ShortlistEntry.objects.filter(candidate=person, added_at__gte=cutoff)),
        Exists(ShortlistEntryEvent.objects.filter(entry__candidate=person, at__gte=cutoff)),
    ]
    relation = _import_relation()
    if relation is not None:
        received = Q()
        for name in IMPORT_TIMES:
            received |= Q(**{f"{name}__gte": cutoff})
        files = relation.related_model._base_manager.filter(received, **{relation.field.attname: person})
        recent.append(Exists(files))
    if _has_pipeline_owner():
        in_open_job = {f"shortlist__{PIPELINE_OWNER}__status": OPEN_STATUS}
        recent.append(Exists(ShortlistEntry.objects.filter(candidate=person, **in_open_job)))
    queryset = Candidate.objects.filter(updated_at__lt=cutoff).exclude(document_sha256=ANONYMISED_MARK)
    for condition in recent:
        queryset = queryset.filter(~condition)
    return queryset.order_by("pk")


@dataclass
class RetentionReport:
    action: str
    counts: dict[str, int] = field(default_factory=dict)
    candidate_ids: list[int] = field(default_factory=list)
    more_left: bool = False


def retention_action() -> str:
    action = settings.RETENTION_ACTION
    if action not in ACTIONS:
        raise ValueError(f"RETENTION_ACTION must be one of {', '.join(ACTIONS)}, not {action!r}.")
    return action


def retention_apply(
    *,
    now: dt.datetime | None = None,
    limit: int | None = None,
    candidate_ids: Iterable[int] | None = None,
    user=None,
) -> RetentionReport:
    """Erase or anonymise the expired candidates (at most ``limit``; of ``candidate_ids`` only, if given), each in a
    transaction of its own, and write the run's report: a PrivacyEvent of kind "retention" with the counts (no names,
    no ids). Each candidate is selected again, locked, just before: one a recruiter put in an open pipeline or edited
    since the list was made stays.

    A candidate whose transaction meets a transient database error (a serialization failure, a deadlock with an
    import of the person) is rolled back alone and counted ``skipped``: still expired, the next run tries them
    again. Any other database error stops the run: it is a bug, not a moment's conflict."""
    action = retention_action()
    now = now or timezone.now()
    expired = expired_candidates(now=now)
    if candidate_ids is not None:
        expired = expired.filter(pk__in=list(candidate_ids))
    chosen = list(expired.values_list("pk", flat=True)[: limit + 1] if limit else expired.values_list("pk", flat=True))
    report = RetentionReport(action=action, more_left=bool(limit) and len(chosen) > limit)
    chosen = chosen[:limit] if limit else chosen
    totals: dict[str, int] = {}
    done = skipped = 0
    for candidate_id in chosen:
        try:
            counts = _retire_one(candidate_id, action=action, now=now, user=user)
        except DatabaseError as exc:
            if not is_transient(exc):
                raise
            logger.warning("Retention skipped candidate %s for now: %s", candidate_id, exc)
            skipped += 1
            continue
        if counts is None:
            continue
        done += 1
        report.candidate_ids.append(candidate_id)
        for key, n in counts.items():
            totals[key] = totals.get(key, 0) + n
    report.counts = {
        "retention_days": settings.RETENTION_DAYS,
        "expired": len(chosen),
        "erased": done if action == ERASE else 0,
        "anonymised": done if action == ANONYMISE else 0,
        "skipped": skipped,
        "more_left": int(report.more_left),
        **{f"rows_{key}": n for key, n in sorted(totals.items())},
    }
    PrivacyEvent.objects.create(kind=PrivacyEvent.Kind.RETENTION, at=now, by=user, counts=report.counts)
    logger.info("Retention: %s", report.counts)
    return report


@transaction.atomic
def _retire_one(candidate_id: int, *, action: str, now: dt.datetime, user) -> dict[str, int] | None:
    # The loader's order (``ingestion.loaders.load_profiles``): the person's identity-key locks, then their row. The
    # other order deadlocks with an import of them, which holds the keys and waits for the row.
    unlocked = Candidate.objects.filter(pk=candidate_id).first()
    if unlocked is None:
        return None
    lock_keys(candidate_identity_keys(unlocked))
    # The row lock first, the test for expiry after it, in a statement of its own: under READ COMMITTED a statement
    # that waits for a row lock re-reads only that row, and its NOT EXISTS would test a pipeline entry committed
    # during the wait against the old snapshot; the next statement's snapshot sees it.
    candidate = Candidate.objects.select_for_update().filter(pk=candidate_id).first()
    if candidate is None or not expired_candidates(now=now).filter(pk=candidate_id).exists():
        return None  # gone meanwhile (another run), or active again
    if action == ERASE:
        return dict(candidate_erase(candidate=candidate, user=user, reason=Suppression.Reason.RETENTION).counts)
    return candidate_anonymise(candidate=candidate, user=user, now=now)


@transaction.atomic
def candidate_anonymise(*, candidate: Candidate, user=None, now: dt.datetime | None = None) -> dict[str, int]:
    """Keep what a candidate says about skills, not who they are; returns the rows touched, by kind.

    Kept: the candidate row (named ``ANONYMISED_NAME``) with country, years of coding and employment, spoken
    languages and the declared totals; their skills and scores; their contributions to repositories others
    contribute to as well, with the numbers (commits, comments, dates, active months) but no role or summary; their
    spoken languages' codes and levels. Removed: every other field of the candidate, identifiers, work history,
    education, contributions to repositories only they contribute to (their own, named after their account) and
    those repositories, shortlist and pipeline entries with their events and notes, history rows, merge records,
    different-person marks, the sourcing record (there is no one left to tell), the admin log's rows about them, and
    what the erasure steps of other apps remove (the stored bytes of their source files, export files). No
    suppression is written: the person may be sourced again later, as a new candidate.
    """
    now = now or timezone.now()
    pk = candidate.pk
    merged_ids = list(MergeRecord.objects.filter(survivor_id=pk).values_list("merged_id", flat=True))
    ids = (pk, *merged_ids)
    counts: dict[str, int] = {}
    context = ErasureContext(candidate_ids=ids, digests=frozenset(), erased_at=now, counts=counts)
    for name, step in erasure_steps().items():
        counts[name] = step(context)
    counts["admin_log_entries"] = admin_log_forget(candidate)
    own = Contribution.objects.filter(candidate_id=pk).exclude(
        Exists(Contribution.objects.filter(repository_id=OuterRef("repository_id")).exclude(candidate_id=pk))
    )
    own_repositories = list(own.values_list("repository_id", flat=True))
    counts["own_contributions"] = own.delete()[0]
    counts["own_repositories"] = repositories_delete_unused(ids=own_repositories)
    counts["contributions_kept"] = Contribution.objects.filter(candidate_id=pk).update(role="", summary="")
    counts["languages_kept"] = SpokenLanguage.objects.filter(candidate_id=pk).update(raw="")
    for key, queryset in (
        ("identifiers", CandidateIdentifier.objects.filter(candidate_id=pk)),
        ("positions", Position.objects.filter(candidate_id=pk)),
        ("education", Education.objects.filter(candidate_id=pk)),
        ("shortlist_entries", ShortlistEntry.objects.filter(candidate_id=pk)),
        ("not_duplicates", NotDuplicate.objects.filter(Q(first_id=pk) | Q(second_id=pk))),
        ("merge_records", MergeRecord.objects.filter(Q(survivor_id__in=ids) | Q(merged_id__in=ids))),
        ("sourcing_records", SourcingRecord.objects.filter(candidate_id=pk)),
    ):
        counts[key] = queryset.delete()[0]
    # An update, not save(): save() would write a history row, and the history goes.
    Candidate.objects.filter(pk=pk).update(
        name=ANONYMISED_NAME,
        badges=[],
        protected_fields=[],
        document_sha256=ANONYMISED_MARK,
        updated_at=now,
        **dict.fromkeys(ANONYMISED_BLANK, ""),
    )
    counts["history_rows"] = Candidate.history.model.objects.filter(id__in=ids).delete()[0]
    candidates_refresh_search_columns(candidate_ids=[pk])  # the full-text vector held the name
    transaction.on_commit(candidate_filter_choices_forget, robust=True)
    return counts
