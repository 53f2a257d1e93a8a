"""The skill resolver's misspelling rule (a slip of one letter, never another name made longer), a phrase with a
short known name in it, and programming languages named like a spoken language."""

import pytest

from profiles.skill_resolver import Resolved, SkillResolver
from profiles.skills_reresolve import seeded_labels
from profiles.vocabulary import CURATED_LABELS

# The curated table without Preact and Polars (the rule must tell them from React and Polar without their help), and
# the shorter names the longer ones below are not.
VOCABULARY = {
    **{label: slug for label, slug in CURATED_LABELS.items() if slug not in {"preact", "polars"}},
    "polar": "polar",
    "kit": "kit",
    "microservices": "microservices",
    "widgets": "widgets",
}


@pytest.fixture(scope="module")
def resolver():
    return SkillResolver(VOCABULARY)


@pytest.mark.parametrize(
    ("label", "slug"),
    [
        ("Svelt", "svelte"),  # the last letter left off
        ("Kuberentes", "kubernetes"),  # two letters swapped
        ("Pyhton", "python"),  # two letters swapped
        ("Postgress", "postgresql"),  # the last letter doubled (postgres is postgresql's alias)
        ("Kubernetis", "kubernetes"),  # one letter changed
        ("Terrafrom", "terraform"),  # two letters swapped
        ("Elasticsarch", "elasticsearch"),  # a letter left out inside a long name
    ],
)
def test_a_slip_of_one_letter_is_read_as_the_skill(resolver, label, slug):
    result = resolver.resolve(label)

    assert (result.how, result.slugs) == (Resolved.TYPO, (slug,))
    assert result.warning == f"“{label}” looks like a misspelling of the skill {slug}; it was read as {slug}."


@pytest.mark.parametrize("label", ["Preact", "Polars", "Scalar", "Terraformer", "Reacts", "Xreact", "Svelteer"])
def test_a_known_name_with_letters_added_at_either_end_is_another_technology(resolver, label):
    result = resolver.resolve(label)

    assert (result.how, result.slugs) == (Resolved.NEW, ())


@pytest.mark.parametrize("label", ["Scalar", "Terraformer", "Reacts", "Xreact"])
def test_a_known_name_with_letters_added_or_changed_at_an_end_is_not_read_in_the_whole_vocabulary(label):
    result = SkillResolver(seeded_labels()).resolve(label)

    assert (result.how, result.slugs) == (Resolved.NEW, ())


def test_preact_and_polars_are_known_skills_of_their_own():
    resolver = SkillResolver(seeded_labels())

    assert resolver.resolve("Preact").slugs == ("preact",)
    assert resolver.resolve("Polars").slugs == ("polars",)
    assert resolver.resolve("Preact").how is Resolved.ALIAS


@pytest.mark.parametrize("label", ["Go kit", "Go microservices", "Qt widgets", "R kit"])
def test_a_phrase_with_a_short_known_name_in_it_is_not_read_as_its_other_word(resolver, label):
    result = resolver.resolve(label)

    assert (result.how, result.slugs) == (Resolved.NEW, ())


def test_a_phrase_without_a_short_known_name_still_names_its_skill(resolver):
    assert resolver.resolve("Usage with Docker").slugs == ("docker",)


def test_a_programming_language_named_like_a_spoken_language_is_a_skill():
    result = SkillResolver(seeded_labels()).resolve("Logo")

    assert (result.how, result.slugs) == (Resolved.ALIAS, ("logo",))
    assert not result.not_technology


def test_a_spoken_language_is_still_no_technology():
    assert SkillResolver(seeded_labels()).resolve("Inglés").not_technology
