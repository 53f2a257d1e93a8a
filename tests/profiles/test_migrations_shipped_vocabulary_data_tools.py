"""Migration 0037 adds the skills and aliases the shipped vocabulary gained after 0036 (Prefect, Dagster, Ray, Amazon
EKS and EventBridge), from its own fixed list, on its own historical models: a skill the database lacks is added with
its aliases, one a curator merged into another skill leads there, RBAC gets its shipped name where no curator renamed
it, and every process reads the vocabulary again."""

from importlib import import_module

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from profiles.models import Skill, SkillAlias
from profiles.vocabulary_copy import VOCABULARY_VERSION_KEY

pytestmark = pytest.mark.django_db

NAME = "0037_seed_shipped_vocabulary_data_orchestrators_and_aws_events"


def _seed() -> None:
    apps = MigrationExecutor(connection).loader.project_state(("profiles", NAME)).apps
    import_module(f"profiles.migrations.{NAME}").seed_shipped_vocabulary(apps, None)


def _aliases(slug: str) -> set[str]:
    return set(SkillAlias.objects.filter(skill__slug=slug).values_list("label", flat=True))


def test_a_skill_the_database_lacks_is_added_with_its_aliases_and_the_vocabulary_is_read_again():
    # A database seeded before they shipped.
    Skill.objects.filter(slug__in=["amazon-eks", "amazon-eventbridge", "prefect", "dagster", "ray"]).delete()
    cache.set(VOCABULARY_VERSION_KEY, "before")

    _seed()
    _seed()  # again: nothing more changes

    assert Skill.objects.get(slug="amazon-eks").name == "Amazon EKS"
    assert _aliases("amazon-eks") == {
        "amazon-eks",
        "eks",
        "aws-eks",
        "elastic-kubernetes-service",
        "amazon-elastic-kubernetes-service",
    }
    assert _aliases("amazon-eventbridge") == {
        "amazon-eventbridge",
        "eventbridge",
        "aws-eventbridge",
        "amazon-event-bridge",
    }
    assert _aliases("prefect") == {"prefect", "prefecthq"}
    assert _aliases("dagster") == {"dagster"}
    assert _aliases("ray") == {"ray", "ray-io", "ray-framework"}
    assert cache.get(VOCABULARY_VERSION_KEY) != "before"


def test_a_skill_a_curator_merged_elsewhere_keeps_its_place():
    Skill.objects.filter(slug__in=["amazon-eks", "kubernetes-eks"]).delete()
    merged = Skill.objects.create(slug="kubernetes-eks", name="EKS", kind=Skill.Kind.SKILL)
    SkillAlias.objects.filter(label__in=["amazon-eks", "eks"]).delete()
    SkillAlias.objects.create(label="amazon-eks", skill=merged)

    _seed()

    assert not Skill.objects.filter(slug="amazon-eks").exists()
    assert {"amazon-eks", "eks", "aws-eks"} <= _aliases("kubernetes-eks")


def test_rbac_gets_its_shipped_name_unless_a_curator_renamed_it():
    rbac, _ = Skill.objects.get_or_create(slug="rbac", defaults={"name": "Rbac", "kind": Skill.Kind.SKILL})
    Skill.objects.filter(pk=rbac.pk).update(name="Rbac")

    _seed()

    assert Skill.objects.get(slug="rbac").name == "RBAC"
    Skill.objects.filter(slug="rbac").update(name="Role-based access control")  # a curator's name

    _seed()

    assert Skill.objects.get(slug="rbac").name == "Role-based access control"
