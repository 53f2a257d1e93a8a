"""Writes of the talent domain: skill resolution, search vectors, edits, shortlists, merges."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction
from django.utils.text import slugify

from profiles.models import Skill, SkillAlias

# Curated aliases: labels seen in profile files that the public vocabularies do not map (label → canonical slug).
CURATED_ALIASES: dict[str, str] = {
    "c-language": "c",
    "cprogramming-language": "c",
    "c-programming": "c",
    "c-programming-language": "c",
    "clang": "c",
    "c-plus-plus": "cpp",
    "cplusplus": "cpp",
    "c++": "cpp",
    "c#": "csharp",
    "c-sharp": "csharp",
    "golang": "go",
    "go-lang": "go",
    "python3": "python",
    "python-3": "python",
    "py": "python",
    "js": "javascript",
    "ecmascript": "javascript",
    "ts": "typescript",
    "reactjs": "react",
    "react-js": "react",
    "vuejs": "vue",
    "vue-js": "vue",
    "nodejs": "nodejs",
    "node-js": "nodejs",
    "node": "nodejs",
    "k8s": "kubernetes",
    "postgres": "postgresql",
    "psql": "postgresql",
    "ml": "machine-learning",
    "dl": "deep-learning",
    "tf": "tensorflow",
    "html5": "html",
    "css3": "css",
    "dataflow": "dataflow",
    "analyse": "analysis",
    "analyze": "analysis",
}

# Canonical skills the curated aliases point at, in case no vocabulary seeded them.
CURATED_SKILLS: dict[str, tuple[str, str]] = {
    "c": ("C", Skill.Kind.LANGUAGE),
    "cpp": ("C++", Skill.Kind.LANGUAGE),
    "csharp": ("C#", Skill.Kind.LANGUAGE),
    "go": ("Go", Skill.Kind.LANGUAGE),
    "python": ("Python", Skill.Kind.LANGUAGE),
    "javascript": ("JavaScript", Skill.Kind.LANGUAGE),
    "typescript": ("TypeScript", Skill.Kind.LANGUAGE),
    "html": ("HTML", Skill.Kind.LANGUAGE),
    "css": ("CSS", Skill.Kind.LANGUAGE),
    "react": ("React", Skill.Kind.SKILL),
    "vue": ("Vue.js", Skill.Kind.SKILL),
    "nodejs": ("Node.js", Skill.Kind.SKILL),
    "kubernetes": ("Kubernetes", Skill.Kind.SKILL),
    "postgresql": ("PostgreSQL", Skill.Kind.SKILL),
    "machine-learning": ("Machine learning", Skill.Kind.TOPIC),
    "deep-learning": ("Deep learning", Skill.Kind.TOPIC),
    "tensorflow": ("TensorFlow", Skill.Kind.SKILL),
    "dataflow": ("Dataflow", Skill.Kind.SKILL),
    "analysis": ("Analysis", Skill.Kind.SKILL),
}


def language_slug(name: str) -> str:
    """Slug of a language name that keeps C, C++ and C# apart (``c``, ``cpp``, ``csharp``)."""
    return slugify(name.lower().replace("++", "pp").replace("#", "sharp"))[:100] or "unnamed"


def skill_slug(label_key: str) -> str:
    return language_slug(label_key)


def skill_display_name(label: str) -> str:
    return label.strip().replace("-", " ").strip()[:200] or label


@transaction.atomic
def skills_upsert(*, skills: Iterable[tuple[str, str, str]], aliases: Iterable[tuple[str, str]]) -> None:
    """Insert canonical skills ``(slug, name, kind)`` and aliases ``(label, slug)``; existing rows win.

    A language seeded over a topic of the same slug upgrades its kind to language.
    """
    rows = list({slug: (slug, name, kind) for slug, name, kind in skills}.values())
    if rows:
        with connection.cursor() as cursor:
            cursor.execute(
                """
                INSERT INTO profiles_skill (slug, name, kind)
                SELECT * FROM unnest(%s::varchar[], %s::varchar[], %s::varchar[])
                ON CONFLICT (slug) DO UPDATE SET kind = EXCLUDED.kind
                WHERE EXCLUDED.kind = 'language' AND profiles_skill.kind <> 'language'
                """,
                [[r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]],
            )
    alias_rows = {label.lower(): slug for label, slug in aliases}
    if alias_rows:
        with connection.cursor() as cursor:
            cursor.execute(
                """
                INSERT INTO profiles_skillalias (label, skill_id)
                SELECT a.label, s.id FROM unnest(%s::varchar[], %s::varchar[]) AS a(label, slug)
                JOIN profiles_skill s ON s.slug = a.slug
                ON CONFLICT (label) DO NOTHING
                """,
                [list(alias_rows), list(alias_rows.values())],
            )


def skill_ids_for_labels(*, label_keys: Iterable[str], default_kind: str = Skill.Kind.SKILL) -> dict[str, int]:
    """Map label keys (see ``normalise.label_key``) to canonical skill ids, creating skills for new labels.

    Safe under concurrency: inserts use ``ON CONFLICT DO NOTHING`` and the result is read back afterwards.
    """
    keys = {key for key in label_keys if key}
    if not keys:
        return {}
    found = dict(SkillAlias.objects.filter(label__in=keys).values_list("label", "skill_id"))
    missing = sorted(keys - found.keys())
    if missing:
        skills_upsert(
            skills=[(skill_slug(key), skill_display_name(key), default_kind) for key in missing],
            aliases=[(key, skill_slug(key)) for key in missing],
        )
        found.update(SkillAlias.objects.filter(label__in=missing).values_list("label", "skill_id"))
    return found


def skills_seed_curated() -> None:
    skills_upsert(
        skills=[(slug, name, kind) for slug, (name, kind) in CURATED_SKILLS.items()],
        aliases=[(slug, slug) for slug in CURATED_SKILLS] + list(CURATED_ALIASES.items()),
    )


SEARCH_VECTOR_SQL = """
UPDATE profiles_candidate AS c SET search_vector =
    setweight(to_tsvector('english', c.name), 'A')
    || setweight(to_tsvector('english', c.headline), 'B')
    || setweight(to_tsvector('english', c.summary), 'C')
    || setweight(to_tsvector('english', coalesce(
        (SELECT string_agg(co.summary, ' ') FROM profiles_contribution co WHERE co.candidate_id = c.id), '')), 'D')
WHERE c.id = ANY(%s)
"""


def candidates_refresh_search_vector(*, candidate_ids: Iterable[int]) -> None:
    """Recompute the full-text vector (name, headline, summary, contribution summaries) of these candidates."""
    ids = list(candidate_ids)
    if ids:
        with connection.cursor() as cursor:
            cursor.execute(SEARCH_VECTOR_SQL, [ids])
