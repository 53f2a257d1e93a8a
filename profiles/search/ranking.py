"""What a ranking reads before it scores anyone: the request's skills resolved to ids, the related skills a widened
request adds, and the candidate filters it accepts. Every backend starts from ``resolve``, so that the index and the
SQL statement rank the same skills."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError

from profiles.models import RelatedSkill
from profiles.search.backends.base import RankRequest
from profiles.search.skills import resolve_skills

# Widening (``widen=True``): a related skill is a hint that someone could do the job, not proof; it stands in for the
# skill it goes with at half that skill's credit, and only the few closest of each skill count.
RELATED_WEIGHT = 0.5
WIDEN_PER_SKILL = 3
WIDEN_MIN_LIFT = 2.0  # twice as often together as chance; the refresh keeps pairs from RELATED_SKILLS_MIN_LIFT (1.5)

# Query parameters the request's criteria decide: the candidate filters may narrow the pool, not rank it.
RANKING_PARAMS = ("skill", "any_skill", "ordering", "q")


@dataclass(frozen=True, slots=True)
class Resolved:
    """The request's skills as ids (None: no such skill in the database) and canonical slugs."""

    required: tuple[tuple[str, int | None, int], ...]  # (slug as asked, id, min_score)
    preferred: tuple[tuple[str, int | None], ...]
    excluded: tuple[int, ...]
    topics: tuple[str, ...]  # canonical slugs of the known required and preferred skills
    slugs: Mapping[int, str]  # id -> the slug as the request names it
    related: tuple[tuple[str, int, str], ...] = ()  # widened: (related slug, its id, the request's slug it goes with)


def check_filters(filters: Mapping | None) -> None:
    """ValidationError naming each filter of ``filters`` that would rank (``RANKING_PARAMS``)."""
    if filters and (ranking := sorted(set(filters) & set(RANKING_PARAMS))):
        raise ValidationError(
            {name: ["the job's criteria rank the candidates; narrow them with the other filters"] for name in ranking}
        )


def _related(resolved: Resolved) -> tuple[tuple[str, int, str], ...]:
    """The related skills a widened match adds (one query): WIDEN_PER_SKILL per required and preferred skill, highest
    lift first, none the request names or excludes. A related skill of several of the request's skills goes with the
    one it is closest to (the highest lift, then the slug): never with whichever the request lists first, so that the
    same criteria in another order rank the same."""
    origins = [pk for _, pk, *_ in (*resolved.required, *resolved.preferred) if pk is not None]
    if not origins:
        return ()
    rows = (
        RelatedSkill.objects.filter(skill_id__in=origins, lift__gte=WIDEN_MIN_LIFT)
        .exclude(related_id__in=[*origins, *resolved.excluded])
        .order_by("skill_id", "-lift", "-support", "related__slug")
        .values_list("skill_id", "related_id", "related__slug", "lift")
    )
    by_origin: dict[int, list[tuple[int, str, float]]] = defaultdict(list)
    for origin, pk, slug, lift in rows:
        if len(by_origin[origin]) < WIDEN_PER_SKILL:
            by_origin[origin].append((pk, slug, lift))
    closest: dict[int, tuple[float, str, str]] = {}  # related id -> (-lift, origin slug, related slug)
    for origin, kept in by_origin.items():
        for pk, slug, lift in kept:
            key = (-lift, resolved.slugs[origin], slug)
            if pk not in closest or key < closest[pk]:
                closest[pk] = key
    return tuple((slug, pk, origin) for pk, (_, origin, slug) in sorted(closest.items(), key=lambda kv: kv[1][2]))


def resolve(request: RankRequest) -> Resolved:
    """The request's skills looked up (one query; widened, two)."""
    labels = {*request.skills, *request.excluded}
    found = resolve_skills(labels)
    ids = {label: found[label][0] if label in found else None for label in labels}
    required = tuple((slug, ids[slug], min_score) for slug, min_score in request.required)
    preferred = tuple((slug, ids[slug]) for slug in request.preferred)
    topics = tuple(dict.fromkeys(found[slug][1] for slug in request.skills if slug in found))
    slugs = {pk: slug for slug, pk, *_ in (*required, *preferred) if pk is not None}
    excluded = tuple(ids[slug] for slug in request.excluded if ids[slug] is not None)
    resolved = Resolved(required, preferred, excluded, topics, slugs)
    if request.widen:
        return replace(resolved, related=_related(resolved))
    return resolved
