"""A job match at the documented term limit (SEARCH_MAX_TERMS skills, here all preferred) completes with its evidence
right, whatever join the planner prefers: each candidate's evidence reads their own contributions and each one's
repository by its primary key, never every repository that has one of the topics once per candidate."""

import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.contrib.auth.models import Permission
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from jobs.criteria import Criteria
from jobs.ranking import candidates_ranked
from profiles.search import candidates_refresh_search_columns
from profiles.search.signals import COMMITS_PER_ACTIVE_MONTH, EVIDENCE_HALF_LIFE_MONTHS, EVIDENCE_SATURATION
from profiles.vocabulary_copy import skill_vocabulary_changed
from tests.api.conftest import _client_for
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    RepositoryFactory,
    SkillFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

URL = reverse("api:job-match")
TERMS = 50  # SEARCH_MAX_TERMS's documented default (README, tests/api/test_skill_term_cap.py)
SKILLS = [f"common-skill-{n:02d}" for n in range(TERMS)]


@pytest.fixture
def match_api(db):
    user = UserFactory(username="matcher")
    user.user_permissions.add(Permission.objects.get(codename="view_candidate", content_type__app_label="profiles"))
    return _client_for(user)


def _person(name: str, scores: dict[str, int], contributions=()):
    """A candidate with ``scores`` and contributions (full name, topics, commits, active months, end month or None
    while current)."""
    candidate = CandidateFactory(name=name, title="Engineer", company="Acme", country_code="DE", years_coding=8)
    for slug, score in scores.items():
        CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug=slug), score=score)
    for full_name, topics, commits, months, end in contributions:
        ContributionFactory(
            candidate=candidate,
            repository=RepositoryFactory(full_name=full_name, topic_slugs=topics),
            commits=commits,
            active_months=months,
            start=dt.date(2015, 1, 1),
            end=end,
            is_current=end is None,
        )
    candidates_refresh_search_columns(candidate_ids=[candidate.pk])
    return candidate


@pytest.fixture
def pool(db):
    people = {
        # Every skill, and work on two of them: one current, one that ended in 2021 (decayed by its age).
        "ada": _person(
            "Ada",
            dict.fromkeys(SKILLS, 6),
            [
                ("ada/current", [SKILLS[7], "cooking"], 40, 2, None),
                ("ada/old", [SKILLS[49]], 30, 0, dt.date(2021, 3, 1)),
                ("ada/hobby", ["cooking"], 500, 12, None),  # no topic of the criteria: no evidence
            ],
        ),
        "bo": _person("Bo", dict.fromkeys(SKILLS, 6)),  # the same skills, no work to show
        "cy": _person("Cy", dict.fromkeys(SKILLS[:10], 9), [("cy/lib", SKILLS[:3], 10, 1, None)]),
    }
    skill_vocabulary_changed()
    return people


def _evidence_points(contributions, today: dt.date) -> Decimal:
    """The README's evidence, computed apart from the SQL: WEIGHT_EVIDENCE x X / (X + saturation)."""
    weight = Decimal(0)
    for commits, months, end in contributions:
        age = 0 if end is None else max(0, (today.year * 12 + today.month) - (end.year * 12 + end.month))
        weight += Decimal(commits + COMMITS_PER_ACTIVE_MONTH * months) * Decimal(
            0.5 ** (age / EVIDENCE_HALF_LIFE_MONTHS)
        )
    return 20 * weight / (weight + EVIDENCE_SATURATION)


def _match(preferred_fit: Decimal, evidence: Decimal) -> int:
    """required (none asked: full) + preferred + evidence + keywords, years, location (none asked: full)."""
    total = 40 + 10 * preferred_fit + evidence + 10 + 10 + 10
    return int(total.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@pytest.fixture
def planner_without_nested_loops(db):
    """The plan the statistics of a large database gave for many topics: no nested loop, so a join of contributions
    and repositories inside the evidence would hash every repository with the topics once per candidate."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SET LOCAL enable_nestloop = off")
        cursor.execute("SET LOCAL statement_timeout = '20s'")


def test_a_match_of_the_maximum_number_of_preferred_skills_ranks_and_explains_the_evidence(
    match_api, pool, settings, planner_without_nested_loops
):
    assert settings.SEARCH_MAX_TERMS == TERMS
    body = {"description": "Engineer", "criteria": {"preferred": [{"skill": slug} for slug in SKILLS]}}

    response = match_api.post(URL, body, format="json")

    assert response.status_code == 200, response.content[:500]
    answer = response.json()
    assert [item["skill"] for item in answer["criteria"]["preferred"]] == SKILLS
    assert answer["criteria"]["required"] == []
    today = timezone.now().date()
    this_month = today.strftime("%Y-%m")
    ada = _evidence_points([(40, 2, None), (30, 0, dt.date(2021, 3, 1))], today)
    cy = _evidence_points([(10, 1, None)], today)
    expected = {
        pool["ada"].pk: _match(Decimal("0.6"), ada),
        pool["bo"].pk: _match(Decimal("0.6"), Decimal(0)),
        pool["cy"].pk: _match(Decimal("0.18"), cy),
    }
    assert [(row["id"], row["match"]) for row in answer["results"]] == sorted(
        expected.items(), key=lambda item: (-item[1], item[0])
    )
    evidence = {row["id"]: row["evidence"] for row in answer["results"]}
    assert evidence[pool["ada"].pk] == [
        {"repository": "ada/current", "commits": 40, "last_active": this_month, "topics": [SKILLS[7]]},
        {"repository": "ada/old", "commits": 30, "last_active": "2021-03", "topics": [SKILLS[49]]},
    ]
    assert evidence[pool["bo"].pk] == []
    assert evidence[pool["cy"].pk] == [
        {"repository": "cy/lib", "commits": 10, "last_active": this_month, "topics": SKILLS[:3]}
    ]


def test_the_evidence_reads_each_repository_by_its_primary_key_whatever_join_the_planner_prefers(
    pool, planner_without_nested_loops
):
    # A small test table's statistics (which the tests before this one leave as they happen to) may make a scan of
    # the whole table look cheaper than its index; without scans or merge joins to fall back on, a join of
    # contributions and repositories can only be hashed, and a read by primary key only use the key.
    with connections["default"].cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute("SET LOCAL enable_mergejoin = off")
    ranked = candidates_ranked(Criteria(preferred=tuple(SKILLS)))

    plan = ranked[:50].explain()

    repository_reads = [line.strip(" ->") for line in plan.splitlines() if "profiles_repository" in line]
    assert repository_reads, plan
    assert {re.sub(r"  \(cost=.*", "", read) for read in repository_reads} == {
        "Index Scan using profiles_repository_pkey on profiles_repository r"
    }, plan
    assert "Hash" not in plan, plan
