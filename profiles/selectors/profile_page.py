"""A candidate as its profile page reads it: its rows, its skills by section, its topics and the shortlist entries
the reader may see."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Model, OuterRef, Prefetch, Subquery

from profiles.models import Candidate, CandidateIdentifier, CandidateSkill, Shortlist, ShortlistEntry
from profiles.selectors.candidates import candidates_with_profile_rows
from profiles.selectors.working_lists import pipeline_owner, pipeline_owner_relations, working_lists_for

SKILL_SECTION_TITLES = {
    CandidateSkill.Section.SKILL: "Skills",
    CandidateSkill.Section.LANGUAGE: "Programming languages",
}
# A stored file's format and statuses as the import writes them (ingestion.models.SourceFile, which the domain does
# not import): a candidate's skills are those of the newest file that loaded it, and a CV scores them from what it
# says, not from GitHub work.
CV_FORMAT = "cv"
_LOADED_STATUSES = ("imported", "unchanged")


@dataclass(frozen=True)
class CandidateProfile:
    """What a candidate's profile page shows of the talent domain: the candidate with its rows (``position_rows``,
    ``education_rows``, ``language_rows``, ``contribution_rows``, ``identifier_rows``, ``skill_rows``), its scored
    skills by the file's section (skills, then programming languages; best first), the topics of the
    repositories it contributed to (most repositories first), and the shortlist entries the reader may see, each with
    the job whose pipeline its shortlist is (or None). ``cv_skill_ids`` are the skill rows a CV scored: the newest
    file that loaded the candidate is a CV, and no recruiter set the row's score by hand."""

    candidate: Candidate
    skill_groups: list[tuple[str, list[CandidateSkill]]]
    cv_skill_ids: frozenset[int]
    topics: list[tuple[str, int]]
    entries: list[tuple[ShortlistEntry, Model | None]]


def candidate_profile(*, candidate_id: int, user) -> CandidateProfile:
    """One candidate as its profile page reads it, in a fixed number of queries (the candidate and seven
    prefetches). Raises Candidate.DoesNotExist."""
    candidate = (
        candidates_with_profile_rows(Candidate.objects.filter(pk=candidate_id).annotate(skills_format=_skills_format()))
        .prefetch_related(
            Prefetch(
                "skills",
                queryset=CandidateSkill.objects.select_related("skill").order_by("-score", "position", "id"),
                to_attr="skill_rows",
            ),
            Prefetch(
                "identifiers", queryset=CandidateIdentifier.objects.order_by("kind", "id"), to_attr="identifier_rows"
            ),
            Prefetch(
                "shortlist_entries",
                queryset=ShortlistEntry.objects.filter(
                    shortlist__in=working_lists_for(user=user, queryset=Shortlist.objects.all())
                )
                .select_related("shortlist", *(f"shortlist__{name}" for name in pipeline_owner_relations()))
                .order_by("-added_at", "-id"),
                to_attr="entry_rows",
            ),
        )
        .get()
    )
    sections: dict[str, list[CandidateSkill]] = {section: [] for section in SKILL_SECTION_TITLES}
    for row in candidate.skill_rows:
        sections[row.section].append(row)
    topics = Counter(topic for row in candidate.contribution_rows for topic in dict.fromkeys(row.repository.topics))
    from_cv = candidate.skills_format == CV_FORMAT
    return CandidateProfile(
        candidate=candidate,
        skill_groups=[(SKILL_SECTION_TITLES[key], rows) for key, rows in sections.items() if rows],
        cv_skill_ids=frozenset(row.pk for row in candidate.skill_rows if from_cv and not row.score_by_hand),
        topics=sorted(topics.items(), key=lambda item: (-item[1], item[0].lower())),
        entries=[(entry, pipeline_owner(entry.shortlist)) for entry in candidate.entry_rows],
    )


def _skills_format() -> Subquery:
    """The format of the newest stored file that loaded the candidate (by id, the order files are received and
    loaded in): the file whose document gave the candidate's skills; None when no file did (entered by hand)."""
    source_file = Candidate._meta.get_field("sources").related_model
    return Subquery(
        source_file.objects.filter(candidate=OuterRef("pk"), status__in=_LOADED_STATUSES)
        .order_by("-id")
        .values("format")[:1]
    )
