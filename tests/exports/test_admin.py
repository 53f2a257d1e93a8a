"""Export jobs in the admin (issue 15, holes 4 and 5): a selection too large to stream starts a job, the list shows
your own jobs with their progress and a download link, and the per-user limit is a message."""

import base64
import hashlib
import importlib
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Group
from django.urls import reverse

from exports import services
from exports.models import Export
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db
CHANGELIST = reverse("admin:profiles_candidate_changelist")
START = reverse("admin:exports_export_start")
EXPORTS = reverse("admin:exports_export_changelist")
GROUPS = "profiles.migrations.0004_create_recruiter_and_viewer_groups"
GRANTS = "exports.migrations.0002_export_permissions_for_recruiter_and_viewer"


def member_of(group: str, username: str):
    """Staff in a group as the migrations make it: the groups' migration, then the exports' grants (the admin tests'
    groups fixture runs the first again, which sets the groups' permissions afresh)."""
    importlib.import_module(GROUPS).create_groups(django_apps, None)
    importlib.import_module(GRANTS).grant(django_apps, None)
    user = UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    return user


@pytest.fixture
def recruiter(db):
    return member_of("Recruiter", "rita")


@pytest.fixture
def recruiter_client(client, recruiter):
    client.force_login(recruiter)
    return client


@pytest.fixture
def viewer(db):
    return member_of("Viewer", "vera")


def export_action(client, query: str = "", select_across: bool = True):
    ids = [str(pk) for pk in CandidateFactory._meta.model.objects.values_list("pk", flat=True)]
    return client.post(
        f"{CHANGELIST}?{query}",
        {"action": "export_csv", ACTION_CHECKBOX_NAME: ids, "select_across": "1" if select_across else "0"},
    )


def test_issue_15_hole_4_a_selection_too_large_to_stream_goes_to_an_export_job(recruiter_client, recruiter, settings):
    settings.EXPORT_STREAM_MAX_ROWS = 2
    for i in range(3):
        CandidateFactory(name=f"Person {i}", country_code="DE")

    response = export_action(recruiter_client, "country=DE")

    assert response.status_code == 302
    page = recruiter_client.get(response["Location"])
    assert page.status_code == 200
    assert "more than 2 candidates" in page.content.decode()
    assert "country=DE" in page.content.decode()
    started = recruiter_client.post(START, {"format": "csv", "query": "country=DE"}, follow=True)
    [export] = Export.objects.filter(owner=recruiter)
    assert (export.format, export.query, export.status) == ("csv", "country=DE", "queued")
    assert f"Export {export.pk} started" in started.content.decode()
    assert "/admin/profiles/candidate/{pk}/change/" in export.row_url


def test_issue_15_hole_4_a_selection_within_the_limit_still_streams(recruiter_client, settings):
    settings.EXPORT_STREAM_MAX_ROWS = 3
    for i in range(3):
        CandidateFactory(name=f"Person {i}")

    response = export_action(recruiter_client)

    assert response.status_code == 200
    assert len(b"".join(response.streaming_content).decode().splitlines()) == 4
    assert not Export.objects.exists()


def test_issue_15_hole_4_the_list_shows_your_own_exports_with_progress_and_a_download_link(recruiter_client, recruiter):
    CandidateFactory()
    mine = services.export_run(
        export_id=services.export_create(owner=recruiter, format="csv", query="", row_url="u/{pk}").pk
    )
    theirs = services.export_create(owner=UserFactory(username="other"), format="csv", query="", row_url="u/{pk}")

    page = recruiter_client.get(EXPORTS).content.decode()

    assert reverse("admin:exports_export_download", args=[mine.pk]) in page
    assert "value='100'" in page
    assert f"Export {theirs.pk} " not in page
    assert recruiter_client.get(reverse("admin:exports_export_change", args=[theirs.pk])).status_code == 302
    download = recruiter_client.get(reverse("api:export-download", args=[mine.pk]))  # the admin session works there
    assert download.status_code == 200


def test_issue_15_hole_5_over_the_limit_the_admin_says_how_many_are_running(recruiter_client, recruiter, settings):
    settings.EXPORT_MAX_CONCURRENT = 1
    services.export_create(owner=recruiter, format="csv", query="", row_url="u/{pk}")

    page = recruiter_client.post(START, {"format": "jsonl", "query": ""}, follow=True).content.decode()

    assert "You have 1 exports running (at most 1 at a time)" in page
    assert Export.objects.count() == 1


def test_nobody_adds_or_edits_a_jobs_internals_and_a_viewer_starts_no_job(client, recruiter, viewer, settings):
    client.force_login(recruiter)
    assert client.get(reverse("admin:exports_export_add")).status_code == 403
    client.force_login(viewer)  # read-only: starting a job writes a row
    assert client.post(START, {"format": "csv", "query": ""}).status_code == 403
    settings.EXPORT_STREAM_MAX_ROWS = 1
    CandidateFactory(), CandidateFactory()
    page = export_action(client)
    assert page.status_code == 302
    assert "too many to export at once" in client.get(page["Location"]).content.decode()
    assert not Export.objects.exists()


# --- The admin's streamed exports take a slot too (issue 15, hole 5) ------------------------------------------------


def hold_every_slot(user, settings) -> list:
    """The user already runs EXPORT_MAX_CONCURRENT exports (streams, here)."""
    settings.EXPORT_MAX_CONCURRENT = 2
    queryset = CandidateFactory._meta.model.objects.all()
    return [services.export_stream_start(user=user, queryset=queryset) for _ in range(2)]


def test_issue_15_hole_5_the_candidate_csv_action_is_refused_with_a_message_when_every_slot_is_held(
    recruiter_client, recruiter, settings
):
    CandidateFactory(name="Ada Quill")
    held = hold_every_slot(recruiter, settings)

    refused = export_action(recruiter_client, select_across=False)

    assert refused.status_code == 302, "a stream over the per-user limit"
    assert not getattr(refused, "streaming", False)
    page = recruiter_client.get(refused["Location"]).content.decode()
    assert "You have 2 exports running (at most 2 at a time)" in page
    assert services.export_streams_running(user=recruiter) == 2
    for slot in held:
        slot.release()


def test_issue_15_hole_5_the_candidate_csv_action_holds_a_slot_until_its_stream_is_read(recruiter_client, recruiter):
    CandidateFactory(name="Ada Quill")

    streaming = export_action(recruiter_client, select_across=False)

    assert streaming.status_code == 200
    assert services.export_streams_running(user=recruiter) == 1
    assert "Ada Quill" in b"".join(streaming.streaming_content).decode()  # the test client closes it once read
    assert services.export_streams_running(user=recruiter) == 0


def test_issue_15_hole_5_the_shortlist_exports_are_refused_with_a_message_when_every_slot_is_held(
    recruiter_client, recruiter, settings
):
    from profiles.models import Shortlist, ShortlistEntry

    shortlist = Shortlist.objects.create(owner=recruiter, name="Backend Berlin")
    ShortlistEntry.objects.create(shortlist=shortlist, candidate=CandidateFactory(name="Ada Quill"))
    held = hold_every_slot(recruiter, settings)

    download = lambda: recruiter_client.get(reverse("admin:profiles_shortlist_export", args=[shortlist.pk]))  # noqa: E731
    action = lambda: recruiter_client.post(  # noqa: E731
        reverse("admin:profiles_shortlist_changelist"), {"action": "export_csv", ACTION_CHECKBOX_NAME: [shortlist.pk]}
    )

    for send in (download, action):
        refused = send()
        assert refused.status_code == 302
        assert not getattr(refused, "streaming", False)
        page = recruiter_client.get(refused["Location"]).content.decode()
        assert "You have 2 exports running (at most 2 at a time)" in page
    held[0].release()
    streaming = recruiter_client.get(reverse("admin:profiles_shortlist_export", args=[shortlist.pk]))
    assert streaming.status_code == 200
    assert services.export_streams_running(user=recruiter) == 2
    assert "Ada Quill" in b"".join(streaming.streaming_content).decode()
    assert services.export_streams_running(user=recruiter) == 1
    held[1].release()


# --- Downloads from the exports app's own admin (issue 15, hole 4) -------------------------------------------------


def test_issue_15_hole_4_the_admin_serves_your_own_done_file_whole_and_nobody_elses(recruiter_client, recruiter):
    CandidateFactory()
    mine = services.export_run(
        export_id=services.export_create(owner=recruiter, format="csv", query="", row_url="u/{pk}").pk
    )
    queued = services.export_create(owner=recruiter, format="jsonl", query="", row_url="u/{pk}")
    theirs = services.export_run(
        export_id=services.export_create(
            owner=UserFactory(username="other"), format="csv", query="", row_url="u/{pk}"
        ).pk
    )
    download_url = reverse("admin:exports_export_download", args=[mine.pk])

    listing = recruiter_client.get(EXPORTS).content.decode()
    download = recruiter_client.get(download_url)
    not_ready = recruiter_client.get(reverse("admin:exports_export_download", args=[queued.pk]))
    other = recruiter_client.get(reverse("admin:exports_export_download", args=[theirs.pk]))

    assert download_url in listing
    assert "/api/" not in listing
    assert download.status_code == 200
    body = b"".join(download.streaming_content)
    assert int(download["Content-Length"]) == len(body) == mine.file_size
    digest = base64.b64encode(hashlib.sha256(body).digest()).decode()
    assert download["Repr-Digest"] == f"sha-256=:{digest}:"
    assert not_ready.status_code == 302
    assert "its file is not ready" in recruiter_client.get(not_ready["Location"]).content.decode()
    assert other.status_code == 404


def test_the_domain_admin_does_not_know_the_exports_app():
    """profiles is the floor: even by permission names or URL names, it does not reach the exports app above it."""
    for source in Path(__file__).resolve().parents[2].joinpath("profiles").rglob("*.py"):
        text = source.read_text()
        assert "exports.add_export" not in text, source
        assert "admin:exports_" not in text, source
        assert "from exports" not in text, source
        assert "import exports" not in text, source
