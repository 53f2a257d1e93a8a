"""Issue 14, "skill vocabulary that maps right": the whole seeded vocabulary, the fixtures' skill labels (and the
corpus's, in its layer) each map to one skill, and never to a skill of another kind without a curated reason. The
shipped vocabulary (issue 29, profiles/data/vocabulary.tsv) is held to the same rules.

Pure: the vocabulary files are read as ``seed_skills`` reads them (``read_vocabulary`` or ``read_shipped``, then the
curated aliases first: ``seeded_vocabulary``), and labels resolve as imports resolve them (``SkillVocabulary.slug_of``).
"""

import csv
from pathlib import Path

import pytest

from core.labels import label_key, label_variants
from ingestion.parsers import parse
from ingestion.vocabulary import vocabulary_from_files
from profiles.shipped_vocabulary import SHIPPED_FILE, read_shipped
from profiles.vocabulary import (
    CURATED_ALIASES,
    CURATED_REASONS,
    CURATED_SKILLS,
    OWN_NAME,
    contested_labels,
    read_vocabulary,
    seeded_vocabulary,
    skill_slug,
)
from tests.fixtures import CORPUS_DIR, FIXTURES_DIR, VOCAB_DIR

VOCABULARIES = [
    pytest.param(VOCAB_DIR, id="fixture-vocabulary"),
    pytest.param(CORPUS_DIR / "vocab", id="corpus-vocabulary", marks=pytest.mark.corpus),
]
# The vocabulary a fresh install seeds: its labels are decided when it is built, so the checks of labels the files
# name for two skills do not apply; the labels the fixtures write must still reach their skill through it.
WITH_SHIPPED = [*VOCABULARIES, pytest.param(SHIPPED_FILE, id="shipped-vocabulary")]


def _read(vocab_dir: Path):
    return read_shipped() if vocab_dir == SHIPPED_FILE else read_vocabulary(vocab_dir)


def _words(vocab_dir: Path) -> frozenset[str]:
    """The words the parsers split topics with, as a database seeded with this vocabulary gives them."""
    if vocab_dir == SHIPPED_FILE:
        return frozenset(seeded_vocabulary(read_shipped()).slugs)
    return vocabulary_from_files(vocab_dir)


def _kinds(vocab) -> dict[str, str]:
    kinds = {slug: kind for slug, (_, kind) in CURATED_SKILLS.items()}
    for slug, _, kind in vocab.skills:  # a language seeded over a topic of the same slug makes it a language
        kinds[slug] = "language" if "language" in (kind, kinds.get(slug)) else kinds.get(slug, kind)
    return kinds


def _document_labels(paths: list[Path], vocab_dir: Path) -> list[tuple[str, str, str]]:
    """(file name, section, label) of every skill and programming language these files name, as the parsers read
    them."""
    words = _words(vocab_dir)
    labels = []
    for path in paths:
        document = parse(path.read_bytes(), vocabulary=words)
        labels.extend((path.name, "skill", entry.label) for entry in document.skills)
        labels.extend((path.name, "language", entry.label) for entry in document.programming_languages)
    return labels


def _profile_files(root: Path) -> list[Path]:
    return [*sorted(root.glob("progai/*.txt")), *sorted(root.glob("jsonresume/*.json"))]


@pytest.mark.parametrize("vocab_dir", VOCABULARIES)
def test_every_label_the_files_name_for_two_skills_is_decided_with_a_reason(vocab_dir):
    undecided = [c for c in contested_labels(read_vocabulary(vocab_dir)) if c.reason is None]

    assert undecided == []


@pytest.mark.parametrize("vocab_dir", VOCABULARIES)
def test_no_seeded_alias_takes_another_skill_s_own_name(vocab_dir):
    vocab = read_vocabulary(vocab_dir)
    own_names = {(c.label, c.slug) for c in vocab.claims if c.source == OWN_NAME}
    owners: dict[str, set[str]] = {}
    for label, slug in own_names:
        owners.setdefault(label, set()).add(slug)
    taken = [
        (label, slug, sorted(owners[label]))
        for label, slug in vocab.aliases
        if owners.get(label, {slug}) - {slug} and slug not in owners[label] and label not in CURATED_REASONS
    ]

    assert taken == []


@pytest.mark.parametrize("vocab_dir", VOCABULARIES)
def test_the_jinja_entry_does_not_take_django(vocab_dir):
    """Defect: "Django" was stored as Jinja (Linguist's Jinja lists the alias django)."""
    vocabulary = seeded_vocabulary(read_vocabulary(vocab_dir))

    assert vocabulary.slug_of("django") == "django"
    assert vocabulary.slug_of("jinja") == "jinja"


def _labels_to_audit(request, vocab_dir: Path) -> list[tuple[str, str, str]]:
    vocab = _read(vocab_dir)
    labels = [("vocabulary", "alias", label) for label, _ in vocab.aliases]
    labels += [("curated", "alias", label) for label in CURATED_ALIASES]
    labels += [("skill_labels.tsv", "skill", row["label"]) for row in _table()]
    labels += _document_labels(_profile_files(FIXTURES_DIR), vocab_dir)
    if vocab_dir == CORPUS_DIR / "vocab":  # the corpus's own files, with its vocabulary
        labels += _document_labels(_profile_files(CORPUS_DIR), vocab_dir)
    return labels


@pytest.mark.parametrize("vocab_dir", WITH_SHIPPED)
def test_every_label_maps_to_one_skill(request, vocab_dir):
    """A label the vocabulary does not know as written, whose equivalent forms lead to two different skills, is
    ambiguous: the first known form would win silently. Every such label needs a curated reason. (A label known as
    written is decided by that: the vocabulary naming Perl 6, Lean 4 or Visual Basic 6.0 is what keeps a version
    that is part of the name apart from Perl, Lean or Visual Basic .NET.)"""
    vocabulary = seeded_vocabulary(_read(vocab_dir))
    ambiguous = []
    for where, _, label in _labels_to_audit(request, vocab_dir):
        key = label_key(label)
        if key in vocabulary.slugs:
            continue
        reached = {vocabulary.slugs[v] for v in label_variants(key) if v in vocabulary.slugs}
        if len(reached) > 1 and key not in CURATED_REASONS:
            ambiguous.append((where, label, sorted(reached)))

    assert ambiguous == []


@pytest.mark.parametrize("vocab_dir", WITH_SHIPPED)
def test_a_programming_language_label_maps_to_a_language(request, vocab_dir):
    """A label of a profile's programming-languages section, known to the vocabulary, leads to a skill of kind
    language (or one of the Linguist's markup and data entries): never to a topic, unless a curated reason says so."""
    vocab = _read(vocab_dir)
    vocabulary, kinds = seeded_vocabulary(vocab), _kinds(vocab)
    linguist = {slug for slug, _, kind in vocab.skills if kind in ("language", "skill")}
    wrong = []
    for where, section, label in _labels_to_audit(request, vocab_dir):
        slug = vocabulary.slug_of(label_key(label))
        if section == "language" and slug and slug not in linguist and label_key(label) not in CURATED_REASONS:
            wrong.append((where, label, slug, kinds.get(slug)))

    assert wrong == []


# Labels the table expects to make a skill of their own, which the shipped vocabulary knows (Stack Overflow's tags).
SHIPPED_KNOWS = {"s3": "amazon-s3"}


def _table() -> list[dict[str, str]]:
    with (FIXTURES_DIR / "skill_labels.tsv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.mark.parametrize("vocab_dir", WITH_SHIPPED)
@pytest.mark.parametrize("row", _table(), ids=lambda row: row["label"])
def test_the_labels_of_real_files_map_to_their_skill(vocab_dir, row):
    """tests/fixtures/skill_labels.tsv: the labels of issue 14 and the traps of the equivalence rule, with the skill
    each must reach (a skill of its own when the vocabulary has none: the slug an import creates)."""
    vocabulary = seeded_vocabulary(_read(vocab_dir))
    key = label_key(row["label"])
    expected = SHIPPED_KNOWS.get(key, row["skill"]) if vocab_dir == SHIPPED_FILE else row["skill"]

    assert (vocabulary.slug_of(key) or skill_slug(key)) == expected, row["note"]
