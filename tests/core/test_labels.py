"""The label key every layer agrees on."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import labels
from core.labels import MAX_CACHED_LABEL_CHARS, _without_version, first_known, label_key, label_variants


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Machine Learning", "machine-learning"),
        ("  C++ ", "c++"),
        ("deep-learning", "deep-learning"),
        ("A \t B", "a-b"),
    ],
)
def test_label_key(label, key):
    assert label_key(label) == key


# Issue 14, "skill vocabulary that maps right": the forms of one skill's name that a lookup tries after the exact key.
@pytest.mark.parametrize(
    ("label", "equivalent"),
    [
        ("Vue 3", "vue"),  # a trailing version
        ("Angular 2+", "angular"),
        ("Python 3.12", "python"),
        ("Python 2", "python"),
        ("Java 8.x", "java"),
        ("Angular v17", "angular"),
        ("Python3.12", "python"),  # a glued version with a dot is a version too
        ("C++11", "c++"),  # a number glued after a symbol is a version
        ("C++ 17", "c++"),
        ("Python (langage de programmation)", "python"),  # a parenthetical qualifier
        ("express.js", "expressjs"),  # .js / js / -js suffixes: the glued form, then the bare name
        ("express.js", "express"),
        ("ExpressJs", "express"),
        ("express-js", "express"),
        ("Vue.js 3", "vue"),
        ("D3js", "d3"),
        ("Research & Development", "research-and-development"),  # & and "and"
        ("Research and Development", "research-&-development"),
    ],
)
def test_label_variants_reach_the_name_without_its_decorations(label, equivalent):
    variants = label_variants(label_key(label))
    assert variants[0] == label_key(label)  # the exact key first: a known label is never reinterpreted
    assert equivalent in variants


@pytest.mark.parametrize(
    ("label", "not_equivalent"),
    [
        ("Web3", "web"),  # a number glued to letters is part of the name
        ("S3", "s"),
        ("ES6", "es"),
        ("HTML5", "html"),  # (a curated alias maps it, not this rule)
        ("Python3", "python"),
        ("DJs", "d"),  # a one-letter stem is not a name with a js suffix
        ("3", ""),
        ("Node.js", "node.js-"),
    ],
)
def test_label_variants_keep_numbers_that_are_part_of_the_name(label, not_equivalent):
    assert not_equivalent not in label_variants(label_key(label))


def test_label_variants_of_a_plain_label_are_the_label_alone():
    assert label_variants("kubernetes") == ("kubernetes",)
    assert label_variants("") == ()


# The version rule as three patterns, the way it was first written: clear, and quadratic in the key's length (each
# tried every split of the key). The one-pass rule must read every key as they do.
_VERSION_PATTERNS = (
    re.compile(r"^(?P<stem>.*?[a-z].*?)[-_]v?\d+(?:\.\d+)*(?:\.x|\+)?$"),
    re.compile(r"^(?P<stem>.*?[a-z])\d+(?:\.\d+)+(?:\.x|\+)?$"),
    re.compile(r"^(?P<stem>.*?[a-z].*?[+#])\d+(?:\.\d+)*$"),
)


def _without_version_by_patterns(key: str) -> str:
    for pattern in _VERSION_PATTERNS:
        if match := pattern.match(key):
            return match["stem"]
    return key


@settings(max_examples=3000, derandomize=True, deadline=None)
@given(st.text(alphabet="ab1290-_.+#vx", max_size=14))
def test_the_version_rule_reads_every_key_as_the_patterns_it_replaced(key):
    assert _without_version(key) == _without_version_by_patterns(key)


def test_long_labels_get_the_same_key_and_variants_and_stay_out_of_the_caches():
    """A file of huge labels must not fill a worker's memory through the caches."""
    label = "Vue " + "x" * MAX_CACHED_LABEL_CHARS + " 3"
    cached = (labels._cached_label_key.cache_info().currsize, labels._cached_label_variants.cache_info().currsize)

    key = label_key(label)
    variants = label_variants(key)

    assert key == "vue-" + "x" * MAX_CACHED_LABEL_CHARS + "-3"
    assert variants == (key, key.removesuffix("-3"))
    assert (labels._cached_label_key.cache_info().currsize, labels._cached_label_variants.cache_info().currsize) == (
        cached
    )


KNOWN = {"vue": "vue", "angular": "angular", "express": "express", "node.js": "nodejs", "html-and-css": "html-css"}


@pytest.mark.parametrize(
    ("key", "slug"),
    [
        ("vue", "vue"),  # as written
        ("vue-3", "vue"),  # a version
        ("angular-2+", "angular"),
        ("expressjs", "express"),  # a JavaScript library's suffix
        ("node.js", "nodejs"),  # known as written: never reinterpreted
        ("html-&-css", "html-css"),  # "&" and "and"
        ("vue3", None),  # a number glued to letters is part of the name
        ("svelte", None),
        ("", None),
    ],
)
def test_first_known_is_the_key_as_written_else_its_first_known_equivalent_form(key, slug):
    assert first_known(KNOWN, key) == slug
