import pytest
from django.db import IntegrityError, transaction

from profiles.models import CandidateSkill, Contribution
from tests.factories import CandidateFactory, CandidateSkillFactory, ContributionFactory, SkillFactory

pytestmark = pytest.mark.django_db


def test_the_database_refuses_a_score_of_eleven():
    candidate, skill = CandidateFactory(), SkillFactory()
    # bulk_create skips model validation: only the CheckConstraint in PostgreSQL stands in the way.
    with pytest.raises(IntegrityError, match="candidateskill_score_0_10"), transaction.atomic():
        CandidateSkill.objects.bulk_create([CandidateSkill(candidate=candidate, skill=skill, score=11, label="x")])
    assert not CandidateSkill.objects.filter(candidate=candidate).exists()


def test_scores_zero_and_ten_are_accepted():
    candidate = CandidateFactory()
    CandidateSkillFactory(candidate=candidate, score=0)
    CandidateSkillFactory(candidate=candidate, score=10)
    assert sorted(candidate.skills.values_list("score", flat=True)) == [0, 10]


def test_the_database_refuses_one_skill_twice_for_a_candidate():
    existing = CandidateSkillFactory(score=5)
    with pytest.raises(IntegrityError, match="candidateskill_unique_candidate_skill"), transaction.atomic():
        CandidateSkill.objects.create(candidate=existing.candidate, skill=existing.skill, score=9, label="other")
    assert existing.candidate.skills.get().score == 5


def test_the_database_refuses_a_second_contribution_to_one_repository():
    contribution = ContributionFactory()
    with pytest.raises(IntegrityError, match="contribution_unique_candidate_repo"), transaction.atomic():
        Contribution.objects.create(candidate=contribution.candidate, repository=contribution.repository)


def test_a_repository_name_must_be_owner_slash_name():
    from profiles.models import Repository

    with pytest.raises(IntegrityError, match="repository_owner_name"), transaction.atomic():
        Repository.objects.create(full_name="not a repository")


def test_a_contribution_cannot_end_before_it_starts():
    import datetime as dt

    with pytest.raises(IntegrityError, match="contribution_end_after_start"), transaction.atomic():
        ContributionFactory(start=dt.date(2022, 5, 1), end=dt.date(2020, 1, 1))


def test_the_fluency_choices_are_core_languages_scale_in_its_order():
    from core.languages import FLUENCY_LEVELS
    from profiles.models import SpokenLanguage

    assert tuple(SpokenLanguage.Fluency.values) == FLUENCY_LEVELS
