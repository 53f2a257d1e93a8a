"""Skills that look like one technology, each paired with the skill it should become."""

import pytest

from profiles.models import Skill
from profiles.skill_pairs import skill_pairs, technology_key
from tests.factories import CandidateSkillFactory, SkillFactory


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("grunt", "gruntjs"),
        ("travis", "travis-ci"),
        ("reduxtoolkit", "redux-toolkit"),
        ("vue", "vuejs"),
        ("vue", "vue-js"),
        ("node", "node-js"),
        ("Vue.js", "vue"),
        ("d3", "d3js"),
    ],
)
def test_spellings_of_one_technology_have_one_key(one, other):
    assert technology_key(one) == technology_key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("e", "ejs"),  # a language and a template engine: too little is left without "js"
        ("c", "c++"),
        ("c", "c#"),
        ("circle", "circleci"),  # "ci" counts only as a suffix of its own
        ("java", "javascript"),
        ("js", ""),
    ],
)
def test_different_technologies_keep_different_keys(one, other):
    assert technology_key(one) != technology_key(other)


def with_candidates(slug: str, n: int) -> Skill:
    skill = SkillFactory(slug=slug)
    for _ in range(n):
        CandidateSkillFactory(skill=skill)
    return skill


def pairs_among(slugs: set[str], **kwargs) -> list[tuple[str, int, str, int]]:
    """The pairs whose two skills are among ``slugs`` (the test database also holds the seeded vocabulary)."""
    return [
        (p.source.slug, p.source.candidates, p.target.slug, p.target.candidates)
        for p in skill_pairs(**kwargs)
        if {p.source.slug, p.target.slug} <= slugs
    ]


@pytest.mark.django_db
def test_each_pair_merges_into_the_skill_more_candidates_have():
    with_candidates("frobjs", 1)
    with_candidates("frob", 3)
    with_candidates("quux-ci", 2)
    with_candidates("quux", 0)
    with_candidates("unrelated", 5)

    found = pairs_among({"frobjs", "frob", "quux-ci", "quux", "unrelated"}, preferred_slugs=frozenset())

    assert found == [("frobjs", 1, "frob", 3), ("quux", 0, "quux-ci", 2)]


@pytest.mark.django_db
def test_the_vocabularys_spelling_is_kept_even_with_fewer_candidates():
    with_candidates("zorb-js", 4)
    with_candidates("zorb", 1)

    found = pairs_among({"zorb-js", "zorb"}, preferred_slugs=frozenset({"zorb"}))

    assert found == [("zorb-js", 4, "zorb", 1)]


@pytest.mark.django_db
def test_three_spellings_make_two_pairs_into_one_skill():
    with_candidates("blip", 5)
    with_candidates("blipjs", 2)
    with_candidates("blip-js", 1)

    found = pairs_among({"blip", "blipjs", "blip-js"}, preferred_slugs=frozenset())

    assert found == [("blipjs", 2, "blip", 5), ("blip-js", 1, "blip", 5)]


@pytest.mark.django_db
def test_a_shipped_skill_and_an_imported_twin_pair_into_the_shipped_one():
    shipped = Skill.objects.get(slug="vue")
    with_candidates("vue-framework-js", 0)  # no twin of vue: another key
    twin = with_candidates("vue-js-", 2)  # an import's odd slug, before an alias knew it

    found = [(p.source.slug, p.target.slug) for p in skill_pairs() if p.target.id == shipped.pk]

    assert found == [(twin.slug, "vue")]


@pytest.mark.django_db
def test_it_reads_the_skills_in_two_queries(django_assert_num_queries):
    for n in range(20):
        with_candidates(f"gadget{n}", 1)
        with_candidates(f"gadget{n}-js", 2)

    with django_assert_num_queries(2):
        found = skill_pairs(preferred_slugs=frozenset())

    assert {(p.source.slug, p.target.slug) for p in found} >= {(f"gadget{n}", f"gadget{n}-js") for n in range(20)}


@pytest.mark.django_db
def test_a_freshly_migrated_database_has_no_look_alikes():
    # The shipped vocabulary keeps apart what it spells twice (gitlab and gitlab-ci, fabric and fabricjs).
    assert [(p.source.slug, p.target.slug) for p in skill_pairs()] == []


@pytest.mark.django_db
def test_two_vocabulary_skills_are_never_paired_nor_is_a_third_spelling_beside_them():
    with_candidates("plonk", 3)
    with_candidates("plonk-ci", 2)
    with_candidates("plonkjs", 1)  # into plonk or plonk-ci: the vocabulary does not say
    with_candidates("grunt-thing", 0)
    with_candidates("gruntthingjs", 4)

    found = pairs_among(
        {"plonk", "plonk-ci", "plonkjs", "grunt-thing", "gruntthingjs"},
        preferred_slugs=frozenset({"plonk", "plonk-ci", "grunt-thing"}),
    )

    assert found == [("gruntthingjs", 4, "grunt-thing", 0)]
