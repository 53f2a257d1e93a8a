"""Pure helpers of ingestion.normalise and ingestion.vocabulary. No database."""

import pytest

from core.countries import country_code, country_name
from core.dates import months_from_duration, parse_month
from core.labels import label_key
from core.text import clean_paragraphs, clean_text
from core.topics import split_topics
from ingestion.vocabulary import vocabulary_from_files
from tests.fixtures import CORPUS_DIR, VOCAB_DIR

# The reference document's own skill labels and repository-name words: the vocabulary the parser adds by itself.
OWN_LABELS = frozenset(
    {
        "c-language", "dataflow", "operation", "machine-learning", "analyse", "compiler-design", "tensorflow", "hla",
        "xla", "cprogramming-language", "data-analysis", "python", "deep-learning", "optimization", "compiler",
        "openxla",
    }
)  # fmt: skip


@pytest.fixture(
    scope="module",
    params=[VOCAB_DIR, pytest.param(CORPUS_DIR / "vocab", marks=pytest.mark.corpus)],
    ids=["fixture-vocabulary", "corpus-vocabulary"],
)
def full_vocabulary(request) -> frozenset[str]:
    """A GitHub/Linguist vocabulary: the tests' small one (tests/fixtures/vocab), and the corpus's whole one."""
    vocab = vocabulary_from_files(request.param)
    assert vocab, request.param
    return vocab


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("United States", "US"),
        ("Germany", "DE"),
        ("USA", "US"),
        ("U.S.A.", "US"),
        ("UK", "GB"),
        ("United Kingdom", "GB"),
        ("Russia", "RU"),
        ("South Korea", "KR"),
        ("Turkey", "TR"),
        ("Viet Nam", "VN"),
        ("Vietnam", "VN"),
        ("Côte d’Ivoire", "CI"),
        ("DEU", "DE"),
        ("de", "DE"),
        ("FR", "FR"),
        ("  france ", "FR"),
        ("Atlantis", ""),
        ("", ""),
        ("XX", ""),
    ],
)
def test_country_code(given, code):
    assert country_code(given) == code


def test_country_code_without_codes_reads_names_only():
    assert country_code("CA") == "CA"
    assert country_code("CA", allow_codes=False) == ""
    assert country_code("Canada", allow_codes=False) == "CA"


@pytest.mark.parametrize(
    ("code", "name"),
    [("US", "United States"), ("de", "Germany"), ("KR", "South Korea"), ("RU", "Russia"), ("ZZ", ""), ("", "")],
)
def test_country_name(code, name):
    assert country_name(code) == name


def test_clean_text_and_paragraphs():
    assert clean_text("  Cafe\u0301 \t au\x00 lait\n ") == "Café au lait"
    assert clean_paragraphs("one  two\r\n\r\n\r\n\r\nthree\x07") == "one two\n\nthree"
    assert clean_text("🧙\u200d♂️") == "🧙\u200d♂️"  # the zero-width joiner of an emoji sequence is kept
    assert clean_text("Lone \ud800Surrogate") == "Lone Surrogate"  # JSON can carry one; no database can store it


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


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("May 2020", "2020-05"),
        ("Dec 2022", "2022-12"),
        ("September 2019", "2019-09"),
        ("Sept 2019", "2019-09"),
        ("2020-05", "2020-05"),
        ("2020-05-17", "2020-05"),
        ("2020", "2020-01"),
        ("05/2020", "2020-05"),
        ("2023-04-01T00:00:00Z", "2023-04"),
        ("Present", None),
        ("", None),
        ("2020-13", None),
        ("Smarch 2020", None),
        ("2013-12-021", None),
    ],
)
def test_parse_month(text, month):
    assert parse_month(text) == month


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("2 years 6 months", 30),
        ("2 years 8 months", 32),
        ("1 year", 12),
        ("1 month", 1),
        ("7 months", 7),
        ("4 years 2 months", 50),
        ("a year", 12),
        ("", None),
        ("forever", None),
    ],
)
def test_months_from_duration(text, months):
    assert months_from_duration(text) == months


# --------------------------------------------------------------------------------------------------------------------
# Topic splitting
# --------------------------------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------------------------------
# Vocabulary files
# --------------------------------------------------------------------------------------------------------------------


def test_vocabulary_from_the_files(full_vocabulary):
    for key in ("python", "machine-learning", "golang", "go", "c-plus-plus", "jupyter-notebook", "c++", "as3"):
        assert key in full_vocabulary, key
    assert all(key == label_key(key) for key in full_vocabulary)


def test_vocabulary_from_a_missing_folder(tmp_path):
    assert vocabulary_from_files(tmp_path / "missing") == frozenset()


def test_vocabulary_from_a_small_folder(tmp_path):
    (tmp_path / "github_topics.txt").write_text("python\nmachine-learning\n", encoding="utf-8")
    (tmp_path / "github_topic_aliases.tsv").write_text("alias\ttopic\ngolang\tgo\n", encoding="utf-8")
    (tmp_path / "linguist_languages.tsv").write_text(
        "name\ttype\taliases\textensions\tgroup\tlinguist_language_id\n"
        "Jupyter Notebook\tmarkup\tIPython Notebook\t.ipynb\t\t185\n",
        encoding="utf-8",
    )
    assert vocabulary_from_files(tmp_path) == frozenset(
        {"python", "machine-learning", "golang", "go", "jupyter-notebook", "ipython-notebook"}
    )
