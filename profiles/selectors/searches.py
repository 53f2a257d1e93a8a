"""Filtered reads by the API's query parameters: candidates (the one read path of the API, the admin and the
exports), skills, repositories; and the candidates' autocomplete."""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.contrib.postgres.search import SearchQuery
from django.core.exceptions import ValidationError
from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import QueryDict

from profiles.models import Candidate, CandidateSkill, Contribution, Repository, Skill, SkillAlias
from profiles.search.filtersets import CandidateFilterSet, RepositoryFilterSet, SkillFilterSet
from profiles.search.terms import MatchParamsForm


def _as_querydict(params: QueryDict | Mapping) -> QueryDict:
    if isinstance(params, QueryDict):
        return params
    data = QueryDict(mutable=True)
    for key, value in params.items():
        data.setlist(key, [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)])
    return data


def candidate_search(
    *, params: QueryDict | Mapping, user=None, queryset: QuerySet[Candidate] | None = None
) -> QuerySet[Candidate]:
    """Candidates matching the filters in ``params`` (query-string form), annotated and ordered.

    Annotations: ``match`` (0-100) when skills are requested, ``rank`` when ``q`` is given. Ordered by the requested
    ``ordering`` (default ``-match``, ``-rank`` or ``-updated_at``) with an id tiebreak, so keyset pagination is
    stable. Raises ``django.core.exceptions.ValidationError`` (a message per parameter) for unknown parameters and
    bad values. ``user`` is the reader: every authenticated user may read every candidate today, and this is where a
    per-user scope would go. ``queryset`` narrows or prefetches the starting set (default: every candidate).
    """
    base = Candidate.objects.all() if queryset is None else queryset
    return _filtered(CandidateFilterSet, params=params, queryset=base)


def candidate_match_skills(*, params: QueryDict | Mapping) -> list:
    """The ``skill`` / ``any_skill`` terms of a detail request (nothing else is accepted there)."""
    form = MatchParamsForm(data=_as_querydict(params))
    if not form.is_valid():
        raise ValidationError(form.errors.as_data())
    return [*form.cleaned_data["skill"], *form.cleaned_data["any_skill"]]


def _filtered(filterset_class, *, params: QueryDict | Mapping, queryset: QuerySet) -> QuerySet:
    filterset = filterset_class(data=_as_querydict(params), queryset=queryset)
    if not filterset.is_valid():
        raise ValidationError(filterset.form.errors.as_data())
    return filterset.qs


def skill_search(*, params: QueryDict | Mapping, user=None, queryset: QuerySet[Skill] | None = None) -> QuerySet[Skill]:
    """Canonical skills with their aliases (``alias_rows``) and ``candidate_count``, ordered by slug.

    The count is a correlated subquery, so it runs only for the rows of the page (index-only on CandidateSkill).
    """
    candidates = CandidateSkill.objects.filter(skill=OuterRef("pk")).order_by().values("skill").annotate(n=Count("*"))
    queryset = (Skill.objects.all() if queryset is None else queryset).annotate(
        candidate_count=Coalesce(Subquery(candidates.values("n")), 0)
    )
    queryset = queryset.prefetch_related(
        Prefetch("aliases", queryset=SkillAlias.objects.order_by("skill_id", "label"), to_attr="alias_rows")
    )
    return _filtered(SkillFilterSet, params=params, queryset=queryset).order_by("slug", "id")


def repository_search(
    *, params: QueryDict | Mapping, user=None, queryset: QuerySet[Repository] | None = None
) -> QuerySet[Repository]:
    """Repositories with ``contributor_count`` (a correlated subquery per row of the page), ordered by name."""
    contributors = (
        Contribution.objects.filter(repository=OuterRef("pk")).order_by().values("repository").annotate(n=Count("*"))
    )
    queryset = (Repository.objects.all() if queryset is None else queryset).annotate(
        contributor_count=Coalesce(Subquery(contributors.values("n")), 0)
    )
    return _filtered(RepositoryFilterSet, params=params, queryset=queryset).order_by("full_name", "id")


def candidate_autocomplete(*, term: str, queryset: QuerySet[Candidate] | None = None) -> QuerySet[Candidate]:
    """Candidates whose full-text vector has words starting with each word typed ("jinl we" finds Jinliang Wei),
    through the same GIN index as ``q``; ordered by name."""
    words = re.findall(r"\w+", term)[:8]
    queryset = Candidate.objects.all() if queryset is None else queryset
    if not words:
        return queryset.none()
    query = SearchQuery(" & ".join(f"{word}:*" for word in words), search_type="raw", config="english")
    return queryset.filter(search_vector=query).order_by("name", "id")
