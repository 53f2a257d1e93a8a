"""A job's pipeline board: every stage a column, each card moved on in one click or to any stage."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.http import Http404, HttpResponseNotAllowed
from django.template.response import TemplateResponse
from django.urls import reverse

from jobs import services
from jobs.admin.common import posted_id
from jobs.selectors import PIPELINE_STAGES, job_pipeline
from profiles.models import ShortlistEntry, ShortlistEntryEvent


def next_stage(stage: str) -> str | None:
    """The stage after ``stage`` on the way to "hired"; None from "hired" and "rejected" (the ends)."""
    order = [s for s in PIPELINE_STAGES if s != ShortlistEntry.Status.REJECTED]
    if stage not in order or stage == order[-1]:
        return None
    return order[order.index(stage) + 1]


@dataclass
class Card:
    """One entry of the board: its latest note and how it got to its stage, read from the events ``job_pipeline``
    prefetched (oldest first)."""

    entry: ShortlistEntry
    latest_note: ShortlistEntryEvent | None = None
    history: list[ShortlistEntryEvent] = field(default_factory=list)  # added, then each stage change


def card(entry: ShortlistEntry) -> Card:
    events = list(entry.events.all())
    notes = [event for event in events if event.kind == ShortlistEntryEvent.Kind.NOTE and event.note.strip()]
    history = [event for event in events if event.kind != ShortlistEntryEvent.Kind.NOTE]
    return Card(entry=entry, latest_note=notes[-1] if notes else None, history=history)


class PipelinePages:
    """The board and its moves (a mixin of ``JobAdmin``, on ``common.JobPages``)."""

    board_template = "admin/jobs/job/pipeline_board.html"

    def pipeline_board_view(self, request, object_id: int):
        """The pipeline by stage, every stage a column, each card moved on in one click or to any stage."""
        job = self.page_job(request, object_id, candidates=True)  # the cards name candidates
        labels = dict(ShortlistEntry.Status.choices)
        columns = [
            {
                "stage": stage,
                "label": labels[stage],
                "entries": [card(entry) for entry in entries],
                "next": next_stage(stage),
                "next_label": labels.get(next_stage(stage) or "", ""),
            }
            for stage, entries in job_pipeline(job=job)
        ]
        context = {
            **self.page_context(request, job, f"Pipeline of {job.title}"),
            "columns": columns,
            "stages": list(ShortlistEntry.Status.choices),
            "total": sum(len(column["entries"]) for column in columns),
        }
        return TemplateResponse(request, self.board_template, context)

    def pipeline_move_view(self, request, object_id: int):
        """Move one entry of the job's pipeline to a stage (``jobs.services.pipeline_move`` records it)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        job = self.writable_job(request, object_id)
        entry_id = posted_id(request.POST.get("entry"))
        entry = ShortlistEntry.objects.select_related("candidate").filter(shortlist_id=job.pipeline_id, pk=entry_id)
        entry = entry.first() if entry_id is not None else None
        if entry is None:
            raise Http404("No such candidate in this job's pipeline.")
        stage = request.POST.get("stage", "")
        labels = dict(ShortlistEntry.Status.choices)
        if stage not in labels:
            messages.error(request, f"Choose a stage: {', '.join(labels.values())}.")
        elif stage == entry.status:
            messages.info(request, f"{entry.candidate.name} is at {labels[stage]} already.")
        else:
            services.pipeline_move(entry=entry, stage=stage, user=request.user)
            messages.success(request, f"{entry.candidate.name} moved to {labels[stage]}.")
        return self.back(request, reverse("admin:jobs_job_pipeline_board", args=[job.pk]))
