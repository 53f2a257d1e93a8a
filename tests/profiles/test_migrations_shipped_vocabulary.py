"""Migration 0034 adds the skills and aliases the shipped vocabulary gained after 0029 seeded it, from its own fixed
list, on its own historical models: a skill a curator merged away stays merged, one the database lacks is added with
its aliases, and every process reads the vocabulary again."""

from importlib import import_module

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from profiles.models import Skill, SkillAlias
from profiles.services import skills_merge
from profiles.vocabulary_copy import VOCABULARY_VERSION_KEY

pytestmark = pytest.mark.django_db

NAME = "0034_seed_shipped_vocabulary_additions"


def _seed() -> None:
    apps = MigrationExecutor(connection).loader.project_state(("profiles", NAME)).apps
    import_module(f"profiles.migrations.{NAME}").seed_shipped_vocabulary(apps, None)


def _aliases(slug: str) -> set[str]:
    return set(SkillAlias.objects.filter(skill__slug=slug).values_list("label", flat=True))


def test_a_skill_merged_away_is_not_created_again():
    skills_merge(source=Skill.objects.get(slug="kubernetes"), target=Skill.objects.get(slug="docker"))
    skills_merge(source=Skill.objects.get(slug="onnx"), target=Skill.objects.get(slug="tensorrt"))

    _seed()

    assert not Skill.objects.filter(slug__in=["kubernetes", "onnx"]).exists()
    assert {"kubernetes", "onnx", "onnxruntime", "onnx-runtime"} <= _aliases("docker") | _aliases("tensorrt")
    assert SkillAlias.objects.get(label="onnxruntime").skill.slug == "tensorrt"


def test_a_skill_the_database_lacks_is_added_with_its_aliases_and_the_vocabulary_is_read_again():
    Skill.objects.filter(slug__in=["tensorrt", "zephyr-rtos"]).delete()  # a database 0029 seeded before they shipped
    cache.set(VOCABULARY_VERSION_KEY, "before")

    _seed()
    _seed()  # again: nothing more changes

    assert Skill.objects.get(slug="tensorrt").name == "TensorRT"
    assert _aliases("tensorrt") == {"tensorrt", "nvidia-tensorrt"}
    assert _aliases("zephyr-rtos") == {"zephyr-rtos", "zephyr", "zephyr-os", "zephyrproject"}
    assert cache.get(VOCABULARY_VERSION_KEY) != "before"


def test_a_curators_alias_wins_over_the_lists():
    Skill.objects.filter(slug="spi").delete()
    SkillAlias.objects.create(label="spi", skill=Skill.objects.get(slug="i2c"))

    _seed()

    assert not Skill.objects.filter(slug="spi").exists()
    assert SkillAlias.objects.get(label="spi").skill.slug == "i2c"
