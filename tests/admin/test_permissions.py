"""The Recruiter and Viewer groups of the data migration, and what each may do in the admin."""

import importlib

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Group
from django.urls import reverse

from profiles.models import Candidate
from tests.admin.conftest import GROUPS_MIGRATION
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db


def perms(group: Group) -> set[str]:
    return {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.select_related("content_type")}


def test_the_migration_creates_both_groups():
    assert set(Group.objects.filter(name__in=["Recruiter", "Viewer"]).values_list("name", flat=True)) == {
        "Recruiter",
        "Viewer",
    }


def test_recruiters_edit_candidates_and_working_lists_and_upload_but_manage_no_users(groups):
    recruiter = perms(groups["Recruiter"])

    assert {
        "profiles.view_candidate",
        "profiles.change_candidate",
        "profiles.change_candidateskill",
        "profiles.add_candidateskill",
        "profiles.change_contribution",
        "profiles.change_position",
        "profiles.add_spokenlanguage",
        "profiles.change_shortlist",
        "profiles.add_shortlistentry",
        "profiles.change_savedsearch",
        "ingestion.add_importbatch",
        "ingestion.view_sourcefile",
    } <= recruiter
    assert "ingestion.delete_sourcefile" not in recruiter
    assert "profiles.delete_candidate" not in recruiter
    assert not any(p.startswith("auth.") for p in recruiter)


def test_viewers_only_view(groups):
    viewer = perms(groups["Viewer"])

    assert "profiles.view_candidate" in viewer
    assert "ingestion.view_importbatch" in viewer
    assert all(p.split(".")[1].startswith("view_") for p in viewer)


def test_the_migration_reverses_cleanly(groups):
    migration = importlib.import_module(GROUPS_MIGRATION)

    migration.delete_groups(django_apps, None)
    assert not Group.objects.filter(name__in=migration.GROUP_NAMES).exists()
    migration.create_groups(django_apps, None)
    assert Group.objects.filter(name__in=migration.GROUP_NAMES).count() == 2


def test_groups_made_before_the_work_history_tables_are_given_them(groups):
    """Migration 0014: the groups of an existing database had no permission on the jobs and languages tables."""
    migration = importlib.import_module("profiles.migrations.0014_position_and_spoken_language_permissions")
    migration.revoke(django_apps, None)
    assert "profiles.view_position" not in perms(groups["Viewer"])

    migration.grant(django_apps, None)

    assert {"profiles.delete_position", "profiles.change_spokenlanguage"} <= perms(groups["Recruiter"])
    viewer = perms(groups["Viewer"])
    assert {"profiles.view_position", "profiles.view_spokenlanguage"} <= viewer
    assert "profiles.change_position" not in viewer


@pytest.mark.parametrize(
    ("who", "url", "status"),
    [
        ("recruiter", "admin:profiles_candidate_changelist", 200),
        ("recruiter", "admin:profiles_shortlist_add", 200),
        ("recruiter", "admin:profiles_savedsearch_add", 200),
        ("recruiter", "admin:ingestion_importbatch_add", 200),
        ("recruiter", "admin:auth_user_changelist", 403),
        ("recruiter", "admin:auth_group_changelist", 403),
        ("recruiter", "admin:profiles_candidate_add", 403),
        ("viewer", "admin:profiles_candidate_changelist", 200),
        ("viewer", "admin:ingestion_sourcefile_changelist", 200),
        ("viewer", "admin:profiles_shortlist_add", 403),
        ("viewer", "admin:profiles_savedsearch_add", 403),
        ("viewer", "admin:auth_user_changelist", 403),
    ],
)
def test_pages_per_group(request, who, url, status):
    client = request.getfixturevalue(f"{who}_client")
    assert client.get(reverse(url)).status_code == status


def test_a_recruiter_cannot_delete_candidates(recruiter_client):
    candidate = CandidateFactory()

    response = recruiter_client.post(reverse("admin:profiles_candidate_delete", args=[candidate.pk]), {"post": "yes"})

    assert response.status_code == 403
    assert Candidate.objects.filter(pk=candidate.pk).exists()
