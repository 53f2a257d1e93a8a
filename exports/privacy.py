"""The exports' part in an erasure: the files written before it may hold the person.

A job records the candidates its file holds as it writes it (``Export.candidate_ids``): every finished file that holds
the person (or one of the candidates merged into them), and every file written before such records were kept, is
deleted and its job marked expired, as when its retention ends; its owner runs it again for a file without the person.
The other files stay: they hold nobody the erasure is about. A job still running is handed back to the queue, so its
file, written partly before the erasure, is never stored (the running worker loses its claim and deletes what it
wrote); the next run no longer finds the person. Queued jobs have not read anything yet. A job claimed after that step
and before the erasure commits still reads the person: once it has committed, a second pass re-queues every job that
started before then and expires every one that finished since holding the person. A job whose query names the person
(``q=`` their name, an e-mail) keeps no such query.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from exports.models import Export
from exports.services import export_enqueue_on_commit, export_files_delete
from privacy.erasure import ErasureContext
from privacy.services import query_names_them

__all__ = ["exports_erase", "exports_naming"]


def exports_naming(context: ErasureContext):
    """The export jobs whose query searched for the person by name, e-mail or account."""
    if not context.needles:
        return Export.objects.none()
    ids = [
        pk
        for pk, query in Export.objects.exclude(query="").values_list("pk", "query")
        if query_names_them(query, context.needles)
    ]
    return Export.objects.filter(pk__in=ids)


def _holding(candidate_ids: tuple[int, ...]) -> Q:
    """The finished files that hold one of these candidates, or whose candidates were not recorded."""
    return Q(candidate_ids__isnull=True) | Q(candidate_ids__overlap=list(candidate_ids))


def exports_erase(context: ErasureContext) -> int:
    """Erasure step: expire the finished exports that hold the person and re-queue the running ones; returns how many
    jobs it touched. Files are deleted once the erasure commits (a rolled-back erasure leaves them)."""
    done = list(
        Export.objects.select_for_update().filter(
            _holding(context.candidate_ids), status=Export.Status.DONE, created_at__lte=context.erased_at
        )
    )
    Export.objects.filter(pk__in=[export.pk for export in done]).update(status=Export.Status.EXPIRED, file_name="")
    for export in done:
        transaction.on_commit(lambda export=export: export_files_delete(export), robust=True)
    running = list(
        Export.objects.filter(status=Export.Status.RUNNING, created_at__lte=context.erased_at).values_list(
            "pk", flat=True
        )
    )
    Export.objects.filter(pk__in=running, status=Export.Status.RUNNING).update(
        status=Export.Status.QUEUED, claim_token=""
    )
    for export_id in running:
        export_enqueue_on_commit(export_id)
    erased_at, candidate_ids = context.erased_at, context.candidate_ids
    transaction.on_commit(lambda: _runs_during_erasure_forget(erased_at, candidate_ids), robust=True)
    return len(done) + len(running) + _queries_naming_them_forget(context)


def _runs_during_erasure_forget(erased_at, candidate_ids: tuple[int, ...]) -> None:
    """Once the erasure has committed: a job claimed after the step above and before the commit read the database
    as it was before the commit, the person included. Every job that started running before now (the commit) and
    is still running is handed back to the queue, and every one that finished since the erasure began holding the
    person is expired with its file. Running it again changes nothing more."""
    committed_at = timezone.now()
    with transaction.atomic():
        done = list(
            Export.objects.select_for_update().filter(
                _holding(candidate_ids),
                status=Export.Status.DONE,
                started_at__gte=erased_at,
                started_at__lte=committed_at,
            )
        )
        Export.objects.filter(pk__in=[export.pk for export in done]).update(status=Export.Status.EXPIRED, file_name="")
        running = list(
            Export.objects.filter(status=Export.Status.RUNNING, started_at__lte=committed_at).values_list(
                "pk", flat=True
            )
        )
        Export.objects.filter(pk__in=running, status=Export.Status.RUNNING).update(
            status=Export.Status.QUEUED, claim_token=""
        )
        for export in done:
            transaction.on_commit(lambda export=export: export_files_delete(export), robust=True)
        for export_id in running:
            export_enqueue_on_commit(export_id)


def _queries_naming_them_forget(context: ErasureContext) -> int:
    """An export that searched for the person by name, e-mail or account keeps no such query: a finished or failed
    one's is emptied (its file is gone already); one still to run fails instead, as it would now find nobody and an
    empty query would export everyone."""
    ids = list(exports_naming(context).values_list("pk", flat=True))
    if not ids:
        return 0
    Export.objects.filter(pk__in=ids, status__in=Export.ACTIVE).update(
        status=Export.Status.FAILED,
        claim_token="",
        finished_at=context.erased_at,
        error="A person this export searched for was erased; it was not run.",
    )
    return Export.objects.filter(pk__in=ids).update(query="")
