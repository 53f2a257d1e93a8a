"""Splitting glued GitHub topic lines."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.topics import _words_in, split_topics

# The reference document's own skill labels and repository-name words: the vocabulary the parser adds by itself.
OWN_LABELS = frozenset(
    {
        "c-language", "dataflow", "operation", "machine-learning", "analyse", "compiler-design", "tensorflow", "hla",
        "xla", "cprogramming-language", "data-analysis", "python", "deep-learning", "optimization", "compiler",
        "openxla",
    }
)  # fmt: skip


REFERENCE_TOPICS = [
    (
        "compilercommunity-drivenmachine-learningmodular",
        ["compiler", "community-driven", "machine-learning", "modular"],
    ),
    (
        "pythondata-sciencedeep-learningmlmachine-learning",
        ["python", "data-science", "deep-learning", "ml", "machine-learning"],
    ),
]


# The fixture profile's lines (tests/fixtures/progai/ingrid-valtonen.txt) and its own labels.
FIXTURE_TOPICS = [
    ("rustquery-enginecompilersql", ["rust", "query-engine", "compiler", "sql"]),
    (
        "columnar-storagepythonfile-formatdatabases",
        ["columnar-storage", "python", "file-format", "databases"],
    ),
]
FIXTURE_LABELS = frozenset(
    {
        "c-language", "query-optimization", "compiler-design", "databases", "analyse", "cprogramming-language",
        "rust", "llvm", "python", "sql", "code-generation", "compiler", "kestrel-db", "kestrel",
    }
)  # fmt: skip


@pytest.mark.parametrize(("raw", "topics"), REFERENCE_TOPICS)
def test_reference_topics_with_only_the_documents_own_labels(raw, topics):
    assert split_topics(raw, OWN_LABELS) == topics


@pytest.mark.parametrize(("raw", "topics"), FIXTURE_TOPICS)
def test_fixture_topics_with_only_the_documents_own_labels_or_the_full_vocabulary(full_vocabulary, raw, topics):
    assert split_topics(raw, FIXTURE_LABELS) == topics
    assert split_topics(raw, full_vocabulary | FIXTURE_LABELS) == topics


@pytest.mark.parametrize(("raw", "topics"), REFERENCE_TOPICS)
def test_reference_topics_with_the_full_vocabulary(full_vocabulary, raw, topics):
    assert {"unity", "c", "d", "r"} <= full_vocabulary  # the traps are really in the vocabulary
    assert split_topics(raw, full_vocabulary | OWN_LABELS) == topics
    assert split_topics(raw, full_vocabulary) == topics


@pytest.mark.parametrize(
    ("raw", "vocabulary", "topics"),
    [
        ("reactvuejavascript", {"react", "vue", "javascript"}, ["react", "vue", "javascript"]),
        ("awesome-listpython", {"python"}, ["awesome-list", "python"]),
        ("compilercommunity-driven", {"compiler", "unity", "c"}, ["compiler", "community-driven"]),
        ("mlops", {"ml"}, ["mlops"]),
        ("gomachine-learning", {"go", "machine-learning"}, ["go", "machine-learning"]),
        ("dockerself-hostedkubernetes", {"docker", "kubernetes", "host"}, ["docker", "self-hosted", "kubernetes"]),
        ("foo-bar", set(), ["foo-bar"]),
        ("-python-", {"python"}, ["python"]),
        ("pythonpython", {"python"}, ["python"]),
        ("python docker", {"python", "docker"}, ["python", "docker"]),
        ("", {"python"}, []),
        ("bootloader", {"boo"}, ["bootloader"]),  # a short known word is not carved off an unknown one
        ("jvm", {"j", "v", "m"}, ["jvm"]),
        ("awesome-lists", {"awesome-list"}, ["awesome-lists"]),  # no one-letter stub
        ("eslint", {"e"}, ["eslint"]),
        ("laravel54docker", {"laravel", "docker"}, ["laravel54", "docker"]),  # no topic starts inside a number
        ("data-sciencemlai", {"data-science", "ml", "ai"}, ["data-science", "ml", "ai"]),  # short known neighbours
        ("kernelcompilerperformance", {"compiler"}, ["kernel", "compiler", "performance"]),
        ("pytorchcomputer-vision", {"computer-vision"}, ["pytorch", "computer-vision"]),
        ("webhtml", {"html"}, ["web", "html"]),
    ],
)
def test_split_topics_cases(raw, vocabulary, topics):
    assert split_topics(raw, frozenset(vocabulary)) == topics


def test_no_topic_starts_or_ends_with_a_hyphen():
    for topic in split_topics("a-b-c-d-pythonx-y-z-", frozenset({"python", "b", "c-d"})):
        assert not topic.startswith("-")
        assert not topic.endswith("-")


# --- Issue 14: unknown stretches cut into English words, and known words carved off a word put back ---------------


def test_a_stretch_no_vocabulary_knows_is_cut_into_words():
    """Issue 14: in ``servicemeshobservability`` only ``observability`` is known; ``servicemesh`` stayed whole."""
    assert split_topics("servicemeshobservability", frozenset({"observability"})) == [
        "service",
        "mesh",
        "observability",
    ]


def test_data_engineering_is_not_cut_into_data_enginee_and_ring():
    """Issue 14: with the full vocabulary (Linguist's "Ring" in it) ``data-engineeringdatabases`` came out as
    ``data-enginee`` + ``ring`` + ``databases``."""
    assert split_topics("data-engineeringdatabases", frozenset({"ring", "databases"})) == [
        "data-engineering",
        "databases",
    ]


def test_data_engineering_with_the_full_vocabulary(full_vocabulary):
    assert split_topics("data-engineeringdatabases", full_vocabulary | {"ring"}) == ["data-engineering", "databases"]


@pytest.mark.parametrize(
    ("raw", "vocabulary", "topics"),
    [
        ("community", {"unity"}, ["community"]),  # "comm" + "unity" spell one word
        ("servicemeshdata-engineering", set(), ["service", "mesh", "data-engineering"]),  # a hyphen binds
        ("kubeflowpipelines", set(), ["kubeflowpipelines"]),  # "kube" is no word: whole
        ("blockchainethereum", set(), ["blockchainethereum"]),  # "chaine", "um"
        ("graphqlpython", {"python"}, ["graphql", "python"]),  # "ql" is too short to be a word
        ("devopspython", {"python"}, ["devops", "python"]),  # "dev" + "ops": abbreviations, not words
        ("realtimepython", {"python"}, ["realtime", "python"]),  # a compound the web writes glued stays
        ("machinelearningpython", {"python"}, ["machine", "learning", "python"]),
        ("community-drivenmodular", set(), ["community-driven", "modular"]),
    ],
)
def test_unknown_stretches_split_only_into_real_words(raw, vocabulary, topics):
    assert split_topics(raw, frozenset(vocabulary)) == topics


@settings(max_examples=500, derandomize=True, deadline=None)
@given(
    st.text(alphabet="abc-", max_size=30), st.frozensets(st.text(alphabet="abc-", min_size=1, max_size=6), max_size=200)
)
def test_the_words_found_in_a_line_are_those_it_holds_whichever_way_they_are_looked_for(line, words):
    assert _words_in(line, words) == {word for word in words if word in line}
