"""Issue 29, "the vocabulary ships with the product": profiles/data/vocabulary.tsv holds several thousand
technologies with their aliases, read without ../shared; it is what the build script makes of the public lists
(corpus layer), and it marks the labels that are common words."""

from pathlib import Path

import pytest

from core.labels import label_key
from devtools.vocabulary.build import build, curated_agrees, render
from profiles.shipped_vocabulary import SHIPPED_FILE, ambiguous_labels, read_rows, read_shipped
from profiles.vocabulary import seeded_vocabulary
from tests.fixtures import CORPUS_DIR

SHIPPED = seeded_vocabulary(read_shipped())
ROWS = {row.slug: row for row in read_rows()}


def test_the_shipped_vocabulary_holds_several_thousand_skills_with_aliases():
    vocab = read_shipped()

    assert len(vocab.skills) > 5_000
    assert len(vocab.aliases) > len(vocab.skills)
    assert len({label for label, _ in vocab.aliases}) == len(vocab.aliases)  # each label leads to one skill
    assert {kind for _, _, kind in vocab.skills} == {"skill", "language", "topic"}


@pytest.mark.parametrize(
    ("label", "slug"),
    [
        ("Looker", "looker"),
        ("UIKit", "uikit"),
        ("MockK", "mockk"),
        ("SSH", "ssh"),
        ("Yocto", "yocto"),
        ("RxJava", "rx-java"),
        ("SageMaker", "amazon-sagemaker"),
        ("Amazon SageMaker", "amazon-sagemaker"),
        ("PostGIS", "postgis"),
        ("Nextflow", "nextflow"),
        ("Snakemake", "snakemake"),
    ],
)
def test_technologies_of_real_job_posts_are_known(label, slug):
    assert SHIPPED.slug_of(label_key(label)) == slug


@pytest.mark.parametrize(
    ("label", "slug"),
    [
        ("reactjs", "react"),
        ("node.js", "nodejs"),
        (".net", "dotnet"),
        ("c#", "csharp"),
        ("vue.js", "vue"),
        ("python-3.x", "python"),
        ("angular-2+", "angular"),
        ("rx-java2", "rx-java"),
        ("sql-server-2008", "sql-server"),
        ("vuejs2", "vue"),
    ],
)
def test_synonyms_and_versions_are_aliases_of_one_skill(label, slug):
    assert SHIPPED.slug_of(label_key(label)) == slug


@pytest.mark.parametrize(
    "word", ["arrays", "string", "forms", "function", "design", "sorting", "performance", "for-loop", "if-statement"]
)
def test_generic_programming_words_are_not_skills(word):
    assert word not in ROWS
    assert SHIPPED.slug_of(word) is None


@pytest.mark.parametrize(
    ("slug", "name"),
    [
        ("postgresql", "PostgreSQL"),
        ("nodejs", "Node.js"),
        ("rx-java", "RxJava"),
        ("amazon-sagemaker", "Amazon SageMaker"),
        ("codeigniter", "CodeIgniter"),
        ("spring-security", "Spring Security"),
        ("jpa", "JPA"),
    ],
)
def test_display_names_are_readable(slug, name):
    assert ROWS[slug].name == name


def test_common_words_need_a_technical_context():
    ambiguous = ambiguous_labels()

    assert {"go", "r", "c", "less", "basic", "cadence", "support", "eq", "spring", "express", "swift"} <= ambiguous
    assert not {"python", "postgresql", "kubernetes", "golang", "rx-java", "sagemaker"} & ambiguous
    assert ambiguous <= {label for label, _ in read_shipped().aliases}


def test_a_table_with_other_columns_is_refused(tmp_path):
    table = tmp_path / "vocabulary.tsv"
    table.write_text("# a note\nslug\tname\tkind\naws\tAWS\tskill\n", encoding="utf-8")

    with pytest.raises(ValueError, match="the columns are slug, name, kind, aliases"):
        read_rows(table)


def test_each_skill_s_slug_and_name_lead_to_it():
    """No alias of one skill is another skill's own name (the rule the audit holds the public lists to)."""
    labels = dict(read_shipped().aliases)

    taken = [(row.slug, label) for row in ROWS.values() for label in (row.slug, label_key(row.name))]
    assert [(slug, label, labels[label]) for slug, label in taken if labels[label] != slug] == []


def test_the_curated_table_s_decisions_are_the_shipped_vocabulary_s():
    assert curated_agrees(list(ROWS.values())) == []


@pytest.mark.corpus
def test_the_committed_vocabulary_is_what_the_build_makes_of_the_corpus():
    corpus = CORPUS_DIR / "vocab"
    built = render(build(corpus))

    assert built == render(build(corpus))  # deterministic
    assert built == Path(SHIPPED_FILE).read_text(encoding="utf-8"), "run manage.py build_vocabulary and commit it"
