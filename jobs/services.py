"""Writes of jobs: a job created from a pasted description, its criteria stored and edited, its pipeline.

A job's pipeline is a ``profiles.Shortlist`` created with it, so adding, moving and noting candidates go through the
shortlist services, which check the owner and record each change as an event (one path for shortlists and jobs).
Only a job's owner (or a superuser) changes it, as with shortlists (``profiles.selectors.working_list_permits``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from core.errors import ApplicationError
from jobs.criteria import Criteria
from jobs.models import Job, JobSkill
from jobs.selectors import criteria_overridden, description_checked, description_criteria, job_criteria
from profiles import services as profile_services
from profiles.models import Candidate, Shortlist, ShortlistEntry, Skill
from profiles.selectors import working_list_permits

JOB_FIELDS = ("title", "description", "status", "shared")
NAME_MAX = 200  # Shortlist.name


@dataclass(frozen=True)
class JobSaved:
    job: Job
    warnings: tuple[str, ...] = ()  # the extractor's (no skill found) and ours (a skill left out)


def _require_writable(*, job: Job, user) -> None:
    if user is not None and not working_list_permits(user=user, working_list=job, for_writing=True):
        raise PermissionDenied(f"Only its owner changes the job “{job}”.")


def _clean_title(title: str) -> str:
    title = " ".join(str(title).split())
    if not title:
        raise ApplicationError("A job needs a title.", code="invalid", details={"title": ["This field is required."]})
    return title[:NAME_MAX]


def _pipeline_name(*, owner, title: str, exclude: int | None = None) -> str:
    """The job's title, or "title (2)", "(3)"... when the owner has a shortlist of that name already (names are
    unique per owner)."""
    base = title[: NAME_MAX - 6]
    taken = set(
        Shortlist.objects.filter(owner=owner, name__startswith=base).exclude(pk=exclude).values_list("name", flat=True)
    )
    if title not in taken:
        return title
    number = 2
    while f"{base} ({number})" in taken:
        number += 1
    return f"{base} ({number})"


SKILL_CRITERIA = ("required", "preferred", "excluded")


def _store_criteria(*, job: Job, criteria: Criteria, skills: bool = True) -> list[str]:
    """Replace the job's criteria with ``criteria`` (``skills=False``: all but the skill rows, which stay as they
    are); returns a warning per skill the database does not hold (dropped: a criteria row points at a Skill)."""
    _store_scalar_criteria(job=job, criteria=criteria)
    if not skills:
        return []
    wanted = [
        *((slug, JobSkill.Kind.REQUIRED, score) for slug, score in criteria.required),
        *((slug, JobSkill.Kind.PREFERRED, None) for slug in criteria.preferred),
        *((slug, JobSkill.Kind.EXCLUDED, None) for slug in criteria.excluded),
    ]
    skill_ids = dict(Skill.objects.filter(slug__in={slug for slug, _, _ in wanted}).values_list("slug", "id"))
    rows, seen, dropped = [], set(), []
    for slug, kind, min_score in wanted:
        if slug not in skill_ids:
            dropped.append(slug)
        elif slug not in seen:  # a skill is required, preferred or excluded: the first kind named wins
            seen.add(slug)
            rows.append(JobSkill(job=job, skill_id=skill_ids[slug], kind=kind, min_score=min_score))
    job.skills.all().delete()
    JobSkill.objects.bulk_create(rows)
    return [f"The skill “{slug}” is not in the database; it was left out of the criteria." for slug in dropped]


def _store_scalar_criteria(*, job: Job, criteria: Criteria) -> None:
    job.countries, job.remote = list(criteria.countries), criteria.remote
    job.min_years_coding, job.keywords = criteria.min_years_coding, list(criteria.keywords)
    job.ignored = [item.to_dict() for item in criteria.ignored]
    job.unrecognised = list(criteria.unrecognised)
    job.save(
        update_fields=["countries", "remote", "min_years_coding", "keywords", "ignored", "unrecognised", "updated_at"]
    )


def titled_description(title: str, description: str) -> str:
    """The text a job's criteria are read from: the description under its title, unless it starts with it already.
    The extractor takes a text's first line as the role (its seniority and title words become keywords), and a pasted
    description often starts with a sentence about the company instead. Anything but a string is passed on as it is,
    for the extractor to refuse."""
    if not isinstance(description, str):
        return description
    first_line = description.lstrip().split("\n", 1)[0].strip()
    if not (title and first_line) or first_line.casefold().startswith(title.casefold()):  # an empty one is refused
        return description
    return f"{title}\n\n{description}"


@transaction.atomic
def job_create(
    *,
    user,
    title: str,
    description: str,
    status: str = Job.Status.OPEN,
    shared: bool = False,
    criteria: Mapping | None = None,
) -> JobSaved:
    """A job from a pasted description: its criteria extracted (``extract_criteria`` with the database's skills and
    cities), then ``criteria``'s fields in their place (the API's override shape), stored as rows; and its pipeline,
    a shortlist of the user's named after the job. ApplicationError for a description that cannot be read or an
    override naming an unknown skill."""
    title = _clean_title(title)
    description_checked(description)  # as pasted: the cap counts the description, not the title read above it
    text = titled_description(title, description)
    extracted = description_criteria(text, heading_chars=len(text) - len(description))
    if criteria:
        extracted = criteria_overridden(extracted, criteria)
    pipeline = Shortlist.objects.create(
        owner=user,
        name=_pipeline_name(owner=user, title=title),
        description=f"The pipeline of the job “{title}”.",
        shared=shared,
    )
    job = Job.objects.create(
        title=title, description=description, status=status, shared=shared, owner=user, pipeline=pipeline
    )
    warnings = _store_criteria(job=job, criteria=extracted)
    return JobSaved(job=job, warnings=(*extracted.warnings, *warnings))


@transaction.atomic
def job_update(*, job: Job, user, criteria: Mapping | None = None, **fields) -> JobSaved:
    """Change a job's fields (title, description, status, shared) and criteria (``criteria``: the fields given replace
    the stored ones; skills as rows, replaced). A new title renames the pipeline; sharing the job shares it. The
    description is kept as edited; its criteria are not read again (the recruiter's edits stand)."""
    unknown = set(fields) - set(JOB_FIELDS)
    if unknown:
        raise TypeError(f"job_update() got unexpected fields: {', '.join(sorted(unknown))}")
    job = Job.objects.select_for_update().select_related("pipeline").get(pk=job.pk)
    _require_writable(job=job, user=user)
    if "title" in fields:
        fields["title"] = _clean_title(fields["title"])
    if "description" in fields:
        description_checked(fields["description"])  # the same checks as on creation (empty, size, binary)
    for name, value in fields.items():
        setattr(job, name, value)
    job.save()
    pipeline = job.pipeline
    if "title" in fields and pipeline.name != fields["title"]:
        pipeline.name = _pipeline_name(owner=pipeline.owner_id, title=job.title, exclude=pipeline.pk)
    pipeline.shared = job.shared
    pipeline.save(update_fields=["name", "shared"])
    warnings: list[str] = []
    if criteria is not None:
        warnings = _store_criteria(
            job=job,
            criteria=criteria_overridden(job_criteria(job), criteria),
            skills=any(name in criteria for name in SKILL_CRITERIA),
        )
    return JobSaved(job=job, warnings=tuple(warnings))


@transaction.atomic
def job_skills_save(*, job: Job, user, changed: Iterable[JobSkill] = (), deleted: Iterable[JobSkill] = ()) -> None:
    """Save and delete criteria rows of one job, edited one by one (the admin's inline), for its owner only. A
    preferred or excluded skill has no minimum score."""
    _require_writable(job=Job.objects.get(pk=job.pk), user=user)
    for row in deleted:
        if row.job_id != job.pk:
            raise PermissionDenied("A criteria row of another job.")
        row.delete()
    for row in changed:
        if row.job_id != job.pk:
            raise PermissionDenied("A criteria row of another job.")
        if row.kind != JobSkill.Kind.REQUIRED:
            row.min_score = None
        row.save()
    Job.objects.filter(pk=job.pk).update(updated_at=timezone.now())


# --- The pipeline --------------------------------------------------------------------------------------------------


@transaction.atomic
def pipeline_add(
    *, job: Job, candidate: Candidate, user, stage: str | None = None, note: str | None = None
) -> tuple[ShortlistEntry, bool]:
    """Put a candidate in the job's pipeline ("sourced", or ``stage``), with a note if given; one already in it is
    moved to ``stage`` and noted instead. Returns the entry and whether it was added."""
    _require_writable(job=job, user=user)
    added = profile_services.shortlist_add_candidates(shortlist=job.pipeline, candidate_ids=[candidate.pk], user=user)
    entry = job.pipeline.entries.get(candidate=candidate)
    if stage:
        entry = pipeline_move(entry=entry, stage=stage, user=user)
    if note:
        entry = pipeline_note(entry=entry, text=note, user=user)
    return entry, bool(added)


def pipeline_move(*, entry: ShortlistEntry, stage: str, user) -> ShortlistEntry:
    """Move a candidate to a stage of the pipeline (``ShortlistEntry.Status``), recorded with its author and time."""
    return profile_services.shortlist_entry_move(entry=entry, status=stage, user=user)


def pipeline_note(*, entry: ShortlistEntry, text: str, user) -> ShortlistEntry:
    """Add a note to a candidate in the pipeline, recorded with its author and time."""
    return profile_services.shortlist_entry_note(entry=entry, text=text, user=user)
