"""Issue 14: a curator merges a skill that imports created ("amazon-web-services") into the right one (aws)."""

import io

import pytest
from django.core.cache import cache
from django.core.management import call_command

from core.errors import ApplicationError
from profiles import services
from profiles.models import Candidate, CandidateSkill, Skill, SkillAlias
from profiles.search import skill_tokens
from profiles.services import skills_merge
from profiles.vocabulary_copy import VOCABULARY_VERSION_KEY, skill_vocabulary
from tests.factories import CandidateFactory, CandidateSkillFactory, RepositoryFactory, SkillFactory, UserFactory
from tests.fixtures import VOCAB_DIR

pytestmark = pytest.mark.django_db


@pytest.fixture
def created():
    """A skill an import made of a label the vocabulary did not know, with an alias of its own."""
    skill = SkillFactory(slug="amazon-web-services-x", name="Amazon WS X")
    SkillAlias.objects.create(label="amazon-web-services-x", skill=skill)
    SkillAlias.objects.create(label="amazon-webservices-x", skill=skill)
    return skill


def test_merging_moves_the_candidates_scores_to_the_target(created, django_capture_on_commit_callbacks):
    aws = Skill.objects.get(slug="aws")
    only_created = CandidateSkillFactory(skill=created, score=6, label="Amazon Web Services X").candidate

    with django_capture_on_commit_callbacks(execute=True):
        result = skills_merge(source=created, target=aws)

    row = CandidateSkill.objects.get(candidate=only_created)
    assert (row.skill_id, row.score, row.label) == (aws.pk, 6, "Amazon Web Services X")
    assert (result.candidates, result.both) == (1, 0)
    assert not Skill.objects.filter(pk=created.pk).exists()
    # search reads the moved score at once
    assert set(skill_tokens(aws.pk, 6)) & set(Candidate.objects.get(pk=only_created.pk).skill_tokens)


def test_a_candidate_with_both_skills_keeps_the_higher_score(created):
    aws = Skill.objects.get(slug="aws")
    higher_in_source = CandidateFactory()
    CandidateSkillFactory(candidate=higher_in_source, skill=aws, score=4, label="AWS")
    CandidateSkillFactory(candidate=higher_in_source, skill=created, score=9, label="Amazon Web Services X")
    higher_in_target = CandidateFactory()
    CandidateSkillFactory(candidate=higher_in_target, skill=aws, score=8, label="AWS")
    CandidateSkillFactory(candidate=higher_in_target, skill=created, score=2, label="Amazon Web Services X")

    result = skills_merge(source=created, target=aws)

    assert result.both == 2
    assert list(CandidateSkill.objects.filter(candidate=higher_in_source).values_list("skill", "score", "label")) == [
        (aws.pk, 9, "Amazon Web Services X")
    ]
    assert list(CandidateSkill.objects.filter(candidate=higher_in_target).values_list("skill", "score", "label")) == [
        (aws.pk, 8, "AWS")
    ]


def test_the_source_s_slug_name_and_aliases_become_aliases_of_the_target(created, django_capture_on_commit_callbacks):
    aws = Skill.objects.get(slug="aws")
    assert skill_vocabulary().slug_of("amazon-webservices-x") == "amazon-web-services-x"  # this process's copy
    version = cache.get(VOCABULARY_VERSION_KEY)

    with django_capture_on_commit_callbacks(execute=True):
        skills_merge(source=created, target=aws)

    for label in ("amazon-web-services-x", "amazon-webservices-x", "amazon-ws-x"):  # slug, alias, name
        assert SkillAlias.objects.get(label=label).skill_id == aws.pk
    assert cache.get(VOCABULARY_VERSION_KEY) != version  # every process reads the vocabulary again
    assert skill_vocabulary().slug_of("amazon-webservices-x") == "aws"


def test_repositories_topics_follow_the_merge(created):
    aws = Skill.objects.get(slug="aws")
    repository = RepositoryFactory(topics=["cloud"], topic_slugs=["amazon-web-services-x", "aws", "docker"])

    skills_merge(source=created, target=aws)

    repository.refresh_from_db()
    assert repository.topic_slugs == ["aws", "docker"]


def test_a_skill_is_not_merged_into_itself(created):
    with pytest.raises(ApplicationError):
        skills_merge(source=created, target=created)
    assert Skill.objects.filter(pk=created.pk).exists()


def test_seeding_again_corrects_an_alias_an_older_seed_gave_the_wrong_skill():
    """Defect: the Linguist entry for Jinja took "django"; a database seeded then keeps the alias unless the seed
    corrects it (an alias a curator pointed elsewhere stays)."""
    SkillAlias.objects.filter(label="django").update(skill=Skill.objects.get(slug="jinja"))
    SkillAlias.objects.filter(label="htmldjango").update(skill=SkillFactory(slug="curated-choice"))

    out = io.StringIO()
    call_command("seed_skills", vocab=VOCAB_DIR, stdout=out)

    assert SkillAlias.objects.get(label="django").skill.slug == "django"
    assert SkillAlias.objects.get(label="htmldjango").skill.slug == "curated-choice"
    assert "1 aliases that led to the wrong skill now lead to the right one" in out.getvalue()


def test_a_revert_to_a_version_that_named_the_merged_skill_restores_the_target(created):
    """History is not rewritten by a merge: the merged skill's slug is an alias of the target, and a revert finds it."""
    aws = Skill.objects.get(slug="aws")
    candidate = CandidateFactory(title="Engineer")
    CandidateSkillFactory(candidate=candidate, skill=created, score=6)
    user = UserFactory()
    services.candidate_save_by_hand(candidate=candidate, user=user)
    services.candidate_history_snapshot_skills(candidate_id=candidate.pk)
    version = candidate.history.order_by("-history_date").first()
    skills_merge(source=created, target=aws)
    CandidateSkill.objects.filter(candidate=candidate).delete()

    services.candidate_revert(candidate=version.instance, record=version, user=user)

    assert list(CandidateSkill.objects.filter(candidate=candidate).values_list("skill__slug", "score")) == [("aws", 6)]
