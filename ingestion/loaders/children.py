"""The rows of a candidate that only its load writes (skills, education, jobs, languages, contributions), by COPY."""

from __future__ import annotations

from collections.abc import Iterable

from db.cursors import bound_cursor
from ingestion.loaders.repositories import upsert_repositories
from ingestion.loaders.skills import skill_ids_of
from ingestion.normalise import NormalisedProfile


def copy_rows(table: str, columns: Iterable[str], rows: list[tuple]) -> None:
    """``COPY`` rows into a table. Text format on purpose: the server parses and range-checks every value (binary
    COPY lets an out-of-range integer wrap around silently)."""
    if not rows:
        return
    statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    with bound_cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


SKILL_COLUMNS = ("candidate_id", "skill_id", "score", "label", "section", "position")


_EDUCATION_COLUMNS = (
    "candidate_id",
    "position",
    "degree",
    "field",
    "minor",
    "school",
    "start",
    '"end"',
    "start_year_only",
    "end_year_only",
)


_POSITION_COLUMNS = (
    "candidate_id",
    '"order"',
    "company",
    "title",
    "location",
    "start",
    '"end"',
    "is_current",
    "summary",
    "highlights",
    "url",
)


_LANGUAGE_COLUMNS = ("candidate_id", "position", "code", "name", "fluency", "raw")


_CONTRIBUTION_COLUMNS = (
    "candidate_id",
    "repository_id",
    "position",
    "role",
    "commits",
    "comments",
    "start",
    '"end"',
    "is_current",
    "active_months",
    "summary",
)


def write_children(profile_by_candidate: dict[int, NormalisedProfile]) -> None:
    if not profile_by_candidate:
        return
    skill_ids = skill_ids_of(profile_by_candidate.values())
    copy_rows(
        "profiles_candidateskill",
        SKILL_COLUMNS,
        [
            (cid, skill_ids[s.slug], s.score, s.label, s.section, s.position)
            for cid, profile in profile_by_candidate.items()
            for s in profile.skills
        ],
    )
    copy_rows(
        "profiles_education",
        _EDUCATION_COLUMNS,
        [
            (cid, e.position, e.degree, e.field, e.minor, e.school, e.start, e.end, e.start_year_only, e.end_year_only)
            for cid, profile in profile_by_candidate.items()
            for e in profile.education
        ],
    )
    copy_rows(
        "profiles_position",
        _POSITION_COLUMNS,
        [
            (cid, p.order, p.company, p.title, p.location, p.start, p.end, p.is_current, p.summary, p.highlights, p.url)
            for cid, profile in profile_by_candidate.items()
            for p in profile.positions
        ],
    )
    copy_rows(
        "profiles_spokenlanguage",
        _LANGUAGE_COLUMNS,
        [
            (cid, lang.position, lang.code, lang.name, lang.fluency, lang.raw)
            for cid, profile in profile_by_candidate.items()
            for lang in profile.languages
        ],
    )
    repo_ids = upsert_repositories(profile_by_candidate.values())
    copy_rows(
        "profiles_contribution",
        _CONTRIBUTION_COLUMNS,
        [
            (
                cid,
                repo_ids[c.repository],
                c.position,
                c.role,
                c.commits,
                c.comments,
                c.start,
                c.end,
                c.is_current,
                c.active_months,
                c.summary,
            )
            for cid, profile in profile_by_candidate.items()
            for c in profile.contributions
        ],
    )
