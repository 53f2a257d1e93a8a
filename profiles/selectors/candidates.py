"""Reads of candidates: the columns and rows a list, a CSV line or a profile shows, in a fixed number of queries;
their skills as plain data; how many a search holds, up to a limit."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence

import orjson
from django.db.models import F, Prefetch, QuerySet
from django.http import QueryDict

from db.connections import read_connection
from profiles.candidate_fields import CSV_COLUMNS, LIST_FIELDS
from profiles.models import Candidate, CandidateSkill, Contribution, Education, Position, SpokenLanguage
from profiles.search.skills import annotate_match
from profiles.selectors.searches import candidate_match_skills

# Columns no read shows: the search columns (only filtered on; `match` is computed in SQL) and the loader's bookkeeping.
_NEVER_SHOWN = ("search_vector", "skill_tokens", "skill_scores", "document_sha256", "protected_fields")


_SKILLS_BY_SECTION_SQL = """
SELECT cs.candidate_id, cs.section,
    json_agg(json_build_array(s.slug, s.name, cs.score, cs.label) ORDER BY cs.position, cs.id)::text
FROM profiles_candidateskill cs JOIN profiles_skill s ON s.id = cs.skill_id
WHERE cs.candidate_id = ANY(%s)
GROUP BY cs.candidate_id, cs.section
"""


def candidates_attach_skills(candidates: Sequence[Candidate]) -> Sequence[Candidate]:
    """Set ``skill_sections`` on each candidate: section (``skill``, ``language``) → its skills in the file's order,
    each ``{slug, name, score, label}`` (the API's shape), in one query for all of them.

    PostgreSQL lists each section's skills as one JSON array of ``[slug, name, score, label]`` and Python names the
    four values: a page of 50 candidates carries ~1,000 skills, too many to build as ORM rows, and arrays are what
    PostgreSQL builds cheapest (objects, ``json_build_object``, cost it more; docs/benchmarks-history.md, "API").
    """
    if not candidates:
        return candidates
    sections: dict[int, dict[str, list[dict]]] = defaultdict(dict)
    with read_connection(CandidateSkill).cursor() as cursor:
        cursor.execute(_SKILLS_BY_SECTION_SQL, [[candidate.pk for candidate in candidates]])
        for candidate_id, section, skills in cursor.fetchall():
            sections[candidate_id][section] = [
                {"slug": slug, "name": name, "score": score, "label": label}
                for slug, name, score, label in orjson.loads(skills)
            ]
    for candidate in candidates:
        candidate.skill_sections = sections[candidate.pk]
    return candidates


def candidates_iterate_with_skills(queryset: QuerySet[Candidate], *, chunk_size: int = 1000) -> Iterator[Candidate]:
    """Every candidate of ``queryset`` through one server-side cursor, each chunk's skills attached in one query."""
    chunk: list[Candidate] = []
    for candidate in queryset.iterator(chunk_size=chunk_size):
        chunk.append(candidate)
        if len(chunk) == chunk_size:
            yield from candidates_attach_skills(chunk)
            chunk = []
    yield from candidates_attach_skills(chunk)


# What a list row or a CSV line shows (``profiles.candidate_fields``), as the candidate's columns; nothing else travels
# (the page query sorts whole rows before its LIMIT). A field that is no column (a URL, skills, a score) is read apart.
_COLUMNS_OF = {"location": ("city", "region", "country", "country_code")}
_CANDIDATE_COLUMNS = frozenset(field.name for field in Candidate._meta.concrete_fields)
_LISTED = tuple(
    dict.fromkeys(
        column
        for name in ("id", *LIST_FIELDS, *CSV_COLUMNS)
        for column in _COLUMNS_OF.get(name, (name,))
        if column in _CANDIDATE_COLUMNS
    )
)


def candidates_for_listing() -> QuerySet[Candidate]:
    """Candidates with the columns a list row or a CSV line shows (skills: ``candidates_attach_skills``)."""
    return Candidate.objects.only(*_LISTED)


def candidates_for_profiles() -> QuerySet[Candidate]:
    """Candidates with every column a profile shows and its rows: jobs, education, languages and contributions
    (skills: attach them)."""
    return candidates_with_profile_rows(Candidate.objects.defer(*_NEVER_SHOWN))


def candidates_with_skills(queryset: QuerySet[Candidate]) -> QuerySet[Candidate]:
    """Prefetch skills (with their canonical skill) into ``skill_rows``: one query for a whole page."""
    return queryset.prefetch_related(
        Prefetch(
            "skills",
            queryset=CandidateSkill.objects.select_related("skill").order_by("candidate_id", "position", "id"),
            to_attr="skill_rows",
        )
    )


# A work history reads newest first: current jobs, then by end and start, latest first; undated jobs last.
POSITIONS_NEWEST_FIRST = (
    F("is_current").desc(),
    F("end").desc(nulls_last=True),
    F("start").desc(nulls_last=True),
    "order",
)


def candidates_with_companies(queryset: QuerySet[Candidate]) -> QuerySet[Candidate]:
    """Prefetch the jobs' companies and whether each is current into ``company_rows``, newest first (a CSV line's
    company columns): one query per page or export chunk."""
    return queryset.prefetch_related(
        Prefetch(
            "positions",
            queryset=Position.objects.only("candidate_id", "company", "is_current").order_by(
                "candidate_id", *POSITIONS_NEWEST_FIRST
            ),
            to_attr="company_rows",
        )
    )


def candidates_with_profile_rows(queryset: QuerySet[Candidate]) -> QuerySet[Candidate]:
    """Prefetch ``position_rows`` (newest first), ``education_rows``, ``language_rows`` and ``contribution_rows``
    (with their repository): one query each per page or export chunk."""
    return queryset.prefetch_related(
        Prefetch(
            "positions",
            queryset=Position.objects.order_by("candidate_id", *POSITIONS_NEWEST_FIRST),
            to_attr="position_rows",
        ),
        Prefetch(
            "education",
            queryset=Education.objects.order_by("candidate_id", "position", "id"),
            to_attr="education_rows",
        ),
        Prefetch(
            "languages",
            queryset=SpokenLanguage.objects.order_by("candidate_id", "position", "id"),
            to_attr="language_rows",
        ),
        Prefetch(
            "contributions",
            queryset=Contribution.objects.select_related("repository").order_by("candidate_id", "position", "id"),
            to_attr="contribution_rows",
        ),
    )


def candidate_detail(
    *, candidate_id: int, params: QueryDict | Mapping | None = None, user=None, prefetch: Sequence[Prefetch] = ()
) -> Candidate:
    """One candidate with everything its profile shows (skills in ``skill_sections``), the related rows of other apps
    the caller asks for (``prefetch``: an import's source files, say), and ``match`` for the requested skills (whether
    or not the candidate meets their minimum scores). Raises Candidate.DoesNotExist."""
    terms = candidate_match_skills(params=params or {})
    queryset = candidates_for_profiles().filter(pk=candidate_id).prefetch_related(*prefetch)
    if terms:
        queryset = annotate_match(queryset, terms)
    [candidate] = candidates_attach_skills([queryset.get()])
    return candidate


def candidates_count_up_to(queryset: QuerySet[Candidate], *, limit: int) -> int:
    """How many candidates ``queryset`` holds, counting no further than ``limit + 1``: enough to tell whether it is
    over ``limit`` (a streamed export's most rows) without counting (or sorting) a million rows."""
    return queryset.order_by().values("pk")[: limit + 1].count()


TOP_SKILLS = 5


def candidate_top_skills_prefetch(*, limit: int = TOP_SKILLS) -> Prefetch:
    """The highest-scored skills of each candidate, in one query per page (a window function, not one per row)."""
    return Prefetch(
        "skills",
        queryset=CandidateSkill.objects.select_related("skill").order_by("-score", "position", "id")[:limit],
        to_attr="top_skills",
    )


def candidate_skills_snapshot(*, candidate_id: int) -> list[dict]:
    """The candidate's skills as plain data (what a history record keeps)."""
    rows = (
        CandidateSkill.objects.filter(candidate_id=candidate_id)
        .order_by("position", "id")
        .values_list("skill__slug", "skill__name", "score", "label", "section")
    )
    return [
        {"skill": slug, "name": name, "score": score, "label": label, "section": section}
        for slug, name, score, label, section in rows
    ]


def skill_changes(*, before: list[dict] | None, after: list[dict] | None) -> list[tuple[str, str, str]]:
    """(skill, old, new) for every skill added, removed or re-scored between two snapshots."""
    if before is None or after is None:
        return []
    old = {s["skill"]: s for s in before}
    new = {s["skill"]: s for s in after}
    changes = []
    for slug in [*old, *(s for s in new if s not in old)]:
        was, now = old.get(slug), new.get(slug)
        name = (now or was).get("name") or slug
        if was is None:
            changes.append((name, "—", str(now["score"])))
        elif now is None:
            changes.append((name, str(was["score"]), "removed"))
        elif was["score"] != now["score"]:
            changes.append((name, str(was["score"]), str(now["score"])))
    return changes
