"""The ranking of candidates for a job: who comes first on pools where we know, and the README's worked example."""

import datetime as dt

import pytest

from jobs.criteria import Criteria, extract_criteria
from jobs.ranking import candidates_explain, candidates_ranked
from profiles.models import RelatedSkill
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    RepositoryFactory,
    SkillFactory,
)
from tests.jobs.helpers import CITIES, JOBS_DIR, fixture_vocabulary
from tests.jobs.stored import relate

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 1, 1)


def _criteria(job: str) -> Criteria:
    return extract_criteria((JOBS_DIR / f"{job}.txt").read_text(encoding="utf-8"), fixture_vocabulary(), cities=CITIES)


def _person(name, criteria, *, score=9, skills=None, country=None, years=12, summary="", contributions=()):
    """A candidate with ``skills`` (slug -> score; default: every skill of the criteria at ``score``) and
    contributions (commits, active months, end month or None while current) to repositories on those skills."""
    country = country or (criteria.countries[0] if criteria.countries else "DE")
    candidate = CandidateFactory(
        name=name,
        title="Engineer",
        company="Acme",
        headline="",
        summary=summary,
        country_code=country,
        years_coding=years,
    )
    for slug, value in (skills if skills is not None else dict.fromkeys(criteria.skills, score)).items():
        CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug=slug), score=value)
    for index, (commits, months, end) in enumerate(contributions):
        repository = RepositoryFactory(full_name=f"{name.split()[0].lower()}/work{index}", topic_slugs=criteria.skills)
        ContributionFactory(
            candidate=candidate,
            repository=repository,
            commits=commits,
            active_months=months,
            start=dt.date(2010, 1, 1),
            end=end,
            is_current=end is None,
        )
    from profiles.search import candidates_refresh_search_columns

    candidates_refresh_search_columns(candidate_ids=[candidate.pk])
    return candidate


RECENT = ((300, 30, None),)
OLD = ((300, 30, dt.date(2014, 6, 1)),)


@pytest.mark.parametrize("job", ["jd-go-platform", "jd-data-science"])
def test_the_ideal_candidate_comes_first_and_every_decoy_below(job):
    criteria = _criteria(job)
    assert len(criteria.required) >= 3
    assert criteria.min_years_coding
    assert criteria.countries
    for slug in {*criteria.skills}:
        SkillFactory(slug=slug)
    keywords = " ".join(criteria.keywords)
    ideal = _person("Ideal Person", criteria, summary=keywords, contributions=RECENT)
    first_skill = criteria.required[0][0]
    decoys = {
        "buzzwords": _person(
            "Buzz Words",
            criteria,
            skills={first_skill: 3},
            summary=f"{keywords} " + " ".join(criteria.skills) * 3,
        ),
        "low scores": _person("Low Scores", criteria, score=3, summary=keywords, contributions=RECENT),
        "wrong country": _person("Wrong Country", criteria, country="US", summary=keywords, contributions=RECENT),
        "one year": _person("One Year", criteria, years=1, summary=keywords, contributions=RECENT),
        "old work": _person("Old Work", criteria, summary=keywords, contributions=OLD),
    }
    _person("Someone Else", Criteria(required=(("unrelated-skill", 5),)), contributions=RECENT)

    ranked = list(candidates_ranked(criteria, anywhere=True, today=TODAY))

    assert ranked[0] == ideal
    assert ranked[0].match >= 90
    assert len(ranked) == 1 + len(decoys), "the candidate with none of the skills is not in the pool"
    in_place = list(candidates_ranked(criteria, today=TODAY))
    assert in_place == [row for row in ranked if row != decoys["wrong country"]], "by default, the job's countries"
    rows = {candidate.pk: (index, candidate) for index, candidate in enumerate(ranked)}
    for why, decoy in decoys.items():
        index, row = rows[decoy.pk]
        assert index > 0, why
        assert row.match < ranked[0].match or row.missing_count > 0, why


def _worked_example_pool():
    """The README's worked example ("Ranking")."""
    for slug in ("python", "postgresql", "docker"):
        SkillFactory(slug=slug)
    candidate = CandidateFactory(
        name="Mira Example", title="Engineer", company="Acme", headline="", summary="A senior engineer.",
        country_code="DE", years_coding=4,
    )  # fmt: skip
    for slug, score in (("python", 9), ("postgresql", 4), ("docker", 6)):
        CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug=slug), score=score)
    ContributionFactory(
        candidate=candidate,
        repository=RepositoryFactory(full_name="mira/loader", topic_slugs=["python", "cli"]),
        commits=40,
        active_months=12,
        start=dt.date(2021, 1, 1),
        end=dt.date(2023, 1, 1),
    )
    from profiles.search import candidates_refresh_search_columns

    candidates_refresh_search_columns(candidate_ids=[candidate.pk])
    return candidate


WORKED_EXAMPLE = Criteria(
    required=(("python", 7), ("postgresql", 5)),
    preferred=("docker",),
    min_years_coding=5,
    countries=("DE",),
    keywords=("senior", "platform"),
)


def test_the_docs_worked_example_scores_70():
    candidate = _worked_example_pool()

    [row] = candidates_ranked(WORKED_EXAMPLE, today=TODAY)

    # required: python (min(9/7, 1) + 9/10) / 2 = 0.95, postgresql (4/5 + 4/10) / 2 = 0.6, their mean 0.775
    # 40 × 0.775 + 10 × 0.6 + 20 × 50 / (50 + 50) + 10 × 1/2 + 10 × 4/5 + 10 × 1 = 31 + 6 + 10 + 5 + 8 + 10
    assert (row.pk, row.match, row.missing_count, row.misses_any) == (candidate.pk, 70, 1, 1)


def test_the_explanation_names_matched_and_missing_skills_and_the_evidence(django_assert_num_queries):
    _worked_example_pool()
    page = list(candidates_ranked(WORKED_EXAMPLE, today=TODAY))

    with django_assert_num_queries(2):
        [row] = candidates_explain(page, WORKED_EXAMPLE, today=TODAY)

    assert row.matched == [
        {"skill": "python", "score": 9, "required": True},
        {"skill": "docker", "score": 6, "required": False},
    ]
    assert row.missing == ["postgresql"]
    assert row.evidence == [
        {"repository": "mira/loader", "commits": 40, "last_active": "2023-01", "topics": ["python"]}
    ]


def test_a_candidate_missing_a_required_skill_ranks_below_one_who_has_them_all_and_strict_leaves_them_out():
    criteria = Criteria(required=(("go", 5), ("kafka", 5)), preferred=("rust",))
    everything = _person("Has Both", criteria, skills={"go": 5, "kafka": 5})
    strong_but_missing = _person("Strong Go", criteria, skills={"go": 10, "rust": 10}, contributions=RECENT)
    below_minimum = _person("Weak Kafka", criteria, skills={"go": 10, "kafka": 4, "rust": 10}, contributions=RECENT)

    ranked = list(candidates_ranked(criteria, today=TODAY))
    strict = list(candidates_ranked(criteria, strict=True, today=TODAY))

    assert ranked[0] == everything
    assert ranked[0].match < ranked[1].match, "the order puts requirements first, not the higher match"
    assert set(ranked[1:]) == {strong_but_missing, below_minimum}
    assert strict == [everything]
    candidates_explain(ranked, criteria)
    assert [row.missing for row in ranked] == [[], ["kafka"], ["kafka"]]


def test_ties_break_by_id_and_excluded_skills_leave_candidates_out():
    criteria = Criteria(required=(("go", 5),), excluded=("php",))
    twins = [_person(f"Twin {n}", criteria, skills={"go": 7}) for n in range(3)]
    _person("Php Person", criteria, skills={"go": 9, "php": 2})

    ranked = list(candidates_ranked(criteria, today=TODAY))

    assert ranked == sorted(twins, key=lambda c: c.pk)


def test_criteria_without_known_skills_rank_nobody():
    _person("Anyone", Criteria(required=(("go", 5),)))

    assert list(candidates_ranked(Criteria(required=(("zorblang", 5),)))) == []
    assert list(candidates_ranked(Criteria())) == []


def test_candidate_filters_narrow_the_pool_and_ranking_ones_are_refused():
    from django.core.exceptions import ValidationError

    criteria = Criteria(required=(("go", 5),))
    german = _person("In Germany", criteria, country="DE")
    _person("In France", criteria, country="FR")

    assert list(candidates_ranked(criteria, params={"country": "DE"})) == [german]
    with pytest.raises(ValidationError):
        candidates_ranked(criteria, params={"skill": "go"})


# --- Widened by related skills (widen=True) ---------------------------------------------------------------------------

WIDENED = Criteria(required=(("go", 5),), preferred=("rust",), excluded=("php",))


def _widened_pool():
    """go (required) goes with grpc, rust (preferred) with zig; php is excluded. Everyone scores 8 on what they hold."""
    relate("go", "grpc", lift=3.0)
    relate("rust", "zig", lift=5.0)
    return {
        "preferred": _person("Has Rust", WIDENED, skills={"go": 8, "rust": 8}),
        "related": _person("Has Zig", WIDENED, skills={"go": 8, "zig": 8}),
        "nothing": _person("Go Only", WIDENED, skills={"go": 8}),
        "related only": _person("Zig Only", WIDENED, skills={"zig": 8}),
        "stand-in for the required": _person("Grpc Only", WIDENED, skills={"grpc": 8}),
        "excluded": _person("Zig And Php", WIDENED, skills={"go": 8, "zig": 8, "php": 5}),
    }


def test_widened_a_related_skill_ranks_above_nothing_and_below_the_preferred_skill_itself():
    pool = _widened_pool()

    ranked = list(candidates_ranked(WIDENED, widen=True, today=TODAY))

    assert ranked == [
        pool["preferred"],
        pool["related"],
        pool["nothing"],
        pool["stand-in for the required"],
        pool["related only"],
    ]
    # 40 × required_fit + 10 × preferred_fit + 30 (no keywords, years or countries asked), evidence 0. go 8 (min 5)
    # earns (1 + 0.8) / 2 = 0.9; rust 8 counts 0.8, zig 8 standing in for it 0.5 × 0.8 = 0.4; grpc 8 standing in for
    # the missing go 0.5 × 0.8 × 0.6 = 0.24, 0.6 being what go at 4 would earn: (4/5 + 4/10) / 2.
    assert [row.match for row in ranked] == [74, 70, 66, 40, 34]
    assert [row.missing_count for row in ranked] == [0, 0, 0, 1, 1], "a related skill never meets a required one"
    candidates_explain(ranked, WIDENED, widen=True)
    assert ranked[1].matched == [
        {"skill": "go", "score": 8, "required": True},
        {"skill": "zig", "score": 8, "required": False, "related_to": "rust"},
    ]
    assert [row.missing for row in ranked] == [[], [], [], ["go"], ["go"]]


def test_widened_a_required_skill_held_just_short_of_its_minimum_beats_any_stand_in_for_it():
    """Both miss go; holding go just short of its minimum says more than a related skill at its best."""
    relate("go", "grpc", lift=3.0)
    short = _person("Go Four", WIDENED, skills={"go": 4})
    related = _person("Grpc Ten", WIDENED, skills={"grpc": 10})

    ranked = list(candidates_ranked(WIDENED, widen=True, today=TODAY))

    assert ranked == [short, related]
    assert [row.missing_count for row in ranked] == [1, 1]


def test_widened_never_lowers_a_match():
    """A related skill stands in for a skill the candidate lacks or holds lower: whoever holds the criteria's own
    skills keeps the match they have unwidened."""
    pool = _widened_pool()
    plain = {row.pk: row.match for row in candidates_ranked(WIDENED, today=TODAY)}

    widened = {row.pk: row.match for row in candidates_ranked(WIDENED, widen=True, today=TODAY)}

    assert len(plain) == 3
    assert all(widened[pk] >= match for pk, match in plain.items())
    assert widened[pool["preferred"].pk] == plain[pool["preferred"].pk] == 74


def test_unwidened_related_skills_count_for_nothing():
    pool = _widened_pool()

    ranked = list(candidates_ranked(WIDENED, today=TODAY))

    assert ranked == [pool["preferred"], *sorted([pool["related"], pool["nothing"]], key=lambda c: c.pk)]
    assert [row.match for row in ranked] == [74, 66, 66]
    candidates_explain(ranked, WIDENED)
    assert all("related_to" not in item for row in ranked for item in row.matched)


def test_widened_and_strict_still_leaves_out_whoever_misses_a_required_skill():
    pool = _widened_pool()

    ranked = list(candidates_ranked(WIDENED, widen=True, strict=True, today=TODAY))

    assert ranked == [pool["preferred"], pool["related"], pool["nothing"]]


def test_widened_takes_the_few_closest_related_skills_above_the_lift_threshold_and_none_the_criteria_name():
    from profiles.search.ranking import WIDEN_MIN_LIFT, WIDEN_PER_SKILL

    criteria = Criteria(required=(("go", 5),), preferred=("rust",), excluded=("php",))
    lifts = [9.0, 8.0, 7.0, 6.0]  # the fourth is one too many
    assert len(lifts) == WIDEN_PER_SKILL + 1
    for index, lift in enumerate(lifts):
        relate("rust", f"close-{index}", lift=lift)
    relate("rust", "chance", lift=WIDEN_MIN_LIFT - 0.1)
    relate("rust", "go", lift=20.0)  # already required
    relate("rust", "php", lift=20.0)  # excluded
    holders = {slug: _person(slug, criteria, skills={slug: 8}) for slug in ("close-0", "close-2", "close-3", "chance")}

    ranked = list(candidates_ranked(criteria, widen=True, today=TODAY))
    candidates_explain(ranked, criteria, widen=True)

    assert set(ranked) == {holders["close-0"], holders["close-2"]}
    assert {item["skill"] for row in ranked for item in row.matched} == {"close-0", "close-2"}


def test_unwidened_the_statement_and_its_queries_are_what_they_were(django_assert_num_queries):
    """widen off (or nothing related stored) runs the same SQL, whatever related skills are stored, with no query
    for them: the answers cannot differ."""
    _widened_pool()
    unwidened = str(candidates_ranked(WIDENED, today=TODAY).query)
    with django_assert_num_queries(1):  # the skills' ids, as before: nothing reads the related skills
        assert str(candidates_ranked(WIDENED, widen=False, today=TODAY).query) == unwidened
    assert str(candidates_ranked(WIDENED, widen=True, today=TODAY).query) != unwidened

    RelatedSkill.objects.all().delete()

    assert str(candidates_ranked(WIDENED, today=TODAY).query) == unwidened
    assert str(candidates_ranked(WIDENED, widen=True, today=TODAY).query) == unwidened


# --- Many requirements: coverage, not the count of skills missed ------------------------------------------------------

MANY = Criteria(
    required=tuple(
        (slug, 5)
        for slug in (
            "python", "pytorch", "tensorflow", "scikit-learn", "pandas", "numpy", "sql", "docker", "kubernetes",
            "aws", "spark", "airflow", "git", "linux", "java", "scala", "terraform", "kafka", "react", "typescript",
            "graphql", "mlflow",
        )
    )
)  # fmt: skip


def test_a_post_with_many_requirements_ranks_the_best_overall_fit_above_whoever_misses_one_skill_fewer():
    """22 required skills: the ML engineer holds six of them strongly, with recent work; the generalist holds seven at
    the bare minimum and no ML at all. Missing 16 against missing 15 must not decide."""
    ml = _person(
        "Mila Learner",
        MANY,
        skills={"python": 9, "pytorch": 9, "tensorflow": 8, "scikit-learn": 9, "pandas": 9, "numpy": 9},
        contributions=RECENT,
    )
    generalist = _person(
        "Gene Ralist",
        MANY,
        skills={"docker": 5, "kubernetes": 5, "aws": 5, "git": 5, "linux": 5, "java": 5, "react": 5},
    )

    ranked = list(candidates_ranked(MANY, today=TODAY))

    assert ranked == [ml, generalist]
    assert [row.missing_count for row in ranked] == [16, 15]
    assert ranked[0].match > ranked[1].match, "the order and the percentage agree"


def test_whoever_meets_every_requirement_still_leads_however_many_there_are():
    ml = _person("Mila Learner", MANY, skills=dict.fromkeys(MANY.skills[:6], 10), contributions=RECENT)
    everything = _person("All Round", MANY, skills=dict.fromkeys(MANY.skills, 5))

    ranked = list(candidates_ranked(MANY, today=TODAY))

    assert ranked == [everything, ml]
    assert [row.misses_any for row in ranked] == [0, 1]
    assert list(candidates_ranked(MANY, strict=True, today=TODAY)) == [everything]


def test_a_related_skill_of_two_requirements_goes_with_the_closer_one_whatever_their_order():
    """gRPC goes with Go and, more closely, with Kafka: it stands in for Kafka whichever the criteria list first."""
    relate("go", "grpc", lift=3.0)
    relate("kafka", "grpc", lift=6.0)
    go_first = Criteria(required=(("go", 5), ("kafka", 5)))
    kafka_first = Criteria(required=(("kafka", 5), ("go", 5)))
    pool = [_person(f"Peer {n}", go_first, skills={"go": 3 + 2 * n, "grpc": 9 - 2 * n}) for n in range(4)]

    ranked = {
        name: list(candidates_ranked(c, widen=True, today=TODAY))
        for name, c in (("go", go_first), ("kafka", kafka_first))
    }

    assert set(ranked["go"]) == set(pool)
    assert [(row.pk, row.match) for row in ranked["go"]] == [(row.pk, row.match) for row in ranked["kafka"]]
    for criteria, rows in ((go_first, ranked["go"]), (kafka_first, ranked["kafka"])):
        candidates_explain(rows, criteria, widen=True)
        assert {item["related_to"] for row in rows for item in row.matched if "related_to" in item} == {"kafka"}
