"""Edits by hand: a recruiter's changes of a candidate, their history, the fields they protect, and reverts.

Imports write candidates in bulk, without history records; an edit in the admin goes through these services, which
record who changed what (fields and skills), protect the edited fields against later imports, and revert. Rows of a
candidate changed outside its own form (a repository, a contribution) go through here too."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from profiles.models import Candidate, CandidateSkill, Contribution, Repository, Skill, SkillAlias, SpokenLanguage
from profiles.search import candidates_refresh_search_columns, repositories_refresh_contributors
from profiles.selectors import candidate_skills_snapshot


def _tracked_differences(record, candidate: Candidate) -> list[str]:
    return [
        f.attname
        for f in record.__class__.tracked_fields
        if f.attname != "id" and getattr(record, f.attname) != getattr(candidate, f.attname)
    ]


@transaction.atomic
def candidate_history_catch_up(*, candidate_id: int) -> bool:
    """Record the stored state of a candidate when its history does not show it yet; True when a record was added.

    Called before an edit by hand, so the history shows what the edit changed, not what an import changed before it.
    """
    candidate = Candidate.objects.get(pk=candidate_id)
    skills = candidate_skills_snapshot(candidate_id=candidate_id)
    latest = candidate.history.order_by("-history_date", "-history_id").first()
    if latest is not None and not _tracked_differences(latest, candidate):
        if latest.skills is None:  # recorded outside the admin: the stored skills are the best knowledge
            candidate.history.filter(history_id=latest.history_id).update(skills=skills)
            return False
        if latest.skills == skills:
            return False
    when = candidate.updated_at
    if latest is not None and when <= latest.history_date:
        when = latest.history_date + timezone.timedelta(microseconds=1)
    candidate._history_user = None  # an import, not the recruiter whose request this is
    Candidate.history.bulk_history_create(
        [candidate],
        update=latest is not None,
        default_date=when,
        default_change_reason="Changed outside the admin (import)" if latest else "Imported",
        custom_historical_attrs={"skills": skills},
    )
    return True


@transaction.atomic
def candidate_save_by_hand(*, candidate: Candidate, user, release: Iterable[str] = (), reason: str = "") -> list[str]:
    """Save a recruiter's edit of a candidate; returns the fields it newly protected.

    Imported fields whose value differs from the stored one become protected (a later import of the same person leaves
    them alone); fields in ``release`` stop being protected. The history record names the user and the reason.
    """
    imported = Candidate.IMPORTED_FIELDS
    released = set(release)
    if candidate.pk is not None:
        candidate_history_catch_up(candidate_id=candidate.pk)
        stored = Candidate.objects.select_for_update().get(pk=candidate.pk)
        protected = list(stored.protected_fields)  # a revert keeps today's protections and adds the reverted fields
    else:
        stored, protected = Candidate(), list(candidate.protected_fields)
    changed = [f for f in imported if getattr(stored, f) != getattr(candidate, f)]
    newly = [f for f in changed if f not in protected and f not in released]
    if released & set(protected):
        candidate.document_sha256 = ""  # the next import rewrites released fields, even from identical bytes
    candidate.protected_fields = [f for f in [*protected, *newly] if f not in released]
    candidate._history_user = user
    if reason:
        candidate._change_reason = reason[:100]
    candidate.save()
    candidates_refresh_search_columns(candidate_ids=[candidate.pk])
    return newly


@transaction.atomic
def candidate_release_fields(*, candidate: Candidate, field_names: Iterable[str], user) -> list[str]:
    """Let imports write these fields again; returns the fields that were protected and now are not."""
    names = set(field_names)
    released = [f for f in candidate.protected_fields if f in names]
    if released:
        candidate_history_catch_up(candidate_id=candidate.pk)
        candidate.protected_fields = [f for f in candidate.protected_fields if f not in names]
        # Forget the last document's hash: the next import rewrites the released fields even from identical bytes.
        candidate.document_sha256 = ""
        candidate._history_user = user
        candidate._change_reason = f"Released {', '.join(released)}"[:100]
        candidate.save(update_fields=["protected_fields", "document_sha256", "updated_at"])
        candidate_history_snapshot_skills(candidate_id=candidate.pk)
    return released


@transaction.atomic
def candidate_release_skill_scores(*, candidate: Candidate, user) -> list[str]:
    """Let imports write the skill scores edited by hand again; returns the slugs of the skills released."""
    rows = CandidateSkill.objects.filter(candidate=candidate, score_by_hand=True)
    released = sorted(rows.values_list("skill__slug", flat=True))
    if released:
        rows.update(score_by_hand=False)
        # As for fields: the next import rewrites the released scores even from identical bytes.
        Candidate.objects.filter(pk=candidate.pk).update(document_sha256="")
    return released


def candidate_skills_edited(*, candidate_id: int, scored_by_hand: Iterable[int] = ()) -> None:
    """After a hand edit of a candidate's skills (admin inlines, a revert, a merge): refresh what search reads of them
    and store them on the latest history record. The skills in ``scored_by_hand`` (ids) had their score set by the
    recruiter: imports keep those scores until released."""
    if skill_ids := list(scored_by_hand):
        CandidateSkill.objects.filter(candidate_id=candidate_id, skill_id__in=skill_ids).update(score_by_hand=True)
    candidates_refresh_search_columns(candidate_ids=[candidate_id])
    candidate_history_snapshot_skills(candidate_id=candidate_id)


def candidate_languages_edited(*, candidate_id: int) -> None:
    """After a hand edit of a candidate's language rows (admin inline, a merge): the names list (`spoken_languages`,
    which lists and filters read too) becomes their English names, on the candidate and on its latest history
    record (the edit's)."""
    names = list(
        SpokenLanguage.objects.filter(candidate_id=candidate_id)
        .order_by("position", "id")
        .values_list("name", flat=True)
    )
    Candidate.objects.filter(pk=candidate_id).update(spoken_languages=names)
    latest = Candidate.history.filter(id=candidate_id).order_by("-history_date", "-history_id").first()
    if latest is not None:
        Candidate.history.filter(history_id=latest.history_id).update(spoken_languages=names)


def candidate_history_snapshot_skills(*, candidate_id: int) -> None:
    """Store the candidate's current skills on its latest history record (after inline edits were saved)."""
    latest = Candidate.history.filter(id=candidate_id).order_by("-history_date", "-history_id").first()
    if latest is not None:
        Candidate.history.filter(history_id=latest.history_id).update(
            skills=candidate_skills_snapshot(candidate_id=candidate_id)
        )


@transaction.atomic
def candidate_revert(*, candidate: Candidate, record, user) -> list[str]:
    """Save ``candidate`` (holding the values of history ``record``) and restore the skills the record saw.

    Returns the fields that became protected: a revert is an edit by hand.
    """
    when = timezone.localtime(record.history_date).strftime("%Y-%m-%d %H:%M")
    protected = candidate_save_by_hand(candidate=candidate, user=user, reason=f"Reverted to the version of {when}")
    if record.skills is not None:
        _candidate_skills_restore(candidate_id=candidate.pk, skills=record.skills)
    candidate_skills_edited(candidate_id=candidate.pk)
    return protected


def _candidate_skills_restore(*, candidate_id: int, skills: list[dict]) -> None:
    slugs = [s["skill"] for s in skills]
    skill_ids = dict(Skill.objects.filter(slug__in=slugs).values_list("slug", "pk"))
    # A skill merged since (skills_merge) lives on as an alias of the skill it went into.
    merged = SkillAlias.objects.filter(label__in=set(slugs) - skill_ids.keys()).values_list("label", "skill_id")
    skill_ids.update(merged)
    wanted: dict[int, dict] = {}
    for snap in skills:
        skill_id = skill_ids.get(snap["skill"])
        if skill_id is not None and (skill_id not in wanted or snap["score"] > wanted[skill_id]["score"]):
            wanted[skill_id] = snap
    CandidateSkill.objects.filter(candidate_id=candidate_id).exclude(skill_id__in=wanted).delete()
    current = {cs.skill_id: cs for cs in CandidateSkill.objects.filter(candidate_id=candidate_id)}
    for position, (skill_id, snap) in enumerate(wanted.items()):
        row = current.get(skill_id) or CandidateSkill(candidate_id=candidate_id, skill_id=skill_id)
        # A revert is an edit by hand: a score it changes (or a skill it brings back) is kept against imports.
        row.score_by_hand = row.score_by_hand or row.pk is None or row.score != snap["score"]
        row.score, row.label, row.position = snap["score"], snap.get("label", snap["skill"]), position
        row.section = snap.get("section", CandidateSkill.Section.SKILL)
        row.save()


def _candidates_edited_elsewhere(*, reasons: dict[int, str], user) -> None:
    """After rows of candidates (contributions) were changed outside their change form: each candidate's history
    records the edit by ``user`` with its reason (after what an import changed before it), its ``updated_at`` moves,
    and search reads the rows as they are now, as after an edit in the candidate's own form."""
    for candidate in Candidate.objects.select_for_update().filter(pk__in=reasons).order_by("pk"):
        candidate_history_catch_up(candidate_id=candidate.pk)
        candidate._history_user = user
        candidate._change_reason = reasons[candidate.pk][:100]
        candidate.save(update_fields=["updated_at"])
        candidate_history_snapshot_skills(candidate_id=candidate.pk)
    candidates_refresh_search_columns(candidate_ids=list(reasons))


@transaction.atomic
def repository_save(*, repository: Repository) -> Repository:
    """Add or change one repository outside an import (the repositories' admin). Its contributors' search columns
    hold its name: a new name refreshes them, so they are found by it and no longer by the old one."""
    before = Repository.objects.filter(pk=repository.pk).values_list("full_name", flat=True).first()
    repository.save()
    if before is not None and before != repository.full_name:
        repositories_refresh_contributors(repository_ids=[repository.pk])
    return repository


@transaction.atomic
def contribution_save(*, contribution: Contribution, user) -> Contribution:
    """Add or change one contribution outside its candidate's form (the contributions' own admin): saved, recorded in
    the candidate's history and searched as it now is. A contribution moved to another candidate is an edit of
    both."""
    verb = "Added" if contribution.pk is None else "Changed"
    before = Contribution.objects.filter(pk=contribution.pk).values_list("candidate_id", flat=True).first()
    contribution.save()
    reason = f"{verb} the contribution to {contribution.repository.full_name}"
    _candidates_edited_elsewhere(reasons=dict.fromkeys({contribution.candidate_id, before} - {None}, reason), user=user)
    return contribution


@transaction.atomic
def contributions_delete(*, contributions: Iterable[Contribution], user) -> int:
    """Remove contributions outside their candidates' forms (the contributions' own admin); returns how many.

    As the candidate's form does: each candidate's history records the removal by ``user``, and search forgets the
    repositories (a plain delete would leave both stale)."""
    rows = list(
        Contribution.objects.filter(pk__in=[c.pk for c in contributions]).select_related("repository").order_by("pk")
    )
    removed: dict[int, list[str]] = {}
    for row in rows:
        removed.setdefault(row.candidate_id, []).append(row.repository.full_name)
    Contribution.objects.filter(pk__in=[row.pk for row in rows]).delete()
    reasons = {cid: f"Removed the contribution to {', '.join(names)}" for cid, names in removed.items()}
    _candidates_edited_elsewhere(reasons=reasons, user=user)
    return len(rows)
