"""Issue 17, skill names: a database filled before the curated table (``skills_apply_curated``, run by migration 0019
and by ``seed_skills``) gets its display names, and a skill an import made of a curated label ("apache-spark" beside
"spark") is merged into the curated one, a candidate with both keeping the higher score once."""

import importlib
import io

import pytest
from django.apps import apps
from django.core.management import call_command

from jobs import services as job_services
from jobs.models import JobSkill
from profiles.models import CandidateSkill, Repository, Skill, SkillAlias
from profiles.services import skills_apply_curated
from tests.factories import CandidateFactory, CandidateSkillFactory, RepositoryFactory, SkillFactory, UserFactory
from tests.fixtures import VOCAB_DIR

pytestmark = pytest.mark.django_db

curated_migration = importlib.import_module("profiles.migrations.0019_apply_curated_skills")


@pytest.fixture
def spark_pair():
    """What an import made before the curated table knew Spark: "spark" named as the label was written, and a second
    skill for "apache-spark"."""
    spark = Skill.objects.get(slug="spark")
    spark.name = "spark"
    spark.save()
    SkillAlias.objects.filter(label="apache-spark").delete()
    apache_spark = SkillFactory(slug="apache-spark", name="apache spark")
    SkillAlias.objects.create(label="apache-spark", skill=apache_spark)
    return spark, apache_spark


def test_the_migration_merges_a_pair_into_the_curated_skill(spark_pair):
    spark, apache_spark = spark_pair
    both = CandidateFactory(name="Tarja Holmsten")
    CandidateSkillFactory(candidate=both, skill=apache_spark, score=6, label="apache-spark")
    CandidateSkillFactory(candidate=both, skill=spark, score=9, label="spark")
    higher_in_the_pair = CandidateFactory(name="Eino Rautio")
    CandidateSkillFactory(candidate=higher_in_the_pair, skill=apache_spark, score=8, label="Apache Spark")
    CandidateSkillFactory(candidate=higher_in_the_pair, skill=spark, score=3, label="spark")
    only_the_pair = CandidateFactory(name="Aili Kuusela")
    CandidateSkillFactory(candidate=only_the_pair, skill=apache_spark, score=7, label="apache-spark")
    repository = RepositoryFactory(topic_slugs=["apache-spark", "kafka"])

    curated_migration.apply_curated_skills(apps, None)

    assert not Skill.objects.filter(slug="apache-spark").exists()
    assert Skill.objects.get(slug="spark").name == "Apache Spark"
    scores = CandidateSkill.objects.filter(skill__slug="spark").values_list("candidate__name", "score", "label")
    assert sorted(scores) == [("Aili Kuusela", 7, "apache-spark"), ("Eino Rautio", 8, "Apache Spark"),
                              ("Tarja Holmsten", 9, "spark")]  # fmt: skip
    assert CandidateSkill.objects.filter(candidate__in=[both, higher_in_the_pair]).count() == 2
    assert SkillAlias.objects.get(label="apache-spark").skill_id == spark.pk
    assert Repository.objects.get(pk=repository.pk).topic_slugs == ["kafka", "spark"]


def test_a_job_s_criteria_follow_the_merge(spark_pair):
    """Defect: merging a skill deleted the job criteria that named it (JobSkill cascades with the skill)."""
    spark, apache_spark = spark_pair
    user = UserFactory()
    named_the_pair = job_services.job_create(user=user, title="Data platform", description="Spark").job
    JobSkill.objects.filter(job=named_the_pair).delete()
    JobSkill.objects.create(job=named_the_pair, skill=apache_spark, kind=JobSkill.Kind.REQUIRED, min_score=6)
    named_both = job_services.job_create(user=user, title="Streaming", description="Spark").job
    JobSkill.objects.filter(job=named_both).delete()
    JobSkill.objects.create(job=named_both, skill=apache_spark, kind=JobSkill.Kind.PREFERRED)
    JobSkill.objects.create(job=named_both, skill=spark, kind=JobSkill.Kind.REQUIRED, min_score=7)

    skills_apply_curated()

    assert list(named_the_pair.skills.values_list("skill__slug", "kind", "min_score")) == [("spark", "required", 6)]
    assert list(named_both.skills.values_list("skill__slug", "kind", "min_score")) == [("spark", "required", 7)]


def test_skills_named_as_their_label_take_the_curated_name():
    for slug, written in (("bash", "bash"), ("kafka", "kafka"), ("docker", "docker"), ("tensorflow", "Tensorflow")):
        Skill.objects.filter(slug=slug).update(name=written)

    applied = skills_apply_curated()

    names = dict(Skill.objects.filter(slug__in=["bash", "kafka", "docker", "tensorflow"]).values_list("slug", "name"))
    assert names == {"bash": "Bash", "kafka": "Apache Kafka", "docker": "Docker", "tensorflow": "TensorFlow"}
    assert applied.renamed == 4


def test_a_name_given_by_hand_stays():
    Skill.objects.filter(slug="docker").update(name="Docker (containers)")

    skills_apply_curated()

    assert Skill.objects.get(slug="docker").name == "Docker (containers)"


def test_a_curated_label_that_led_to_another_skill_leads_to_its_own():
    """The fixture vocabulary's Linguist Shell lists bash; a database seeded before the curated table knew Bash kept
    the alias on Shell. Shell itself is not merged: its slug is no label of Bash."""
    shell = Skill.objects.get(slug="shell")
    SkillAlias.objects.filter(label="bash").update(skill=shell)

    applied = skills_apply_curated()

    assert SkillAlias.objects.get(label="bash").skill.slug == "bash"
    assert Skill.objects.filter(slug="shell").exists()
    assert applied.aliases == 1


def test_a_skill_an_import_made_of_a_label_with_symbols_is_merged():
    """ ".NET" made the skill "net" (its slug) before the curated table led the label to dotnet."""
    SkillAlias.objects.filter(label=".net").delete()
    made = SkillFactory(slug="net", name=".NET")
    SkillAlias.objects.create(label=".net", skill=made)
    CandidateSkillFactory(skill=made, score=5, label=".NET")

    applied = skills_apply_curated()

    assert not Skill.objects.filter(slug="net").exists()
    assert CandidateSkill.objects.get(label=".NET").skill.slug == "dotnet"
    assert applied.merged == (("net", "dotnet"),)


def test_running_it_again_changes_nothing(spark_pair):
    skills_apply_curated()

    again = skills_apply_curated()

    assert (again.merged, again.aliases, again.renamed) == ((), 0, 0)


def test_seed_skills_applies_the_curated_table(spark_pair):
    out = io.StringIO()

    call_command("seed_skills", vocab=VOCAB_DIR, stdout=out)

    assert not Skill.objects.filter(slug="apache-spark").exists()
    assert "Merged into their curated skill: apache-spark → spark" in out.getvalue()
