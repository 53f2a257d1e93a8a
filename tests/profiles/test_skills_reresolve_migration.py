"""Migration 0033 re-resolves the stored labels on its own historical models, and its reverse undoes the moves."""

import ast
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from profiles.models import CandidateSkill, Skill, SkillLabelMove
from tests.profiles.test_skills_reresolve import _older_import

pytestmark = pytest.mark.django_db

MIGRATIONS = Path(__file__).resolve().parents[2] / "profiles" / "migrations"
NAME = "0033_reresolve_skill_labels_recorded"


def _migration():
    from importlib import import_module

    return import_module(f"profiles.migrations.{NAME}")


def _apps():
    return MigrationExecutor(connection).loader.project_state(("profiles", NAME)).apps


@pytest.mark.parametrize("name", ["0031_reresolve_skill_labels", NAME])
def test_the_migrations_import_no_model_class_of_today(name):
    tree = ast.parse((MIGRATIONS / f"{name}.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}

    assert not {module for module in imported if module and module.startswith("profiles.models")}
    assert "from profiles import models" not in (MIGRATIONS / f"{name}.py").read_text()


def test_the_migration_moves_labels_on_historical_models_and_its_reverse_puts_them_back():
    candidate = _older_import("Esa Lindqvist", ["Usage with Docker", "Teamwork"])

    _migration().reresolve_skill_labels(_apps(), None)

    slugs = set(CandidateSkill.objects.filter(candidate=candidate).values_list("skill__slug", flat=True))
    assert slugs == {"docker"}
    assert SkillLabelMove.objects.filter(candidate=candidate).count() == 2

    _migration().undo_reresolve(_apps(), None)

    slugs = set(CandidateSkill.objects.filter(candidate=candidate).values_list("skill__slug", flat=True))
    assert slugs == {"usage-with-docker", "teamwork"}
    assert Skill.objects.filter(slug="usage-with-docker").exists()
    assert not SkillLabelMove.objects.exists()
