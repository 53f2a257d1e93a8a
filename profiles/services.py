"""Writes of the talent domain: skill resolution, search vectors, edits, shortlists, merges."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify

from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    Education,
    MergeRecord,
    NotDuplicate,
    Shortlist,
    ShortlistEntry,
    Skill,
    SkillAlias,
)

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


# Skills and repositories are in the vector too, so one `q` (the admin's search box and the API's) finds a candidate
# by any of them; a repository is indexed both whole ("owner/name") and as its two words.
# One statement refreshes every column that search reads from a candidate's rows: the full-text vector and the skill
# tokens and scores (see Candidate.skill_tokens). A candidate without skills gets empty ones.
#
# A skill token is skill_id * 16 + score (scores run 0-10). A candidate with a country also gets each token again,
# scoped to the country: -(token * 1024 + country index), the index being (A-Z, A-Z) of its ISO code as 0-675.
# `python:8&country=US` then intersects two short posting lists (Americans with python at 8-10, with go at 7-10)
# instead of two long ones and a quarter of the table. The numbers are written out in the SQL below too.
SKILL_TOKEN_SCORES = 16
COUNTRY_TOKEN_SLOTS = 1024

# The search columns of a candidate ``c`` (name, headline, title, company, summary, country_code), from its rows in the
# ``skills`` and ``contributions`` of SEARCH_SOURCES_SQL; SQL of its own so that the loader can write a new candidate
# with them in one INSERT (profiles.services owns the definition, the loader borrows it).
SEARCH_COLUMNS = "search_vector, skill_tokens, skill_scores"
SEARCH_VALUES_SQL = """
    setweight(to_tsvector('english', c.name), 'A')
    || setweight(to_tsvector('english', concat_ws(' ', c.headline, c.title, c.company)), 'B')
    || setweight(to_tsvector('english', c.summary), 'C')
    || setweight(to_tsvector('english', coalesce(skills.words, '')), 'C')
    || setweight(to_tsvector('english', coalesce(contributions.words, '')), 'D'),
    coalesce(skills.tokens, '{}')::bigint[] || CASE WHEN c.country_code ~ '^[A-Z]{2}$' THEN ARRAY(
        SELECT -(t::bigint * 1024 + (ascii(c.country_code) - 65) * 26 + ascii(substr(c.country_code, 2)) - 65)
        FROM unnest(skills.tokens) AS t
    ) ELSE '{}' END,
    coalesce(skills.scores, '{}')
"""
# The skills and contributions of the candidates in ``ids`` (a CTE the statement defines first), as the values read
# them. Words in the files' order, so a vector does not depend on how the rows were written.
#
# Each candidate's rows are read through a LATERAL subquery, by the (candidate, ...) indexes, and each skill's slug
# and repository's name by its primary key: plans that do not depend on what the planner believes of the tables'
# sizes. As joins, a bulk import into a young database (statistics taken when the tables were a fraction of their
# size) was planned as hash joins over sequential scans of every candidate's skills and contributions, or of every
# skill, once per chunk or per candidate: 0.3 ms a profile more by 20,000 profiles, and growing with the tables.
SEARCH_SOURCES_SQL = """
skills AS (
    SELECT ids.id, sk.words, sk.tokens, sk.scores
    FROM ids CROSS JOIN LATERAL (
        SELECT string_agg((SELECT s.slug FROM profiles_skill s WHERE s.id = cs.skill_id), ' '
                ORDER BY cs.section, cs.position) AS words,
            array_agg(cs.skill_id * 16 + cs.score ORDER BY cs.skill_id) AS tokens,
            jsonb_object_agg(cs.skill_id::text, cs.score) AS scores
        FROM profiles_candidateskill cs
        WHERE cs.candidate_id = ids.id
    ) AS sk
),
contributions AS (
    SELECT ids.id, co.words
    FROM ids CROSS JOIN LATERAL (
        SELECT string_agg(concat_ws(' ', r.name, replace(r.name, '/', ' '), c.summary), ' ' ORDER BY c.position)
            AS words
        FROM profiles_contribution c
        CROSS JOIN LATERAL (SELECT (SELECT p.full_name FROM profiles_repository p WHERE p.id = c.repository_id) AS name)
            AS r
        WHERE c.candidate_id = ids.id
    ) AS co
)
"""
SEARCH_COLUMNS_SQL = (
    "WITH ids AS (SELECT DISTINCT unnest(%s::bigint[]) AS id),"  # noqa: S608 - fixed SQL, no values
    + SEARCH_SOURCES_SQL
    + "UPDATE profiles_candidate AS c SET ("
    + SEARCH_COLUMNS
    + ") = ("
    + SEARCH_VALUES_SQL
    + ") FROM ids LEFT JOIN skills ON skills.id = ids.id LEFT JOIN contributions ON contributions.id = ids.id "
    "WHERE c.id = ids.id"
)


def candidates_refresh_search_columns(*, candidate_ids: Iterable[int]) -> None:
    """Recompute what search reads of these candidates: the full-text vector (name, headline, title, company,
    summary, skills, repositories and contribution summaries) and the skill tokens and scores.

    Every write of a candidate's skills, contributions, text fields or country ends with this call (the loader, hand
    edits, reverts, merges)."""
    ids = list(candidate_ids)
    if ids:
        with connection.cursor() as cursor:
            cursor.execute(SEARCH_COLUMNS_SQL, [ids])


def skill_tokens(skill_id: int, min_score: int | None = None, *, country_code: str = "") -> list[int]:
    """The tokens of ``skill_id`` at ``min_score`` or more (any score when None), scoped to ``country_code`` (ISO
    alpha-2) when one is given: what Candidate.skill_tokens holds of a candidate who qualifies."""
    tokens = [skill_id * SKILL_TOKEN_SCORES + score for score in range(min_score or 0, 11)]
    if not country_code:
        return tokens
    first, second = (ord(letter) - ord("A") for letter in country_code.upper())
    country = first * 26 + second
    return [-(token * COUNTRY_TOKEN_SLOTS + country) for token in tokens]


# --- Edits by hand: protected fields and history -----------------------------------------------------------------
# Imports write candidates in bulk, without history records; an edit in the admin goes through these services, which
# record who changed what (fields and skills), protect the edited fields against later imports, and revert.


def _imported_fields() -> tuple[str, ...]:
    from ingestion.loaders import IMPORTED_FIELDS  # the loader imports this module: resolve at call time

    return IMPORTED_FIELDS


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
    from profiles.selectors import candidate_skills_snapshot

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
    imported = _imported_fields()
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


def candidate_skills_edited(*, candidate_id: int) -> None:
    """After a hand edit of a candidate's skills (admin inlines, a revert, a merge): refresh what search reads of them
    and store them on the latest history record."""
    candidates_refresh_search_columns(candidate_ids=[candidate_id])
    candidate_history_snapshot_skills(candidate_id=candidate_id)


def candidate_history_snapshot_skills(*, candidate_id: int) -> None:
    """Store the candidate's current skills on its latest history record (after inline edits were saved)."""
    from profiles.selectors import candidate_skills_snapshot

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
    skill_ids = dict(Skill.objects.filter(slug__in=[s["skill"] for s in skills]).values_list("slug", "pk"))
    wanted = {skill_ids[s["skill"]]: s for s in skills if s["skill"] in skill_ids}
    CandidateSkill.objects.filter(candidate_id=candidate_id).exclude(skill_id__in=wanted).delete()
    current = {cs.skill_id: cs for cs in CandidateSkill.objects.filter(candidate_id=candidate_id)}
    for position, (skill_id, snap) in enumerate(wanted.items()):
        row = current.get(skill_id) or CandidateSkill(candidate_id=candidate_id, skill_id=skill_id)
        row.score, row.label, row.position = snap["score"], snap.get("label", snap["skill"]), position
        row.section = snap.get("section", CandidateSkill.Section.SKILL)
        row.save()


# --- Shortlists ----------------------------------------------------------------------------------------------------


@transaction.atomic
def shortlist_add_candidates(*, shortlist: Shortlist, candidate_ids: Iterable[int]) -> int:
    """Add candidates to a shortlist with status "new"; those already on it keep their status. Returns how many."""
    entries = [ShortlistEntry(shortlist=shortlist, candidate_id=cid) for cid in sorted(set(candidate_ids))]
    before = shortlist.entries.count()
    ShortlistEntry.objects.bulk_create(entries, ignore_conflicts=True)
    return shortlist.entries.count() - before


def shortlist_get_or_create(*, owner, name: str) -> tuple[Shortlist, bool]:
    return Shortlist.objects.get_or_create(owner=owner, name=name.strip()[:200])


# --- Duplicates and merges -----------------------------------------------------------------------------------------


def candidates_mark_not_duplicate(*, candidates: Iterable[Candidate], user) -> int:
    """Record every pair of these candidates as different people; returns how many pairs were new."""
    ids = sorted({c.pk for c in candidates})
    pairs = [NotDuplicate(first_id=a, second_id=b, marked_by=user) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    before = NotDuplicate.objects.filter(first_id__in=ids, second_id__in=ids).count()
    NotDuplicate.objects.bulk_create(pairs, ignore_conflicts=True)
    return NotDuplicate.objects.filter(first_id__in=ids, second_id__in=ids).count() - before


def _is_blank(value) -> bool:
    return value in ("", None, [])


@transaction.atomic
def candidates_merge(*, survivor: Candidate, others: Iterable[Candidate], user) -> list[MergeRecord]:
    """Merge ``others`` into ``survivor`` and delete them; returns one MergeRecord per merged candidate.

    Moves skills (the higher score wins), contributions (one per repository: the one with more commits), education,
    identifiers (so later imports of a merged person update the survivor), source files, shortlist entries (an entry
    already on the survivor's list keeps its status and gains the notes) and history records. Blank fields of the
    survivor are filled from the merged candidates.
    """
    from ingestion.models import SourceFile

    other_ids = sorted({c.pk for c in others} - {survivor.pk})
    if not other_ids:
        return []
    # Lock every candidate involved, in id order, so two merges of overlapping groups wait for each other.
    involved = Candidate.objects.select_for_update().filter(pk__in=[survivor.pk, *other_ids]).order_by("pk")
    locked = {c.pk: c for c in involved}
    if len(locked) != len(other_ids) + 1:
        raise Candidate.DoesNotExist("A candidate of this merge no longer exists.")
    survivor = locked[survivor.pk]
    candidate_history_catch_up(candidate_id=survivor.pk)
    records: list[MergeRecord] = []
    for other_id in other_ids:
        other = locked[other_id]
        candidate_history_catch_up(candidate_id=other.pk)
        details = {
            "skills": _merge_skills(survivor.pk, other.pk),
            "contributions": _merge_contributions(survivor.pk, other.pk),
            "education": _merge_education(survivor.pk, other.pk),
            "identifiers": CandidateIdentifier.objects.filter(candidate_id=other.pk).update(candidate_id=survivor.pk),
            "sources": SourceFile.objects.filter(candidate_id=other.pk).update(candidate_id=survivor.pk),
            "shortlist_entries": _merge_shortlist_entries(survivor.pk, other.pk),
            "history_records": Candidate.history.filter(id=other.pk).update(id=survivor.pk),
        }
        MergeRecord.objects.filter(survivor_id=other.pk).update(survivor_id=survivor.pk)
        filled = [f for f in _imported_fields() if _is_blank(getattr(survivor, f)) and not _is_blank(getattr(other, f))]
        for field in filled:
            setattr(survivor, field, getattr(other, field))
        details["filled_fields"] = filled
        records.append(
            MergeRecord(survivor=survivor, merged_name=other.name, merged_id=other.pk, merged_by=user, details=details)
        )
        other._history_user = user
        other._change_reason = f"Merged into #{survivor.pk}"
        other.delete()
    MergeRecord.objects.bulk_create(records)
    names = ", ".join(f"#{r.merged_id} {r.merged_name}" for r in records)
    survivor._history_user = user
    survivor._change_reason = f"Merged {names}"[:100]
    survivor.save()
    candidate_skills_edited(candidate_id=survivor.pk)
    return records


def _merge_skills(survivor_id: int, other_id: int) -> int:
    mine = {cs.skill_id: cs for cs in CandidateSkill.objects.filter(candidate_id=survivor_id)}
    last = max((cs.position for cs in mine.values()), default=-1)
    moved = 0
    for theirs in CandidateSkill.objects.filter(candidate_id=other_id).order_by("position", "id"):
        kept = mine.get(theirs.skill_id)
        if kept is None:
            last += 1
            theirs.candidate_id, theirs.position = survivor_id, last
            theirs.save(update_fields=["candidate", "position"])
            moved += 1
        elif theirs.score > kept.score:
            kept.score, kept.label = theirs.score, theirs.label
            kept.save(update_fields=["score", "label"])
            moved += 1
    CandidateSkill.objects.filter(candidate_id=other_id).delete()
    return moved


def _merge_contributions(survivor_id: int, other_id: int) -> int:
    mine = {c.repository_id: c for c in Contribution.objects.filter(candidate_id=survivor_id)}
    last = max((c.position for c in mine.values()), default=-1)
    moved = 0
    for theirs in Contribution.objects.filter(candidate_id=other_id).order_by("position", "id"):
        kept = mine.get(theirs.repository_id)
        if kept is not None and kept.commits >= theirs.commits:
            continue
        if kept is not None:
            kept.delete()
        last += 1
        theirs.candidate_id, theirs.position = survivor_id, last
        theirs.save(update_fields=["candidate", "position"])
        moved += 1
    Contribution.objects.filter(candidate_id=other_id).delete()
    return moved


def _merge_education(survivor_id: int, other_id: int) -> int:
    def key(e: Education) -> tuple[str, ...]:
        return (e.degree.casefold(), e.field.casefold(), e.minor.casefold(), e.school.casefold())

    mine = list(Education.objects.filter(candidate_id=survivor_id))
    seen = {key(e) for e in mine}
    last = max((e.position for e in mine), default=-1)
    moved = 0
    for theirs in Education.objects.filter(candidate_id=other_id).order_by("position", "id"):
        if key(theirs) in seen:
            continue
        seen.add(key(theirs))
        last += 1
        theirs.candidate_id, theirs.position = survivor_id, last
        theirs.save(update_fields=["candidate", "position"])
        moved += 1
    Education.objects.filter(candidate_id=other_id).delete()
    return moved


def _merge_shortlist_entries(survivor_id: int, other_id: int) -> int:
    mine = {e.shortlist_id: e for e in ShortlistEntry.objects.filter(candidate_id=survivor_id)}
    moved = 0
    for theirs in ShortlistEntry.objects.filter(candidate_id=other_id):
        kept = mine.get(theirs.shortlist_id)
        if kept is None:
            theirs.candidate_id = survivor_id
            theirs.save(update_fields=["candidate"])
        elif theirs.notes:
            kept.notes = f"{kept.notes}\n{theirs.notes}".strip()
            kept.save(update_fields=["notes"])
        moved += 1
    ShortlistEntry.objects.filter(candidate_id=other_id).delete()
    return moved
