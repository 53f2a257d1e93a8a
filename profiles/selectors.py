"""Reads of the talent domain."""

from __future__ import annotations

import re
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import orjson
from django.contrib.postgres.search import SearchQuery
from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db.models import Count, Exists, F, Model, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Greatest, Least
from django.http import QueryDict

from core.identity import NAME_KEY_SQL, URL_TOKEN_SQL, name_key
from db.connections import read_connection

# Counting is db's; these names stay importable from here for the selectors' callers.
from db.counting import EXACT_COUNT_BELOW as EXACT_COUNT_BELOW
from db.counting import EXACT_GROUPS_BELOW
from db.counting import common_values as common_values
from db.counting import queryset_count as queryset_count
from db.counting import table_row_estimate as table_row_estimate
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    Education,
    NotDuplicate,
    Position,
    PossibleDuplicate,
    RelatedSkill,
    Repository,
    SavedSearch,
    Shortlist,
    ShortlistEntry,
    Skill,
    SkillAlias,
    SpokenLanguage,
)
from profiles.search.filtersets import CandidateFilterSet, RepositoryFilterSet, SkillFilterSet
from profiles.search.skills import annotate_match
from profiles.search.terms import MatchParamsForm
from profiles.vocabulary import SkillVocabulary

# The vocabulary is large (every alias of every GitHub topic and Linguist language), and what a process builds from it
# (the topic splitter's index) is costly, so each process keeps the copy it built; the copy's version lives in the
# shared cache, and a new version there (``skill_vocabulary_changed``: a seed, an edit in the admin) makes every
# process read the table again on its next call. The version also expires, so skills that imports create reach the
# parsers within VOCABULARY_MAX_AGE_SECONDS: imports map every label through the database anyway
# (``ingestion.loaders.skill_vocabulary_resolve``); the parsers only split glued topics with the words.
VOCABULARY_VERSION_KEY = "skill-vocabulary-version"
VOCABULARY_MAX_AGE_SECONDS = 300
_vocabulary: tuple[str, SkillVocabulary] | None = None  # (version, the copy this process built)


def skill_vocabulary() -> SkillVocabulary:
    """Every alias the database knows with its skill's slug, and the words (aliases and slugs) that split glued
    topic strings."""
    global _vocabulary
    version = cache.get(VOCABULARY_VERSION_KEY)
    if version is None:
        cache.add(VOCABULARY_VERSION_KEY, uuid.uuid4().hex, timeout=VOCABULARY_MAX_AGE_SECONDS)
        version = cache.get(VOCABULARY_VERSION_KEY)
    if _vocabulary is None or _vocabulary[0] != version:
        slugs = dict(SkillAlias.objects.values_list("label", "skill__slug"))
        words = frozenset({*slugs, *Skill.objects.values_list("slug", flat=True)})
        _vocabulary = (version, SkillVocabulary(slugs=slugs, words=words))
    return _vocabulary[1]


def skill_vocabulary_changed() -> None:
    """Every process reads the vocabulary again on its next ``skill_vocabulary()``: call after seeding or editing
    skills and aliases."""
    cache.set(VOCABULARY_VERSION_KEY, uuid.uuid4().hex, timeout=VOCABULARY_MAX_AGE_SECONDS)


# --- Candidate search: the one read path of the API, the admin and the exports -------------------------------------


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
    PostgreSQL builds cheapest (objects, ``json_build_object``, cost it more; docs/benchmarks.md, "API").
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


# What a list row or a CSV line shows; nothing else travels (the page query sorts whole rows before its LIMIT).
_LISTED = (
    "id",
    "name",
    "headline",
    "title",
    "company",
    "city",
    "region",
    "country",
    "country_code",
    "badges",
    "years_coding",
    "years_employed",
    "spoken_languages",
    "updated_at",
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


SKILL_SECTION_TITLES = {
    CandidateSkill.Section.SKILL: "GitHub skills",
    CandidateSkill.Section.LANGUAGE: "Programming languages",
}


@dataclass(frozen=True)
class CandidateProfile:
    """What a candidate's profile page shows of the talent domain: the candidate with its rows (``position_rows``,
    ``education_rows``, ``language_rows``, ``contribution_rows``, ``identifier_rows``, ``skill_rows``), its scored
    skills by the file's section (GitHub skills, then programming languages; best first), the topics of the
    repositories it contributed to (most repositories first), and the shortlist entries the reader may see, each with
    the job whose pipeline its shortlist is (or None)."""

    candidate: Candidate
    skill_groups: list[tuple[str, list[CandidateSkill]]]
    topics: list[tuple[str, int]]
    entries: list[tuple[ShortlistEntry, Model | None]]


def candidate_profile(*, candidate_id: int, user) -> CandidateProfile:
    """One candidate as its profile page reads it, in a fixed number of queries (the candidate and seven
    prefetches). Raises Candidate.DoesNotExist."""
    owners = _pipeline_owners()
    candidate = (
        candidates_with_profile_rows(Candidate.objects.filter(pk=candidate_id))
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
                .select_related("shortlist", *(f"shortlist__{name}" for name in owners))
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
    return CandidateProfile(
        candidate=candidate,
        skill_groups=[(SKILL_SECTION_TITLES[key], rows) for key, rows in sections.items() if rows],
        topics=sorted(topics.items(), key=lambda item: (-item[1], item[0].lower())),
        entries=[(entry, _owner_of(entry.shortlist, owners)) for entry in candidate.entry_rows],
    )


def _pipeline_owners() -> list[str]:
    """The names of the relations by which a model owns a shortlist one to one (a job, whose pipeline it is): the app
    above that defines them is not imported here, and with it not installed there are none."""
    return [rel.name for rel in Shortlist._meta.related_objects if rel.one_to_one]


def _owner_of(shortlist: Shortlist, names: list[str]) -> Model | None:
    for name in names:
        try:
            return getattr(shortlist, name)
        except ObjectDoesNotExist:
            continue
    return None


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


# --- Counting at scale (db.counting counts any table; this, candidates) ---------------------------------------


def candidates_count_up_to(queryset: QuerySet[Candidate], *, limit: int) -> int:
    """How many candidates ``queryset`` holds, counting no further than ``limit + 1``: enough to tell whether it is
    over ``limit`` (a streamed export's most rows) without counting (or sorting) a million rows."""
    return queryset.order_by().values("pk")[: limit + 1].count()


# --- Candidates ----------------------------------------------------------------------------------------------------

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


# --- Duplicates ----------------------------------------------------------------------------------------------------

# Names held by more than one candidate, in key order after a cursor: a walk along the name-key index that stops
# after a page of names, instead of grouping every name.
_DUPLICATE_NAMES_SQL = """
SELECT k FROM (SELECT {name_key} AS k FROM profiles_candidate WHERE {name_key} > %s) AS t
GROUP BY k HAVING count(*) > 1 ORDER BY k LIMIT %s
""".replace("{name_key}", NAME_KEY_SQL)
# Pairs among the candidates of those names that share a company, a repository or an identifier (a GitHub username
# and a github.com URL key are one identifier: ``core.identity.URL_TOKEN_SQL``), except pairs marked as different
# people.
_DUPLICATE_PAIRS_SQL = r"""
WITH named AS (
    SELECT id, {name_key} AS k, lower(btrim(company)) AS company FROM profiles_candidate
    WHERE {name_key} = ANY(%s)
),
tokens AS (
    SELECT n.id, n.k, 'company' AS reason, n.company AS token FROM named n WHERE n.company <> ''
    UNION ALL
    SELECT n.id, n.k, 'repository', co.repository_id::text FROM named n
    JOIN profiles_contribution co ON co.candidate_id = n.id
    UNION ALL
    SELECT n.id, n.k, 'identifier', CASE WHEN i.kind = 'url' THEN {url_token} ELSE i.kind || ':' || i.value END
    FROM named n JOIN profiles_candidateidentifier i ON i.candidate_id = n.id
    WHERE i.kind <> 'name'
)
SELECT a.id, b.id, array_agg(DISTINCT a.reason ORDER BY a.reason)
FROM tokens a JOIN tokens b ON a.k = b.k AND a.reason = b.reason AND a.token = b.token AND a.id < b.id
WHERE NOT EXISTS (SELECT 1 FROM profiles_notduplicate nd WHERE nd.first_id = a.id AND nd.second_id = b.id)
GROUP BY a.id, b.id
ORDER BY a.id, b.id
""".replace("{name_key}", NAME_KEY_SQL).replace("{url_token}", URL_TOKEN_SQL.replace("{value}", "i.value"))


@dataclass
class DuplicateGroup:
    """Candidates that look like one person, and what they share (company, repository, identifier)."""

    candidates: list[Candidate]
    reasons: list[str] = field(default_factory=list)

    @property
    def ids(self) -> list[int]:
        return [c.pk for c in self.candidates]


@dataclass
class DuplicatePage:
    groups: list[DuplicateGroup]
    next_after: str | None  # the name key to continue after; None on the last page


def candidate_duplicate_groups(*, after: str = "", names: int = 200) -> DuplicatePage:
    """Groups of candidates with the same normalised name that share a repository, a company or an identifier.

    Looks at the next ``names`` names held by several candidates (in name-key order, after ``after``). Pairs a
    recruiter marked "not a duplicate" are not proposed.
    """
    with read_connection(Candidate).cursor() as cursor:
        cursor.execute(_DUPLICATE_NAMES_SQL, [after, names])
        keys = [row[0] for row in cursor.fetchall()]
        pairs = []
        if keys:
            cursor.execute(_DUPLICATE_PAIRS_SQL, [keys])
            pairs = cursor.fetchall()
    ids = {cid for a, b, _ in pairs for cid in (a, b)}
    candidates = Candidate.objects.in_bulk(ids)
    parent: dict[int, int] = {}

    def root(cid: int) -> int:
        parent.setdefault(cid, cid)
        while parent[cid] != cid:
            parent[cid] = parent[parent[cid]]
            cid = parent[cid]
        return cid

    reasons: dict[int, set[str]] = {}
    kept: list[tuple[int, int, list[str]]] = []
    for a, b, why in pairs:
        if name_key(candidates[a].name) == name_key(candidates[b].name):
            kept.append((a, b, why))
            parent[root(a)] = root(b)
    for a, _, why in kept:
        reasons.setdefault(root(a), set()).update(why)
    members: dict[int, list[Candidate]] = {}
    for cid in sorted({cid for a, b, _ in kept for cid in (a, b)}):
        members.setdefault(root(cid), []).append(candidates[cid])
    groups = [DuplicateGroup(candidates=group, reasons=sorted(reasons[key])) for key, group in members.items()]
    recorded = candidate_recorded_duplicates() if not after else []
    return DuplicatePage(groups=recorded + groups, next_after=keys[-1] if len(keys) == names else None)


_RECORDED_REASON = {
    PossibleDuplicate.Reason.NAME_DIFFERS: "one identifier under two names",
    PossibleDuplicate.Reason.SPELLINGS: "one identifier written two ways",
}


def candidate_recorded_duplicates(*, limit: int = 200) -> list[DuplicateGroup]:
    """The possible duplicates imports and migrations recorded (``PossibleDuplicate``: an identifier of one
    candidate in a file of a clearly different name, or one identifier written two ways), oldest first, each pair a
    group, except pairs a recruiter marked as different people. The first page of ``candidate_duplicate_groups``
    shows them above the pairs of one name."""
    rows = list(
        PossibleDuplicate.objects.annotate(low=Least("first_id", "second_id"), high=Greatest("first_id", "second_id"))
        .exclude(Exists(NotDuplicate.objects.filter(first_id=OuterRef("low"), second_id=OuterRef("high"))))
        .select_related("first", "second")
        .order_by("found_at", "pk")[:limit]
    )
    return [
        DuplicateGroup(
            candidates=[row.first, row.second],
            reasons=[f"{_RECORDED_REASON.get(row.reason, row.reason)}: {row.kind} {row.value}".strip()],
        )
        for row in rows
    ]


# --- Shortlists and saved searches ---------------------------------------------------------------------------------

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


# --- Filter choices ----------------------------------------------------------------------------------------------


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


# --- Autocomplete --------------------------------------------------------------------------------------------------


def candidate_autocomplete(*, term: str, queryset: QuerySet[Candidate] | None = None) -> QuerySet[Candidate]:
    """Candidates whose full-text vector has words starting with each word typed ("jinl we" finds Jinliang Wei),
    through the same GIN index as ``q``; ordered by name."""
    words = re.findall(r"\w+", term)[:8]
    queryset = Candidate.objects.all() if queryset is None else queryset
    if not words:
        return queryset.none()
    query = SearchQuery(" & ".join(f"{word}:*" for word in words), search_type="raw", config="english")
    return queryset.filter(search_vector=query).order_by("name", "id")


# --- The skill vocabulary's audit (manage.py skills_audit) ---------------------------------------------------------


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


# --- Related skills (issue 16; written by profiles.services.related_skills_refresh) ----------------------------------


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
