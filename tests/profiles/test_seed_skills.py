"""Issue 29: a fresh database knows the shipped vocabulary (migration 0029), ``seed_skills`` without arguments loads
it, and ``seed_skills --vocab`` with a folder that is not there fails instead of seeding nothing."""

import importlib
import io

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from profiles.models import Skill, SkillAlias
from profiles.shipped_vocabulary import read_shipped

pytestmark = pytest.mark.django_db

seed_migration = importlib.import_module("profiles.migrations.0029_seed_shipped_vocabulary")


def test_the_migrated_database_knows_the_shipped_vocabulary():
    """The test database is migrated like a fresh install: no ../shared is read to know these."""
    assert Skill.objects.get(slug="postgis").name == "PostGIS"
    assert SkillAlias.objects.get(label="sagemaker").skill.slug == "amazon-sagemaker"
    assert SkillAlias.objects.get(label="rxjava").skill.name == "RxJava"
    assert Skill.objects.count() >= len(read_shipped().skills)


def test_seed_skills_without_arguments_loads_the_shipped_vocabulary():
    Skill.objects.filter(slug__in=["mockk", "yocto"]).delete()

    out = io.StringIO()
    call_command("seed_skills", stdout=out)

    assert Skill.objects.get(slug="mockk").name == "MockK"
    assert SkillAlias.objects.get(label="yocto").skill.name == "Yocto"
    assert " skills, " in out.getvalue()


def test_seed_skills_reads_nothing_outside_the_project(settings, tmp_path):
    """A fresh clone has no ../shared: the default seed does not look for it."""
    settings.VOCAB_DIR = tmp_path / "no-shared-corpus"
    Skill.objects.filter(slug="snakemake").delete()

    call_command("seed_skills", stdout=io.StringIO())

    assert Skill.objects.get(slug="snakemake").name == "Snakemake"


def test_seed_skills_keeps_what_a_curator_changed():
    """Existing rows win over a seed: a skill renamed by hand keeps its name, an alias pointed elsewhere stays."""
    Skill.objects.filter(slug="looker").update(name="Looker (BI)")
    SkillAlias.objects.filter(label="sagemaker").update(skill=Skill.objects.get(slug="looker"))

    call_command("seed_skills", stdout=io.StringIO())

    assert Skill.objects.get(slug="looker").name == "Looker (BI)"
    assert SkillAlias.objects.get(label="sagemaker").skill.slug == "looker"


def test_seed_skills_with_a_vocabulary_folder_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(CommandError, match="no such folder"):
        call_command("seed_skills", vocab=tmp_path / "missing", stdout=io.StringIO())


def test_seed_skills_with_an_empty_vocabulary_folder_is_an_error(tmp_path):
    with pytest.raises(CommandError, match="no github_topics"):
        call_command("seed_skills", vocab=tmp_path, stdout=io.StringIO())


def test_the_seeding_migration_runs_again_without_changing_anything():
    skills, aliases = Skill.objects.count(), SkillAlias.objects.count()

    seed_migration.seed_shipped_vocabulary(apps, None)

    assert (Skill.objects.count(), SkillAlias.objects.count()) == (skills, aliases)
