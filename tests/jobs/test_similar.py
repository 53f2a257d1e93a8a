"""More like this (``jobs.ranking.similar_candidates``) and a stored job's matches (``jobs.selectors.job_criteria``
ranked by ``jobs.ranking.ranked_page``): criteria read from the database, ranked as a description's are."""

import datetime as dt

import pytest

from jobs import services
from jobs.criteria import Criteria
from jobs.ranking import RankOptions, candidates_ranked, ranked_page, similar_candidates, similar_criteria
from jobs.selectors import job_criteria, job_for
from profiles.models import Candidate
from tests.factories import ContributionFactory, RepositoryFactory, SkillFactory, UserFactory
from tests.jobs.stored import DESCRIPTION
from tests.jobs.test_ranking import OLD, RECENT, TODAY, _person

pytestmark = pytest.mark.django_db

# The candidate others are compared with: a platform engineer (Go, Kubernetes, Terraform at the top).
SOURCE_SKILLS = {
    "go": 10, "kubernetes": 9, "terraform": 9, "postgresql": 8, "docker": 7, "grpc": 6, "prometheus": 6,
    "helm": 5, "bash": 4, "php": 0,
}  # fmt: skip


def _source():
    criteria = Criteria(preferred=tuple(SOURCE_SKILLS))
    source = _person("Sam Source", criteria, skills=SOURCE_SKILLS)
    for full_name, topics, commits, end in (
        ("sam/operator", ["kubernetes", "go", "operators"], 400, None),
        ("sam/infra", ["terraform", "aws", "infrastructure-as-code"], 150, None),
        ("sam/legacy", ["perl", "cgi"], 900, dt.date(2012, 1, 1)),  # heavy but old: weighs less than the recent work
    ):
        ContributionFactory(
            candidate=source,
            repository=RepositoryFactory(full_name=full_name, topic_slugs=topics),
            commits=commits,
            active_months=10,
            start=dt.date(2010, 1, 1),
            end=end,
            is_current=end is None,
        )
    return source


def test_the_strongest_skills_are_required_near_their_scores_and_topics_add_skills_or_keywords():
    SkillFactory(slug="aws")  # a topic that is a skill Sam does not list: preferred
    source = _source()

    criteria = similar_criteria(candidate_id=source.pk, today=TODAY)

    assert criteria.required == (("go", 8), ("kubernetes", 7), ("terraform", 7)), "score minus 2, ties by slug"
    assert criteria.preferred == ("postgresql", "docker", "grpc", "prometheus", "helm", "aws")
    assert not {"php", "bash"} & set(criteria.skills), "a 0, and past the eight strongest"
    assert criteria.keywords == ("operators",), "kubernetes and go are skills already; perl and cgi weigh less"
    assert (criteria.min_years_coding, criteria.countries, criteria.remote, criteria.excluded) == (None, (), None, ())


def test_a_missing_candidate_raises_does_not_exist():
    with pytest.raises(Candidate.DoesNotExist):
        similar_criteria(candidate_id=987_654)
    with pytest.raises(Candidate.DoesNotExist):
        similar_candidates(candidate_id=987_654, user=None)


def test_a_candidate_without_skills_has_no_peers():
    loner = _person("No Skills", Criteria(), skills={})
    _person("Someone", Criteria(required=(("go", 5),)))

    criteria, rows = similar_candidates(candidate_id=loner.pk, user=None)

    assert (criteria.skills, rows) == ((), [])


def test_the_ideal_peer_comes_first_every_decoy_below_and_the_candidate_is_left_out():
    source = _source()
    criteria = similar_criteria(candidate_id=source.pk)
    peer_skills = {slug: score for slug, score in SOURCE_SKILLS.items() if score}
    ideal = _person("Ideal Peer", criteria, skills=peer_skills, summary="kubernetes operators", contributions=RECENT)
    decoys = {
        "buzzwords": _person(
            "Buzz Words", criteria, skills={"go": 3}, summary="go kubernetes terraform operators " * 5
        ),
        "low scores": _person("Low Scores", criteria, score=3, summary="operators", contributions=RECENT),
        "old work": _person("Old Work", criteria, skills=peer_skills, summary="operators", contributions=OLD),
        "one skill": _person("Go Only", criteria, skills={"go": 10}, contributions=RECENT),
    }
    _person("Elsewhere", Criteria(required=(("cobol", 5),)), contributions=RECENT)

    found, rows = similar_candidates(candidate_id=source.pk, user=None)

    assert found == criteria
    assert rows[0] == ideal
    assert source not in rows
    assert len(rows) == 1 + len(decoys), "the candidate without any of the skills is not ranked"
    for why, decoy in decoys.items():
        row = rows[rows.index(decoy)]
        assert row.match < rows[0].match or row.missing_count > 0, why
    # The rows are explained as the API serializes them.
    assert rows[0].missing == []
    assert rows[0].matched[0] == {"skill": "go", "score": 10, "required": True}
    assert rows[0].evidence[0]["repository"] == "ideal/work0"
    assert rows[rows.index(decoys["one skill"])].missing == ["kubernetes", "terraform"]


def test_limit_caps_the_rows_and_keeps_the_ranking_order():
    source = _source()
    criteria = similar_criteria(candidate_id=source.pk)
    for n in range(5):
        _person(f"Peer {n}", criteria, skills={"go": 5 + n, "kubernetes": 9, "terraform": 9})

    _, rows = similar_candidates(candidate_id=source.pk, user=None, limit=3)

    everyone = list(candidates_ranked(criteria, queryset=Candidate.objects.exclude(pk=source.pk)))
    assert rows == everyone[:3]
    assert [row.name for row in rows] == ["Peer 4", "Peer 3", "Peer 2"]


def test_a_job_ranks_by_its_stored_criteria_with_filters_and_strict(skills):
    criteria = Criteria(required=(("go", 5), ("postgresql", 5), ("kafka", 5)), preferred=("rust",))
    owner = UserFactory(username="owner")
    job = job_for(user=owner, job_id=services.job_create(user=owner, title="Go", description=DESCRIPTION).job.pk)
    ideal = _person("Ideal Person", criteria, country="DE", contributions=RECENT)
    no_kafka = _person("No Kafka", criteria, country="DE", skills={"go": 10, "postgresql": 10, "rust": 10})
    french = _person("In France", criteria, country="FR", contributions=RECENT)

    stored = job_criteria(job)

    def ranked(params=None, **switches):
        switches.setdefault("anywhere", True)  # the job is in Germany (its description's place): every country here
        page = ranked_page(stored, options=RankOptions(**switches), take=list, params=params, user=owner, today=TODAY)
        return [row.pk for row in page]

    assert stored.required == criteria.required
    assert stored.countries == ("DE",)
    assert ranked(anywhere=False) == [ideal.pk, no_kafka.pk]
    assert ranked() == [ideal.pk, french.pk, no_kafka.pk]
    assert ranked(strict=True) == [ideal.pk, french.pk]
    assert ranked({"country": "FR"}) == [french.pk]
