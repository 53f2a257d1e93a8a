"""Merging the look-alike skills a curator ticks (``skill_pairs_merge``): all the pairs, or none."""

import pytest

from core.errors import ApplicationError
from profiles import skill_curation
from profiles.models import CandidateSkill, Skill, SkillAlias
from profiles.skill_pairs import skill_pairs
from tests.factories import CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db


def skill_with(slug: str, *scores: int) -> Skill:
    skill = SkillFactory(slug=slug)
    for score in scores:
        CandidateSkillFactory(skill=skill, score=score)
    return skill


def pair(source: Skill, target: Skill) -> str:
    return f"{source.pk}-{target.pk}"


def test_the_chosen_pairs_are_merged_into_their_targets():
    frob, frobjs = skill_with("frob", 6, 7, 8), skill_with("frobjs", 9)
    quux_ci, quux = skill_with("quux-ci", 5, 5), skill_with("quux", 3)
    zorb, zorbjs = skill_with("zorb", 4, 4), skill_with("zorbjs", 2)  # listed, not chosen

    merged = skill_curation.skill_pairs_merge(chosen={pair(frobjs, frob), pair(quux, quux_ci)})

    assert [(p.source.slug, p.target.slug) for p in merged.pairs] == [("frobjs", "frob"), ("quux", "quux-ci")]
    assert merged.candidates == 2
    assert not Skill.objects.filter(pk__in=[frobjs.pk, quux.pk]).exists()
    assert SkillAlias.objects.get(label="frobjs").skill == frob
    assert CandidateSkill.objects.filter(skill=quux_ci).count() == 3
    assert Skill.objects.filter(pk__in=[zorb.pk, zorbjs.pk]).count() == 2


def test_a_pair_that_would_not_be_listed_now_merges_nothing():
    frob, other = skill_with("frob", 5), skill_with("zebulon", 5)

    with pytest.raises(ApplicationError) as raised:
        skill_curation.skill_pairs_merge(chosen={pair(other, frob), "made-up"})

    assert raised.value.code == "no_pairs_chosen"
    assert Skill.objects.filter(pk__in=[frob.pk, other.pk]).count() == 2


def test_a_skill_gone_since_the_pairs_were_listed_merges_none_of_them(monkeypatch):
    frob, frobjs = skill_with("frob", 6, 7, 8), skill_with("frobjs", 9, 9)
    quux_ci, quux = skill_with("quux-ci", 5, 5), skill_with("quux", 3)
    listed, chosen = skill_pairs(), {pair(frobjs, frob), pair(quux, quux_ci)}
    CandidateSkill.objects.filter(skill=quux_ci).delete()  # by another curator, after this one's page was listed
    quux_ci.delete()
    monkeypatch.setattr(skill_curation, "skill_pairs", lambda: listed)

    with pytest.raises(ApplicationError) as raised:
        skill_curation.skill_pairs_merge(chosen=chosen)

    assert raised.value.code == "stale_pairs"
    assert Skill.objects.filter(pk__in=[frob.pk, frobjs.pk, quux.pk]).count() == 3
    assert CandidateSkill.objects.filter(skill=frob).count() == 3
    assert not SkillAlias.objects.filter(label="frobjs", skill=frob).exists()
