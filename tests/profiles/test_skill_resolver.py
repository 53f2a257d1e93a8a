"""The skill resolver: each rule on a small vocabulary, and sanity with a vocabulary of common-word topics."""

import pytest

from core.labels import label_key
from profiles.skill_resolver import Resolved, SkillResolver, resolver_for
from profiles.vocabulary import CURATED_LABELS, SkillVocabulary

# The curated table, and the few labels a larger vocabulary has that the examples need.
VOCABULARY = {
    **CURATED_LABELS,
    "es6": "es6",
    "dagger": "dagger",
    "travis-ci": "travis-ci",
    "gruntjs": "gruntjs",
    "redux-toolkit": "redux-toolkit",
    "cakephp": "cakephp",
    "codeigniter": "codeigniter",
}


@pytest.fixture(scope="module")
def resolver():
    return SkillResolver(VOCABULARY)


@pytest.mark.parametrize(
    ("label", "slugs", "how"),
    [
        ("Docker", ("docker",), Resolved.ALIAS),
        ("C++", ("cpp",), Resolved.ALIAS),
        ("Laravel 5.*", ("laravel",), Resolved.STRIPPED),
        ("Bootstrap 3 & 4-alpha", ("bootstrap",), Resolved.STRIPPED),
        ("Python (advanced)", ("python",), Resolved.STRIPPED),
        ("Vue 3", ("vue",), Resolved.STRIPPED),
        ("grunt", ("gruntjs",), Resolved.NEAR),
        ("travis", ("travis-ci",), Resolved.NEAR),
        ("reduxtoolkit", ("redux-toolkit",), Resolved.NEAR),
        ("Redux-Toolkit", ("redux-toolkit",), Resolved.ALIAS),
        ("ES6/ES7", ("es6",), Resolved.JOINED),
        ("Dagger/Dagger2", ("dagger",), Resolved.JOINED),
        ("HTML & CSS", ("html", "css"), Resolved.JOINED),
        ("Usage with Docker", ("docker",), Resolved.PHRASE),
        ("Docker image design", ("docker",), Resolved.PHRASE),
        ("Pytest plugin creation", ("pytest",), Resolved.PHRASE),
        ("PHP MVC (Custom, Cake, CodeIgniter, etc)", ("php",), Resolved.PHRASE),
        ("Continuous integration and continuous delivery (CI/CD)", ("ci-cd",), Resolved.STRIPPED),
        ("Svelt", ("svelte",), Resolved.TYPO),
    ],
)
def test_a_label_resolves_to_the_known_skills_it_names(resolver, label, slugs, how):
    result = resolver.resolve(label)

    assert (result.slugs, result.how) == (slugs, how)
    assert result.label == label


@pytest.mark.parametrize(
    "label",
    ["Teamwork", "Communication", "Trabajo en equipo", "Comunicación", "Liderazgo", "Builder", "Observer",
     "Photography", "Inglés", "English"],
)  # fmt: skip
def test_a_label_that_is_no_technology_names_no_skill_and_says_so(resolver, label):
    result = resolver.resolve(label)

    assert result.not_technology
    assert result.slugs == ()
    assert label in result.warning


def test_a_misspelling_is_read_as_the_skill_with_a_warning(resolver):
    result = resolver.resolve("Svelt")

    assert result.warning == "“Svelt” looks like a misspelling of the skill svelte; it was read as svelte."


@pytest.mark.parametrize("label", ["Rect", "Jav", "Zorblax framework design", "Quantum basket weaving"])
def test_an_unknown_label_is_new_and_short_names_are_never_guessed(resolver, label):
    result = resolver.resolve(label)

    assert (result.how, result.slugs) == (Resolved.NEW, ())


def test_a_phrase_naming_two_skills_among_other_words_is_no_skill(resolver):
    assert resolver.resolve("Migrating Django apps to Kubernetes clusters").how is Resolved.NEW


def test_common_word_topics_of_a_large_vocabulary_do_not_count_inside_a_phrase():
    topics = {word: word for word in ("image", "design", "usage", "plugin", "creation", "mvc", "custom", "with")}
    resolver = SkillResolver({**VOCABULARY, **topics})

    assert resolver.resolve("Docker image design").slugs == ("docker",)
    assert resolver.resolve("Pytest plugin creation").slugs == ("pytest",)
    assert resolver.resolve("PHP MVC (Custom, Cake, CodeIgniter, etc)").slugs == ("php",)
    assert resolver.resolve("Design").slugs == ("design",)  # as written, a known label is still that label


def test_processing_inside_a_phrase_is_the_word_not_the_language():
    """Stream, image or signal processing is work, not the Processing language (a Linguist language): a topic such as
    stream-processing made the similar candidates of a data engineer ask for Processing."""
    resolver = SkillResolver({**VOCABULARY, "processing": "processing", "kafka": "kafka"})

    assert resolver.resolve("stream-processing").slugs == ()
    assert resolver.resolve("Stream processing with Kafka").slugs == ("kafka",)
    assert resolver.resolve("Processing").slugs == ("processing",)  # the language, named as written


def test_a_shorter_label_inside_a_longer_known_one_counts_for_nothing():
    resolver = SkillResolver({"continuous-integration": "continuous-integration", "integration": "integration"})

    assert resolver.resolve("Continuous integration pipelines").slugs == ("continuous-integration",)


def test_a_typo_close_to_two_skills_is_not_guessed():
    resolver = SkillResolver({"reacts": "reacts", "reactx": "reactx"})

    assert resolver.resolve("reactz").how is Resolved.NEW


def test_the_resolver_is_built_once_per_vocabulary_copy():
    vocabulary = SkillVocabulary(slugs={"docker": "docker"})

    assert resolver_for(vocabulary) is resolver_for(vocabulary)
    assert resolver_for(SkillVocabulary(slugs={"docker": "docker"})) is not resolver_for(vocabulary)


# Labels of every rule: exact, stripped, near-identical, joined, a phrase, a misspelling, no technology, new.
_LABELS = (
    "Docker", "Laravel 5.*", "reduxtoolkit", "ES6/ES7", "Usage with Docker", "Svelt", "Teamwork", "Espanol",
    "Foobar", "foo-bar", "Foobarjs", "Usage with Foobar", "Foobr", "Kubernetes", "Redux Toolkit",
)  # fmt: skip


def test_a_resolver_extended_with_new_labels_answers_as_one_built_anew():
    """A vocabulary read again with skills added extends the resolver kept (``SkillResolver.extended``): every label,
    those it had answered before included, resolves as a resolver built on the larger vocabulary does."""
    before = {**VOCABULARY}
    after = {**before, "foobar": "foobar", "redux-toolkit": "redux-toolkit", "kubernetes": "kubernetes"}
    kept = SkillResolver(before)
    answered = [kept.resolve(label) for label in _LABELS]
    [kept.slug_of(label_key(label)) for label in _LABELS]

    extended = kept.extended(after)

    fresh = SkillResolver(after)
    assert extended is not None
    assert [extended.resolve(label) for label in _LABELS] == [fresh.resolve(label) for label in _LABELS]
    assert [extended.slug_of(label_key(label)) for label in _LABELS] == [
        fresh.slug_of(label_key(label)) for label in _LABELS
    ]
    assert [kept.resolve(label) for label in _LABELS] == answered  # the one kept is left as it was


def test_a_resolver_is_built_anew_when_a_label_leads_elsewhere():
    kept = SkillResolver({**VOCABULARY, "foobar": "foobar"})

    assert kept.extended({**VOCABULARY, "foobar": "docker"}) is None  # a merge
    assert kept.extended(dict(VOCABULARY)) is None  # a label gone


def test_a_vocabulary_read_again_with_more_skills_extends_the_kept_resolver():
    first = SkillVocabulary(slugs={**VOCABULARY})
    resolver_for(first).resolve("Foobar")
    again = SkillVocabulary(slugs={**VOCABULARY, "foobar": "foobar"})

    assert resolver_for(again).resolve("Foobar").slugs == ("foobar",)
    assert resolver_for(first).resolve("Foobar").slugs == ()
