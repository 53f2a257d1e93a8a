"""Issue 17, skill names: the project's own curated vocabulary (profiles/data/curated_skills.tsv) gives the common
skills their display names and leads their usual labels to one skill, with or without the public vocabularies.

Pure: the table is read as the seed reads it, and labels resolve as imports resolve them (``SkillVocabulary``)."""

import pytest

from core.labels import label_key
from profiles.shipped_vocabulary import read_shipped
from profiles.vocabulary import (
    CURATED_LABELS,
    CURATED_SKILLS,
    SkillVocabulary,
    read_curated,
    read_vocabulary,
    seeded_vocabulary,
    skill_slug,
)
from tests.fixtures import CORPUS_DIR, VOCAB_DIR

WITHOUT_VOCABULARY = SkillVocabulary(slugs=CURATED_LABELS)  # the curated table alone
VOCABULARIES = [
    pytest.param(WITHOUT_VOCABULARY, id="curated-only"),
    pytest.param(seeded_vocabulary(read_shipped()), id="shipped-vocabulary"),  # a fresh clone (issue 29)
    pytest.param(seeded_vocabulary(read_vocabulary(VOCAB_DIR)), id="fixture-vocabulary"),
    pytest.param(
        seeded_vocabulary(read_vocabulary(CORPUS_DIR / "vocab")), id="corpus-vocabulary", marks=pytest.mark.corpus
    ),
]


@pytest.mark.parametrize(
    ("slug", "name"),
    [
        ("bash", "Bash"),
        ("kafka", "Apache Kafka"),
        ("docker", "Docker"),
        ("spark", "Apache Spark"),
        ("postgresql", "PostgreSQL"),
        ("javascript", "JavaScript"),
        ("typescript", "TypeScript"),
        ("nodejs", "Node.js"),
        ("aws", "AWS"),
        ("google-cloud", "Google Cloud"),
        ("kubernetes", "Kubernetes"),
        ("terraform", "Terraform"),
        ("react", "React"),
        ("vue", "Vue.js"),
        ("django", "Django"),
        ("flask", "Flask"),
        ("rust", "Rust"),
        ("go", "Go"),
        ("cpp", "C++"),
        ("csharp", "C#"),
        ("dotnet", ".NET"),
    ],
)
def test_a_common_skill_has_its_display_name(slug, name):
    assert CURATED_SKILLS[slug][0] == name


@pytest.mark.parametrize("vocabulary", VOCABULARIES)
@pytest.mark.parametrize(
    ("label", "slug"),
    [
        ("spark", "spark"),
        ("Apache Spark", "spark"),
        ("apache-spark", "spark"),
        ("Kafka", "kafka"),
        ("Apache Kafka", "kafka"),
        ("k8s", "kubernetes"),
        ("golang", "go"),
        ("postgres", "postgresql"),
        ("js", "javascript"),
        ("bash", "bash"),  # the fixture vocabulary's Linguist Shell lists bash: the curated table names Bash
        ("GCP", "google-cloud"),
        ("Amazon Web Services", "aws"),
        (".NET", "dotnet"),
        ("Ruby on Rails", "rails"),
    ],
)
def test_the_usual_labels_of_a_skill_lead_to_it(vocabulary, label, slug):
    assert vocabulary.slug_of(label_key(label)) == slug


@pytest.mark.parametrize("vocabulary", VOCABULARIES)
def test_no_curated_entry_merges_two_different_skills(vocabulary):
    """Java is not JavaScript, Jinja is not Django (Linguist's Jinja lists "django"), React Native is not React,
    Spring Boot is not Spring, PySpark is its own skill, and "CV" (a résumé) is not computer vision."""
    pairs = [("java", "javascript"), ("jinja", "django"), ("react", "react-native"), ("spring", "spring-boot")]
    for one, other in pairs:
        assert vocabulary.slug_of(one) != vocabulary.slug_of(other) or vocabulary.slug_of(one) is None
    assert vocabulary.slug_of("django") == "django"
    assert vocabulary.slug_of("pyspark") in (None, "pyspark")
    assert vocabulary.slug_of("cv") != "computer-vision"


def test_every_alias_and_the_skill_it_would_make_lead_to_one_curated_skill():
    """A skill an import made of a curated label is merged into that label's skill (``skills_apply_curated``): no slug
    may be made by labels of two curated skills (a curated skill's own slug included)."""
    made: dict[str, set[str]] = {}
    for label, slug in CURATED_LABELS.items():
        made.setdefault(skill_slug(label), set()).add(slug)
    assert {made_slug: slugs for made_slug, slugs in made.items() if len(slugs) > 1} == {}


def test_the_table_refuses_a_label_listed_for_two_skills(tmp_path):
    table = tmp_path / "curated.tsv"
    table.write_text("slug\tname\tkind\taliases\njava\tJava\tlanguage\tjs\njavascript\tJavaScript\tlanguage\tjs\n")

    with pytest.raises(ValueError, match="'js' is listed for java and javascript"):
        read_curated(table)


def test_the_table_refuses_an_alias_that_is_another_curated_skill(tmp_path):
    table = tmp_path / "curated.tsv"
    table.write_text("slug\tname\tkind\taliases\n# a comment\njava\tJava\tlanguage\t\nscala\tScala\tlanguage\tjava\n")

    with pytest.raises(ValueError, match="java are curated skills and aliases of another"):
        read_curated(table)


def test_the_table_reads_names_kinds_and_aliases_as_label_keys(tmp_path):
    table = tmp_path / "curated.tsv"
    table.write_text("slug\tname\tkind\taliases\n# a comment\nspark\tApache Spark\tskill\tApache Spark, spark\n")

    assert read_curated(table) == ({"spark": ("Apache Spark", "skill")}, {"apache-spark": "spark"})
