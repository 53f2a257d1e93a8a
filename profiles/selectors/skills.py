"""Reads of skills: those imports created (the vocabulary's audit, ``manage.py skills_audit``) and related skills
(written by ``profiles.services.related_skills_refresh``)."""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from db.connections import read_connection
from profiles.models import RelatedSkill, Skill


@dataclass(frozen=True, slots=True)
class CreatedSkill:
    """A skill no vocabulary seeded (an import made it of a label it did not know), how many candidates and
    repositories name it, and the labels as files wrote them, most frequent first."""

    slug: str
    name: str
    kind: str
    candidates: int
    repositories: int
    labels: tuple[tuple[str, int], ...]


def skills_created_by_imports(*, seeded_slugs: set[str], limit: int | None = None) -> list[CreatedSkill]:
    """Skills whose slug is not in ``seeded_slugs``, the most used first (candidates, then repositories, then slug)."""
    with read_connection(Skill).cursor() as cursor:
        cursor.execute(
            """
            SELECT s.slug, s.name, s.kind,
                (SELECT count(*) FROM profiles_candidateskill cs WHERE cs.skill_id = s.id) AS candidates,
                (SELECT count(*) FROM profiles_repository r WHERE r.topic_slugs @> ARRAY[s.slug]::varchar[]),
                COALESCE((
                    SELECT json_agg(json_build_array(l.label, l.n) ORDER BY l.n DESC, l.label)
                    FROM (
                        SELECT cs.label, count(*) AS n FROM profiles_candidateskill cs
                        WHERE cs.skill_id = s.id GROUP BY cs.label
                    ) l
                ), '[]')::text
            FROM profiles_skill s
            WHERE NOT (s.slug = ANY(%s::varchar[]))
            ORDER BY 4 DESC, 5 DESC, s.slug
            LIMIT %s
            """,
            [sorted(seeded_slugs), limit],
        )
        return [
            CreatedSkill(slug, name, kind, candidates, repositories, tuple(map(tuple, orjson.loads(labels))))
            for slug, name, kind, candidates, repositories, labels in cursor.fetchall()
        ]


def related_skills(*, skill: Skill, limit: int = 10) -> list[RelatedSkill]:
    """The skills that go with ``skill``, the highest lift first, each with its ``related`` skill loaded."""
    return list(
        RelatedSkill.objects.filter(skill=skill)
        .select_related("related")
        .order_by("-lift", "-support", "related__slug")[:limit]
    )


@dataclass(frozen=True, slots=True)
class RelatedSuggestion:
    slug: str
    name: str
    lift: float  # the highest lift with one of the skills asked about
    support: int  # the most candidates it shares with one of them
    via: list[str]  # the skills asked about it is related to, by slug


def related_skills_for(*, slugs: list[str], exclude: set[str], limit: int = 8) -> list[RelatedSuggestion]:
    """Skills to also consider: related to any of ``slugs``, neither among them nor in ``exclude``.

    A skill related to more of them comes first (it fits the whole set, not one of its skills), then the higher lift.
    For a job's criteria: ``slugs`` its required and preferred skills, ``exclude`` its excluded ones.
    """
    if not slugs or limit <= 0:
        return []
    left_out = set(slugs) | set(exclude)
    rows = (
        RelatedSkill.objects.filter(skill__slug__in=slugs)
        .exclude(related__slug__in=left_out)
        .values_list("related__slug", "related__name", "skill__slug", "lift", "support")
    )
    found: dict[str, tuple[str, list[tuple[str, float, int]]]] = {}
    for slug, name, source, lift, support in rows:
        found.setdefault(slug, (name, []))[1].append((source, lift, support))
    suggestions = [
        RelatedSuggestion(
            slug=slug,
            name=name,
            lift=max(lift for _, lift, _ in via),
            support=max(support for *_, support in via),
            via=sorted(source for source, *_ in via),
        )
        for slug, (name, via) in found.items()
    ]
    suggestions.sort(key=lambda s: (-len(s.via), -s.lift, s.slug))
    return suggestions[:limit]
