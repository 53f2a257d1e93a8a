"""Related skills (issue 16): co-occurrence over the candidates' skills, with lift and a minimum support.

The small pool below is computed by hand. Six candidates have at least one skill at score 3 or more:

    c1: a b     c2: a b     c3: a c     c4: c d     c5: d     c6: e (and a at score 1, below the minimum)

n(a) = 3, n(b) = n(c) = n(d) = 2, n(e) = 1; pairs: a-b in 2 candidates, a-c in 1, c-d in 1.
lift = support × 6 / (n(x) × n(y)): a-b = 2·6/(3·2) = 2.0, a-c = 1·6/(3·2) = 1.0, c-d = 1·6/(2·2) = 1.5.
"""

import io

import pytest
from django.core.management import call_command

from profiles.models import RelatedSkill
from profiles.selectors import related_skills, related_skills_for
from profiles.services import related_skills_refresh
from profiles.tasks import refresh_related_skills
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool() -> dict:
    skills = {key: SkillFactory(slug=f"rs-{key}", name=f"RS {key.upper()}") for key in "abcde"}
    for held in ["a b", "a b", "a c", "c d", "d", "e"]:
        candidate = CandidateFactory()
        for key in held.split():
            CandidateSkillFactory(candidate=candidate, skill=skills[key], score=8)
        if held == "e":
            CandidateSkillFactory(candidate=candidate, skill=skills["a"], score=1)
    return skills


def _rows() -> set[tuple[str, str, int, float]]:
    return {
        (r.skill.slug, r.related.slug, r.support, round(r.lift, 6))
        for r in RelatedSkill.objects.select_related("skill", "related")
    }


def test_lift_and_support_are_those_computed_by_hand(pool):
    result = related_skills_refresh(min_score=3, min_support=1, min_lift=1.0, per_skill=10)

    assert _rows() == {
        ("rs-a", "rs-b", 2, 2.0),
        ("rs-b", "rs-a", 2, 2.0),
        ("rs-c", "rs-d", 1, 1.5),
        ("rs-d", "rs-c", 1, 1.5),
        ("rs-a", "rs-c", 1, 1.0),
        ("rs-c", "rs-a", 1, 1.0),
    }
    assert (result.rows, result.candidates, result.sampled) == (6, 6, False)


def test_a_score_below_the_minimum_does_not_count(pool):
    related_skills_refresh(min_score=0, min_support=2, min_lift=0.1, per_skill=10)

    # With c6's score-1 "a" counted, n(a) = 4 and the pool holds the same 6 candidates: 2·6/(4·2) = 1.5.
    assert _rows() == {("rs-a", "rs-b", 2, 1.5), ("rs-b", "rs-a", 2, 1.5)}


def test_pairs_below_the_minimum_support_or_lift_are_not_stored(pool):
    related_skills_refresh(min_score=3, min_support=2, min_lift=1.0, per_skill=10)
    assert _rows() == {("rs-a", "rs-b", 2, 2.0), ("rs-b", "rs-a", 2, 2.0)}

    related_skills_refresh(min_score=3, min_support=1, min_lift=1.2, per_skill=10)
    assert {(s, r) for s, r, *_ in _rows()} == {("rs-a", "rs-b"), ("rs-b", "rs-a"), ("rs-c", "rs-d"), ("rs-d", "rs-c")}


def test_each_skill_keeps_only_its_top_related_ones(pool):
    related_skills_refresh(min_score=3, min_support=1, min_lift=1.0, per_skill=1)

    assert {(s, r) for s, r, *_ in _rows()} == {("rs-a", "rs-b"), ("rs-b", "rs-a"), ("rs-c", "rs-d"), ("rs-d", "rs-c")}


def test_a_refresh_replaces_the_old_rows_and_a_second_one_changes_nothing(pool):
    related_skills_refresh(min_score=3, min_support=1, min_lift=1.0, per_skill=10)
    # A seventh candidate with c and d: c-d is in 2 candidates now, n(c) = n(d) = 3.
    c7 = CandidateSkillFactory(skill=pool["d"], score=8).candidate
    CandidateSkillFactory(candidate=c7, skill=pool["c"], score=8)

    related_skills_refresh(min_score=3, min_support=1, min_lift=1.0, per_skill=10)
    first = _rows()
    related_skills_refresh(min_score=3, min_support=1, min_lift=1.0, per_skill=10)

    # 7 candidates: a-b = 2·7/(3·2), c-d = 2·7/(3·3), a-c = 1·7/(3·3) < 1.
    assert first == {
        ("rs-a", "rs-b", 2, round(14 / 6, 6)),
        ("rs-b", "rs-a", 2, round(14 / 6, 6)),
        ("rs-c", "rs-d", 2, round(14 / 9, 6)),
        ("rs-d", "rs-c", 2, round(14 / 9, 6)),
    }
    assert _rows() == first
    assert RelatedSkill.objects.count() == 4


def test_the_defaults_come_from_the_settings(pool, settings):
    settings.RELATED_SKILLS_MIN_SCORE = 3
    settings.RELATED_SKILLS_MIN_SUPPORT = 2
    settings.RELATED_SKILLS_MIN_LIFT = 1.0

    related_skills_refresh()

    assert {(s, r) for s, r, *_ in _rows()} == {("rs-a", "rs-b"), ("rs-b", "rs-a")}


def test_a_large_pool_is_sampled_and_lift_stays_a_ratio(pool, settings):
    settings.RELATED_SKILLS_SAMPLE_CANDIDATES = 3  # fewer than the 6 candidates: a repeatable sample of them

    result = related_skills_refresh(min_score=3, min_support=1, min_lift=0.0, per_skill=10)

    assert result.sampled is True
    assert result.candidates <= 6
    assert all(lift > 0 and support >= 1 for *_, support, lift in _rows())


def test_related_skills_reads_a_skill_s_best_first(pool):
    related_skills_refresh(min_score=3, min_support=1, min_lift=1.0, per_skill=10)

    rows = related_skills(skill=pool["a"])

    assert [(r.related.slug, r.support, r.lift) for r in rows] == [("rs-b", 2, 2.0), ("rs-c", 1, 1.0)]
    assert [r.related.slug for r in related_skills(skill=pool["a"], limit=1)] == ["rs-b"]
    assert list(related_skills(skill=pool["e"])) == []


def test_related_skills_for_a_set_of_skills_leaves_out_those_already_there(pool):
    related_skills_refresh(min_score=3, min_support=1, min_lift=1.0, per_skill=10)

    suggestions = related_skills_for(slugs=["rs-a", "rs-d"], exclude={"rs-b"})

    # a suggests b (excluded) and c; d suggests c: c once, through both, with its best lift.
    assert [(s.slug, s.name, s.lift, s.support, s.via) for s in suggestions] == [
        ("rs-c", "RS C", 1.5, 1, ["rs-a", "rs-d"])
    ]
    assert [s.slug for s in related_skills_for(slugs=["rs-a", "rs-b"], exclude=set())] == ["rs-c"]
    assert related_skills_for(slugs=[], exclude=set()) == []


def test_related_skills_for_puts_skills_related_to_more_of_them_first_and_stops_at_the_limit(pool):
    related_skills_refresh(min_score=3, min_support=1, min_lift=1.0, per_skill=10)

    suggestions = related_skills_for(slugs=["rs-b", "rs-c"], exclude=set(), limit=8)

    # b suggests a (2.0); c suggests d (1.5) and a (1.0): a through both comes first.
    assert [(s.slug, s.via) for s in suggestions] == [("rs-a", ["rs-b", "rs-c"]), ("rs-d", ["rs-c"])]
    assert [s.slug for s in related_skills_for(slugs=["rs-b", "rs-c"], exclude=set(), limit=1)] == ["rs-a"]


def test_the_beat_task_refreshes_the_table(pool, settings):
    settings.RELATED_SKILLS_MIN_SCORE, settings.RELATED_SKILLS_MIN_SUPPORT = 3, 2
    settings.RELATED_SKILLS_MIN_LIFT = 1.0

    summary = refresh_related_skills.apply().get()

    assert summary["rows"] == 2
    assert {(s, r) for s, r, *_ in _rows()} == {("rs-a", "rs-b"), ("rs-b", "rs-a")}
    again = refresh_related_skills.apply().get()  # idempotent: the same rows again, not twice as many
    assert (again["rows"], RelatedSkill.objects.count()) == (2, 2)


def test_the_beat_schedule_names_the_task(settings):
    entries = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "profiles.tasks.refresh_related_skills"
    ]

    assert len(entries) == 1


def test_the_management_command_refreshes_by_hand(pool):
    out = io.StringIO()

    call_command("related_skills", "--min-support", "2", "--min-score", "3", "--min-lift", "1", stdout=out)

    assert {(s, r) for s, r, *_ in _rows()} == {("rs-a", "rs-b"), ("rs-b", "rs-a")}
    assert "2 related-skill rows" in out.getvalue()
