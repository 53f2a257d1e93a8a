"""Notices (issue 18, GDPR Art. 14): who has not been told yet, the overdue count on the dashboard, and marking
notices as sent from the admin."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from privacy import notices
from privacy.models import PrivacyEvent, SourcingRecord
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db

NOW = timezone.now()
CHANGELIST = reverse("admin:privacy_sourcingrecord_changelist")


def _sourced(name: str, *, due_in_days: int, notified: bool = False) -> SourcingRecord:
    candidate = CandidateFactory(name=name)
    record, _ = SourcingRecord.objects.update_or_create(
        candidate=candidate,
        defaults={
            "sourced_at": NOW - dt.timedelta(days=30 - due_in_days),
            "notice_due_at": NOW + dt.timedelta(days=due_in_days),
            "notified_at": NOW - dt.timedelta(days=1) if notified else None,
            "notice_channel": SourcingRecord.NoticeChannel.EMAIL if notified else "",
        },
    )
    return record


@pytest.fixture
def records():
    return {
        "late": _sourced("Lena Late", due_in_days=-10),
        "later": _sourced("Lars Later", due_in_days=-2),
        "soon": _sourced("Sara Soon", due_in_days=5),
        "told": _sourced("Tom Told", due_in_days=-20, notified=True),
    }


def test_notices_due_are_those_not_told_the_most_urgent_first(records):
    assert [r.candidate.name for r in notices.notices_due()] == ["Lena Late", "Lars Later", "Sara Soon"]


def test_the_overdue_count_leaves_out_those_told_and_those_not_due_yet(records):
    assert notices.notices_overdue_count(now=NOW) == 2
    assert notices.notices_overdue_count(now=NOW + dt.timedelta(days=6)) == 3
    assert list(notices.notices_overdue(now=NOW).values_list("candidate__name", flat=True)) == [
        "Lena Late",
        "Lars Later",
    ]


def test_marking_sent_records_the_channel_and_time_once_and_logs_the_count(records, django_user_model):
    user = django_user_model.objects.create(username="olga")
    ids = [records["late"].candidate_id, records["told"].candidate_id]

    marked = notices.notices_mark_sent(candidate_ids=ids, channel="linkedin", user=user, at=NOW)

    assert marked == 1
    late, told = SourcingRecord.objects.get(pk=ids[0]), SourcingRecord.objects.get(pk=ids[1])
    assert (late.notified_at, late.notice_channel) == (NOW, "linkedin")
    assert told.notice_channel == "email"  # already told: unchanged
    event = PrivacyEvent.objects.get(kind=PrivacyEvent.Kind.NOTICE)
    assert (event.by, event.counts) == (user, {"notices": 1})
    assert notices.notices_mark_sent(candidate_ids=ids, channel="email", user=user) == 0
    assert PrivacyEvent.objects.filter(kind=PrivacyEvent.Kind.NOTICE).count() == 1


@pytest.mark.parametrize("channel", ["", "pigeon"])
def test_a_channel_that_is_none_of_the_choices_is_refused(records, channel):
    with pytest.raises(ValidationError):
        notices.notices_mark_sent(candidate_ids=[records["late"].candidate_id], channel=channel, user=None)
    assert not SourcingRecord.objects.filter(notified_at__isnull=False).exclude(pk=records["told"].pk).exists()


def test_a_notice_sent_in_the_future_is_refused(records):
    with pytest.raises(ValidationError):
        notices.notices_mark_sent(
            candidate_ids=[records["late"].candidate_id], channel="email", user=None, at=NOW + dt.timedelta(days=2)
        )


def test_the_admin_lists_overdue_notices_for_a_privacy_officer(records, client, officer):
    client.force_login(officer)

    html = client.get(CHANGELIST, {"notice": "overdue"}).content.decode()

    assert "Lena Late" in html
    assert "Lars Later" in html
    assert "Sara Soon" not in html
    assert "Tom Told" not in html
    assert "Overdue by 10 days" in html


def test_the_admin_action_asks_for_the_channel_then_marks_the_selected_as_sent(records, client, officer):
    client.force_login(officer)
    selected = {"action": "mark_notices_sent", "_selected_action": [records["late"].pk, records["soon"].pk]}

    page = client.post(CHANGELIST, selected)
    assert page.status_code == 200
    assert 'id="mark-notices-sent"' in page.content.decode()
    assert not SourcingRecord.objects.filter(pk=records["late"].pk, notified_at__isnull=False).exists()

    response = client.post(
        CHANGELIST, {**selected, "apply": "1", "channel": "phone", "sent_on": timezone.localdate().isoformat()}
    )

    assert response.status_code == 302
    assert sorted(SourcingRecord.objects.filter(notice_channel="phone").values_list("candidate__name", flat=True)) == [
        "Lena Late",
        "Sara Soon",
    ]


def test_a_past_day_is_recorded_as_that_day(records, client, officer):
    client.force_login(officer)
    day = timezone.localdate() - dt.timedelta(days=3)

    client.post(
        CHANGELIST,
        {
            "action": "mark_notices_sent",
            "_selected_action": [records["late"].pk],
            "apply": "1",
            "channel": "letter",
            "sent_on": day.isoformat(),
        },
    )

    assert timezone.localtime(SourcingRecord.objects.get(pk=records["late"].pk).notified_at).date() == day


def test_a_recruiter_has_no_notice_action(records, client, recruiter):
    client.force_login(recruiter)

    response = client.post(
        CHANGELIST,
        {
            "action": "mark_notices_sent",
            "_selected_action": [records["late"].pk],
            "apply": "1",
            "channel": "email",
            "sent_on": timezone.localdate().isoformat(),
        },
    )

    assert response.status_code == 403
    assert not SourcingRecord.objects.filter(pk=records["late"].pk, notified_at__isnull=False).exists()


def test_the_dashboard_shows_the_overdue_count_to_a_privacy_officer_only(records, client, officer, recruiter):
    client.force_login(officer)
    html = client.get(reverse("admin:index")).content.decode()
    assert "2 overdue privacy notices" in html
    assert f"{CHANGELIST}?notice=overdue" in html

    client.force_login(recruiter)
    assert 'id="dashboard-notices"' not in client.get(reverse("admin:index")).content.decode()


NOTICES_API = "/api/v1/privacy/notices/"


def test_the_api_lists_notices_due_the_most_urgent_first_for_a_privacy_officer(records, client, officer):
    client.force_login(officer)

    body = client.get(NOTICES_API).json()

    assert [r["name"] for r in body["results"]] == ["Lena Late", "Lars Later", "Sara Soon"]
    first = body["results"][0]
    assert (first["candidate_id"], first["overdue"], first["lawful_basis"]) == (
        records["late"].candidate_id,
        True,
        "legitimate_interest",
    )
    assert first["candidate_url"].endswith(f"/api/v1/candidates/{records['late'].candidate_id}/")
    overdue = client.get(NOTICES_API, {"overdue": "true"}).json()["results"]
    assert [r["name"] for r in overdue] == ["Lena Late", "Lars Later"]
    assert client.get(NOTICES_API, {"overdue": "soon"}).status_code == 400


def test_the_api_pages_by_cursor(records, client, officer):
    client.force_login(officer)

    page = client.get(NOTICES_API, {"page_size": 2}).json()
    rest = client.get(page["next"]).json()

    assert [r["name"] for r in page["results"] + rest["results"]] == ["Lena Late", "Lars Later", "Sara Soon"]


def test_the_api_refuses_a_recruiter(records, client, recruiter):
    client.force_login(recruiter)

    response = client.get(NOTICES_API)

    assert response.status_code == 403
    assert "privacy.view_sourcingrecord" in response.content.decode()


def _queries(client, url, params=None) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, params or {}).status_code == 200
    return len(queries)


@pytest.mark.parametrize("url", [CHANGELIST, NOTICES_API])
def test_the_notices_list_takes_as_many_queries_for_many_people_as_for_few(records, client, officer, url):
    client.force_login(officer)
    few = _queries(client, url, {"notice": "due"} if url == CHANGELIST else None)

    for n in range(10):
        _sourced(f"Person {n}", due_in_days=n - 5)

    assert _queries(client, url, {"notice": "due"} if url == CHANGELIST else None) == few
