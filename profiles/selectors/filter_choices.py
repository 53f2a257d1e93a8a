"""What the admin's filter sidebar offers: the most common countries, badges, spoken languages and skills."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.cache import cache

from db.connections import read_connection
from db.counting import EXACT_GROUPS_BELOW
from profiles.models import Candidate, Skill


@dataclass
class CandidateFilterChoices:
    countries: list[str] = field(default_factory=list)
    badges: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    skills: list[tuple[str, str]] = field(default_factory=list)  # (slug, name)


_TABLE_SIZES_SQL = """
SELECT coalesce(max(reltuples), -1) FROM pg_class
WHERE oid IN ('profiles_candidate'::regclass, 'profiles_candidateskill'::regclass)
"""
_FILTER_CHOICES_PLANNER_SQL = """
SELECT attname, coalesce(most_common_vals, most_common_elems)::text::text[],
    coalesce(most_common_freqs, most_common_elem_freqs)
FROM pg_stats WHERE schemaname = current_schema() AND (
    (tablename = 'profiles_candidate' AND attname IN ('country_code', 'badges', 'spoken_languages'))
    OR (tablename = 'profiles_candidateskill' AND attname = 'skill_id'))
"""
_FILTER_CHOICES_EXACT_SQL = """
(SELECT 'country_code', country_code, count(*) FROM profiles_candidate WHERE country_code <> ''
 GROUP BY 2 ORDER BY 3 DESC, 2 LIMIT %(limit)s)
UNION ALL
(SELECT 'badges', v, count(*) FROM profiles_candidate, unnest(badges) AS v WHERE v <> ''
 GROUP BY 2 ORDER BY 3 DESC, 2 LIMIT %(limit)s)
UNION ALL
(SELECT 'spoken_languages', v, count(*) FROM profiles_candidate, unnest(spoken_languages) AS v WHERE v <> ''
 GROUP BY 2 ORDER BY 3 DESC, 2 LIMIT %(limit)s)
UNION ALL
(SELECT 'skill_id', skill_id::text, count(*) FROM profiles_candidateskill
 GROUP BY 2 ORDER BY 3 DESC, 2 LIMIT %(skills)s)
"""


FILTER_CHOICES_KEY = "candidate-filter-choices"
FILTER_CHOICES_MAX_AGE_SECONDS = 120


def candidate_filter_choices() -> CandidateFilterChoices:
    """What the admin's filter sidebar offers: the most common countries, badges, spoken languages and skills.

    Suggestions, not counts: kept in the shared cache for two minutes, so a changelist page does not pay for them,
    and forgotten by every import that writes candidates (``candidate_filter_choices_forget``), so a new country is
    offered at once in every process.
    """
    return cache.get_or_set(FILTER_CHOICES_KEY, _candidate_filter_choices, timeout=FILTER_CHOICES_MAX_AGE_SECONDS)


def candidate_filter_choices_forget() -> None:
    cache.delete(FILTER_CHOICES_KEY)


def _candidate_filter_choices(*, limit: int = 30, skills: int = 200) -> CandidateFilterChoices:
    """Three queries at most, whatever the size: exact counts on small tables, the planner's statistics on large
    ones."""
    with read_connection(Candidate).cursor() as cursor:
        cursor.execute(_TABLE_SIZES_SQL)
        rows = None
        if cursor.fetchone()[0] >= EXACT_GROUPS_BELOW:
            cursor.execute(_FILTER_CHOICES_PLANNER_SQL)
            stats = cursor.fetchall()
            if stats:
                rows = [
                    (column, value, freq)
                    for column, values, freqs in stats
                    for value, freq in sorted(zip(values or [], freqs or [], strict=False), key=lambda vf: -vf[1])
                ]
        if rows is None:
            cursor.execute(_FILTER_CHOICES_EXACT_SQL, {"limit": limit, "skills": skills})
            rows = cursor.fetchall()
    values: dict[str, list[str]] = {}
    for column, value, _ in rows:
        if value:
            values.setdefault(column, []).append(value)
    skill_ids = [int(pk) for pk in values.get("skill_id", [])[:skills]]
    names = {
        pk: (slug, name) for pk, slug, name in Skill.objects.filter(pk__in=skill_ids).values_list("pk", "slug", "name")
    }
    return CandidateFilterChoices(
        countries=values.get("country_code", [])[:limit],
        badges=values.get("badges", [])[:limit],
        languages=values.get("spoken_languages", [])[:limit],
        skills=[names[pk] for pk in skill_ids if pk in names],
    )
