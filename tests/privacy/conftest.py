"""Users of each role, and the groups of the data migrations (transactional tests flush every table, so the
migrations' own functions run again here: they are idempotent)."""

import importlib

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Group

from tests.factories import UserFactory

PASSWORD = "correct horse battery staple"


@pytest.fixture
def privacy_groups(db) -> dict[str, Group]:
    importlib.import_module("profiles.migrations.0004_create_recruiter_and_viewer_groups").create_groups(
        django_apps, None
    )
    importlib.import_module("privacy.migrations.0002_privacy_officer_group_and_sourcing_backfill").create_groups(
        django_apps, None
    )
    return {group.name: group for group in Group.objects.filter(name__in=["Recruiter", "Viewer", "Privacy officer"])}


@pytest.fixture
def officer(privacy_groups):
    user = UserFactory(username="olga", is_staff=True, password=PASSWORD)
    user.groups.add(privacy_groups["Privacy officer"])
    return user


@pytest.fixture
def recruiter(privacy_groups):
    user = UserFactory(username="rita", is_staff=True, password=PASSWORD)
    user.groups.add(privacy_groups["Recruiter"])
    return user
