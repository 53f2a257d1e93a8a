"""Migration 0036 adds the skills and aliases the shipped vocabulary gained after 0034 (the Android stack, Koin, Ktor,
WebdriverIO, pgvector, Thanos, etcd...), from its own fixed list, on its own historical models: a skill the database
lacks is added with its aliases, one the database holds under its former slug keeps it, the shipped names follow where
no curator renamed them, "Compose" and "Room" name no Android skill any more, and every process reads the vocabulary
again."""

from importlib import import_module

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from profiles.models import Skill, SkillAlias
from profiles.vocabulary_copy import VOCABULARY_VERSION_KEY

pytestmark = pytest.mark.django_db

NAME = "0036_seed_shipped_vocabulary_android_and_platform_tools"


def _seed() -> None:
    apps = MigrationExecutor(connection).loader.project_state(("profiles", NAME)).apps
    import_module(f"profiles.migrations.{NAME}").seed_shipped_vocabulary(apps, None)


def _aliases(slug: str) -> set[str]:
    return set(SkillAlias.objects.filter(skill__slug=slug).values_list("label", flat=True))


def test_a_skill_the_database_lacks_is_added_with_its_aliases_and_the_vocabulary_is_read_again():
    # A database seeded before they shipped.
    Skill.objects.filter(slug__in=["kotlin-coroutines", "koin", "pgvector", "etcd"]).delete()
    cache.set(VOCABULARY_VERSION_KEY, "before")

    _seed()
    _seed()  # again: nothing more changes

    assert Skill.objects.get(slug="kotlin-coroutines").name == "Kotlin Coroutines"
    assert _aliases("kotlin-coroutines") == {
        "kotlin-coroutines",
        "coroutines",
        "kotlinx-coroutines",
        "kotlinx.coroutines",
        "kotlin-coroutine",
    }
    assert _aliases("koin") == {"koin"}
    assert _aliases("pgvector") == {"pgvector", "pg-vector"}
    assert _aliases("etcd") == {"etcd", "coreos-etcd"}
    assert cache.get(VOCABULARY_VERSION_KEY) != "before"


def test_compose_and_room_name_no_android_skill_and_the_shipped_names_follow():
    # A database seeded while the table listed them.
    jetpack_compose, room = Skill.objects.get(slug="jetpack-compose"), Skill.objects.get(slug="android-room")
    SkillAlias.objects.filter(label__in=["compose", "room"]).delete()
    SkillAlias.objects.bulk_create(
        [SkillAlias(label="compose", skill=jetpack_compose), SkillAlias(label="room", skill=room)]
    )
    Skill.objects.filter(slug="android-room").update(name="Room")
    Skill.objects.filter(slug="android-espresso").update(name="Android Espresso")
    Skill.objects.filter(slug="android-glide").update(name="Glide (images)")  # a curator's name

    _seed()

    assert not SkillAlias.objects.filter(label__in=["compose", "room"]).exists()
    names = dict(Skill.objects.filter(slug__startswith="android-").values_list("slug", "name"))
    assert (names["android-room"], names["android-espresso"], names["android-glide"]) == (
        "Android Room",
        "Espresso",
        "Glide (images)",
    )


def test_a_skill_held_under_its_former_slug_keeps_it_and_gains_the_new_labels():
    Skill.objects.filter(slug="webdriverio").delete()
    former = Skill.objects.create(slug="webdriver-io", name="Webdriver Io", kind=Skill.Kind.SKILL)
    SkillAlias.objects.create(label="webdriver-io", skill=former)

    _seed()

    assert not Skill.objects.filter(slug="webdriverio").exists()
    assert _aliases("webdriver-io") == {"webdriver-io", "webdriverio", "wdio"}
