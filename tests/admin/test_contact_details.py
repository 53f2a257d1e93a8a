"""Contact details (e-mail, phone and links) are shown and exported only to users with profiles.see_contact_details: the
Recruiter group has it, the Viewer group does not."""

import csv
import importlib
import io
import json

import pytest
from django.apps import apps as django_apps
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.core.files.storage import storages
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from exports.services import export_create, export_run
from profiles.models import CandidateIdentifier
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db
CONTACT_MIGRATION = "profiles.migrations.0027_contact_details_permission"
LINKS = "https://github.com/mira-o; https://mira.example.org"
PHONE = "+234 801 555 0142"
PHONE_CELL = "'+234 801 555 0142"  # a CSV cell starting with "+" is a formula to a spreadsheet: neutralised


@pytest.fixture
def mira():
    candidate = CandidateFactory(
        name="Mira Okafor", email="mira@example.com", phone="+234 801 555 0142", website="https://mira.example.org"
    )
    CandidateIdentifier.objects.create(candidate=candidate, kind="github", value="mira-o")
    return candidate


def with_contacts(user):
    user.user_permissions.add(Permission.objects.get(codename="see_contact_details"))
    return user


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def stored_export(export) -> bytes:
    with storages["exports"].open(export.file_name, "rb") as file:
        return file.read()


def admin_for(user) -> Client:
    client = Client()  # one each: the recruiter_client and viewer_client fixtures share the test's client
    client.force_login(user)
    return client


def csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


def jsonl_rows(response) -> list[dict]:
    return [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]


def test_the_recruiter_group_may_see_contact_details_and_the_viewer_group_may_not(groups):
    assert groups["Recruiter"].permissions.filter(codename="see_contact_details").exists()
    assert not groups["Viewer"].permissions.filter(codename="see_contact_details").exists()


def test_the_migration_grants_the_permission_to_the_recruiter_group_and_takes_it_back(groups):
    migration = importlib.import_module(CONTACT_MIGRATION)

    migration.revoke(django_apps, None)
    assert not groups["Recruiter"].permissions.filter(codename="see_contact_details").exists()
    migration.grant(django_apps, None)
    assert groups["Recruiter"].permissions.filter(codename="see_contact_details").exists()


def test_the_api_detail_has_contact_details_only_for_who_may_see_them(mira):
    url = reverse("api:candidate-detail", kwargs={"pk": mira.pk})

    shown = api_for(with_contacts(UserFactory())).get(url).json()
    hidden = api_for(UserFactory()).get(url).json()

    assert (shown["email"], shown["phone"], shown["links"]) == ("mira@example.com", PHONE, LINKS.split("; "))
    assert "email" not in hidden
    assert "phone" not in hidden
    assert "links" not in hidden
    assert hidden["name"] == "Mira Okafor"


def test_the_api_exports_have_contact_details_only_for_who_may_see_them(mira):
    csv_url, jsonl_url = reverse("api:candidate-export-csv"), reverse("api:candidate-export-jsonl")
    allowed, other = api_for(with_contacts(UserFactory())), api_for(UserFactory())

    [row] = csv_rows(allowed.get(csv_url))
    [plain] = csv_rows(other.get(csv_url))
    [line] = jsonl_rows(allowed.get(jsonl_url))
    [plain_line] = jsonl_rows(other.get(jsonl_url))

    assert (row["email"], row["phone"], row["links"]) == ("mira@example.com", PHONE_CELL, LINKS)
    assert "email" not in plain
    assert "phone" not in plain
    assert "links" not in plain
    assert (line["email"], line["phone"], line["links"]) == ("mira@example.com", PHONE, LINKS.split("; "))
    assert "email" not in plain_line
    assert "phone" not in plain_line
    assert "links" not in plain_line


@pytest.mark.parametrize("format", ["csv", "jsonl"])
def test_an_export_job_has_contact_details_only_when_its_owner_may_see_them(mira, format, export_storage):
    row_url = "https://talentdb.example/api/v1/candidates/{pk}/"
    allowed = export_run(
        export_id=export_create(owner=with_contacts(UserFactory()), format=format, query="", row_url=row_url).pk
    )
    other = export_run(export_id=export_create(owner=UserFactory(), format=format, query="", row_url=row_url).pk)

    assert "mira@example.com" in stored_export(allowed).decode()
    assert PHONE in stored_export(allowed).decode()
    assert "mira@example.com" not in stored_export(other).decode()
    assert PHONE not in stored_export(other).decode()
    assert "github.com/mira-o" not in stored_export(other).decode()


def test_the_admin_csv_action_has_contact_details_only_for_who_may_see_them(mira, recruiter, viewer):
    recruiter_client, viewer_client = admin_for(recruiter), admin_for(viewer)
    url = reverse("admin:profiles_candidate_changelist")
    data = {"action": "export_csv", ACTION_CHECKBOX_NAME: [mira.pk]}

    [row] = csv_rows(recruiter_client.post(url, data))
    [plain] = csv_rows(viewer_client.post(url, data))

    assert (row["email"], row["phone"], row["links"]) == ("mira@example.com", PHONE_CELL, LINKS)
    assert "email" not in plain
    assert "phone" not in plain


def test_the_admin_profile_and_form_show_contact_details_only_to_who_may_see_them(mira, recruiter, viewer):
    recruiter_client, viewer_client = admin_for(recruiter), admin_for(viewer)
    profile = reverse("admin:profiles_candidate_change", args=[mira.pk])
    form = reverse("admin:profiles_candidate_edit", args=[mira.pk])

    for page in (recruiter_client.get(profile), recruiter_client.get(form)):
        assert "mira@example.com" in page.content.decode()
        assert PHONE in page.content.decode()
    for page in (viewer_client.get(profile), viewer_client.get(form)):
        html = page.content.decode()
        assert page.status_code == 200
        assert "mira@example.com" not in html
        assert PHONE not in html
        assert "github.com/mira-o" not in html
        assert "mira.example.org" not in html
