import importlib

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Group

from tests.factories import UserFactory

PASSWORD = "correct horse battery staple"
GROUPS_MIGRATION = "profiles.migrations.0004_create_recruiter_and_viewer_groups"
CONTACTS_MIGRATION = "profiles.migrations.0027_contact_details_permission"


@pytest.fixture
def groups(db) -> dict[str, Group]:
    """The Recruiter and Viewer groups of the data migration. Transactional tests flush every table afterwards, so
    the migration's own function runs again here (it is idempotent)."""
    importlib.import_module(GROUPS_MIGRATION).create_groups(django_apps, None)
    importlib.import_module(CONTACTS_MIGRATION).grant(django_apps, None)  # a permission added after the groups
    return {group.name: group for group in Group.objects.filter(name__in=["Recruiter", "Viewer"])}


@pytest.fixture
def recruiter(groups):
    user = UserFactory(username="rita", is_staff=True, password=PASSWORD)
    user.groups.add(groups["Recruiter"])
    return user


@pytest.fixture
def viewer(groups):
    user = UserFactory(username="victor", is_staff=True, password=PASSWORD)
    user.groups.add(groups["Viewer"])
    return user


@pytest.fixture
def recruiter_client(client, recruiter):
    client.force_login(recruiter)
    return client


@pytest.fixture
def viewer_client(client, viewer):
    client.force_login(viewer)
    return client
