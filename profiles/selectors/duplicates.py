"""Candidates that look like one person: pairs of one name that share a company, a repository or an identifier,
and the pairs imports recorded."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef
from django.db.models.functions import Greatest, Least

from core.identity import NAME_KEY_SQL, URL_TOKEN_SQL, name_key
from db.connections import read_connection
from profiles.models import Candidate, NotDuplicate, PossibleDuplicate

# Names held by more than one candidate, in key order after a cursor: a walk along the name-key index that stops
# after a page of names, instead of grouping every name.
DUPLICATE_NAMES_SQL = """
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
        cursor.execute(DUPLICATE_NAMES_SQL, [after, names])
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
