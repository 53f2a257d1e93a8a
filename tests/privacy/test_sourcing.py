"""Sourcing records: written by the import (tests/privacy/test_import_refusal.py), backfilled by migration 0002 for
the candidates stored before, and merged with their candidates."""

import datetime as dt
import importlib

import pytest
from django.db import connection
from django.utils import timezone

from privacy.models import SourcingRecord
from profiles import services as profile_services
from tests.factories import CandidateFactory, SourceFileFactory

pytestmark = pytest.mark.django_db

MIGRATION = "privacy.migrations.0002_privacy_officer_group_and_sourcing_backfill"
BACKFILL_SQL = importlib.import_module(MIGRATION).BACKFILL_SQL


def test_the_backfill_gives_every_stored_candidate_a_record_from_their_first_file():
    candidate = CandidateFactory()
    first = SourceFileFactory(candidate=candidate)
    SourceFileFactory(candidate=candidate)
    without_file = CandidateFactory()

    with connection.cursor() as cursor:
        cursor.execute(BACKFILL_SQL)

    record = SourcingRecord.objects.get(candidate=candidate)
    assert (record.source_file_id, record.sourced_at) == (first.pk, candidate.created_at)
    assert record.lawful_basis == SourcingRecord.LawfulBasis.LEGITIMATE_INTEREST
    assert SourcingRecord.objects.get(candidate=without_file).source_file_id is None


def test_the_notice_is_due_a_calendar_month_after_sourcing():
    candidate = CandidateFactory()
    end_of_january = dt.datetime(2026, 1, 31, 12, tzinfo=dt.UTC)
    type(candidate).objects.filter(pk=candidate.pk).update(created_at=end_of_january)

    with connection.cursor() as cursor:
        cursor.execute(BACKFILL_SQL)

    assert SourcingRecord.objects.get(candidate=candidate).notice_due_at == dt.datetime(2026, 2, 28, 12, tzinfo=dt.UTC)


def test_a_merge_keeps_the_first_sourcing_and_the_first_notice():
    survivor, other = CandidateFactory(), CandidateFactory()
    now = timezone.now()
    SourcingRecord.objects.create(candidate=survivor, sourced_at=now, notice_due_at=now + dt.timedelta(days=30))
    earlier = now - dt.timedelta(days=10)
    SourcingRecord.objects.create(
        candidate=other,
        sourced_at=earlier,
        source_file_id=7,
        notice_due_at=earlier + dt.timedelta(days=30),
        notified_at=now - dt.timedelta(days=2),
        notice_channel=SourcingRecord.NoticeChannel.EMAIL,
    )

    profile_services.candidates_merge(survivor=survivor, others=[other], user=None)

    [record] = SourcingRecord.objects.all()
    assert record.candidate_id == survivor.pk
    assert (record.sourced_at, record.source_file_id) == (earlier, 7)
    assert record.notice_channel == SourcingRecord.NoticeChannel.EMAIL


def test_a_merge_moves_the_record_of_a_survivor_without_one():
    survivor, other = CandidateFactory(), CandidateFactory()
    SourcingRecord.objects.create(candidate=other, notice_due_at=timezone.now())

    profile_services.candidates_merge(survivor=survivor, others=[other], user=None)

    assert list(SourcingRecord.objects.values_list("candidate_id", flat=True)) == [survivor.pk]


def test_a_privacy_officer_changes_the_lawful_basis_and_a_recruiter_may_not(client, officer, recruiter):
    from django.urls import reverse

    candidate = CandidateFactory(name="Pia Example")
    SourcingRecord.objects.get_or_create(candidate=candidate, defaults={"notice_due_at": timezone.now()})
    url = reverse("admin:privacy_sourcingrecord_change", args=[candidate.pk])
    data = {"lawful_basis": "consent", "notified_at_0": "", "notified_at_1": "", "notice_channel": ""}

    client.force_login(recruiter)
    assert client.post(url, data).status_code == 403
    assert SourcingRecord.objects.get(pk=candidate.pk).lawful_basis == SourcingRecord.LawfulBasis.LEGITIMATE_INTEREST

    client.force_login(officer)
    response = client.post(url, data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert SourcingRecord.objects.get(pk=candidate.pk).lawful_basis == SourcingRecord.LawfulBasis.CONSENT
