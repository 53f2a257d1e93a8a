"""Who may use a working list (a shortlist or a saved search), and a shortlist's entries for a CSV."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Model, Prefetch, Q, QuerySet

from profiles.models import CandidateSkill, SavedSearch, Shortlist, ShortlistEntry

# Who may use a working list (a shortlist or a saved search): its owner reads and changes it; when the owner shares it
# with the team, every colleague reads it (opens, exports, runs it) but only the owner changes it (renames, edits,
# adds to, deletes); a superuser reads and changes every list. Nobody else learns that a private list exists. The
# rule is written twice side by side, as a filter for what a page lists and as a test of one list for what a page may
# do with it, and tests/profiles/test_selectors_working_lists.py holds the two to the same answers.
WorkingList = Shortlist | SavedSearch


def working_lists_for(*, user, queryset: QuerySet, for_writing: bool = False) -> QuerySet:
    """The shortlists or saved searches of ``queryset`` this user may read (``for_writing``: change)."""
    if not (user.is_authenticated and user.is_active):
        return queryset.none()
    if user.is_superuser:
        return queryset
    if for_writing:
        return queryset.filter(owner=user)
    return queryset.filter(Q(owner=user) | Q(shared=True))


def working_list_permits(*, user, working_list: WorkingList, for_writing: bool = False) -> bool:
    """Whether this user may read (``for_writing``: change) this shortlist or saved search; ``working_lists_for``'s
    rule for one list, without a query."""
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser or working_list.owner_id == user.pk:
        return True
    return working_list.shared and not for_writing


def shortlist_entries_for_export(*, shortlists) -> QuerySet[ShortlistEntry]:
    """Entries of these shortlists with their candidate and the candidate's skills (best first), for a CSV."""
    return (
        ShortlistEntry.objects.filter(shortlist__in=shortlists)
        .select_related("candidate", "shortlist")
        .prefetch_related(
            Prefetch(
                "candidate__skills",
                queryset=CandidateSkill.objects.select_related("skill").order_by("-score", "position", "id"),
                to_attr="top_skills",
            )
        )
        .order_by("shortlist__name", "-added_at", "-id")
    )


# --- Jobs' pipelines: shortlists another model owns -----------------------------------------------------------------


def pipeline_owner_relations() -> list[str]:
    """The relations by which a model owns a shortlist one to one (a job, whose pipeline it is): the app above that
    defines them is not imported here, and with it not installed there are none."""
    return [rel.name for rel in Shortlist._meta.related_objects if rel.one_to_one]


def owned_by_another_model() -> Q:
    """The shortlists that are a pipeline (some model owns them); nothing when no app owns shortlists."""
    owned = Q(pk__in=[])
    for name in pipeline_owner_relations():
        owned |= Q(**{f"{name}__isnull": False})
    return owned


def pipeline_owner(shortlist: Shortlist) -> Model | None:
    """The model that owns ``shortlist`` (the job whose pipeline it is), or None for a recruiter's own shortlist."""
    for name in pipeline_owner_relations():
        try:
            return getattr(shortlist, name)
        except ObjectDoesNotExist:
            continue
    return None
