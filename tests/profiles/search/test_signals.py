"""The signals' own statements: how the page's evidence is read."""

import datetime as dt

import pytest
from django.db import connection

from profiles.models import Contribution, Repository
from profiles.search.signals import _EVIDENCE_ROWS_SQL, positional
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db

TOPICS = ["python", "go"]


def test_a_pages_evidence_reads_each_contributions_repository_by_its_key_not_every_repository_of_a_topic():
    # A page of 50 with four contributions each, among 5,000 repositories of which a fifth hold the topics (the
    # benchmark's shape). Reading every repository with one of the topics (a hash join's build side) costs with the
    # repositories' number, not the page's. Some of the page's work is on repositories without the topics, some has
    # no commit: neither is evidence.
    repositories = Repository.objects.bulk_create(
        Repository(full_name=f"acme/repo{n}", topic_slugs=TOPICS if n % 5 == 0 else ["cobol"]) for n in range(5_000)
    )
    page = [CandidateFactory() for _ in range(50)]
    Contribution.objects.bulk_create(
        Contribution(
            candidate=candidate,
            repository=repositories[(7 * n + k) * 5 % 5_000 + (k == 3)],  # the fourth on a repository of "cobol"
            commits=0 if k == 2 and n % 2 else 5 + k + n % 3,
            start=dt.date(2024, 1 + k, 1),
        )
        for n, candidate in enumerate(page)
        for k in range(4)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE profiles_repository")
        cursor.execute("ANALYZE profiles_contribution")
        sql, values = positional(
            _EVIDENCE_ROWS_SQL, {"topics": TOPICS, "ids": [c.pk for c in page], "today": dt.date(2026, 1, 1)}
        )
        cursor.execute("EXPLAIN " + sql, values)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute(sql, values)
        rows = cursor.fetchall()

    # Each contribution's repository by its key (a lookup per row), never a walk of the repositories (a hash join's
    # scan or a merge join's whole index).
    assert "Index Cond: (id = c.repository_id)" in plan, plan
    assert "Hash" not in plan, plan
    assert "Merge" not in plan, plan
    evidence = Contribution.objects.filter(candidate__in=page, commits__gt=0, repository__topic_slugs__overlap=TOPICS)
    assert sorted((row[0], row[1]) for row in rows) == sorted(
        evidence.values_list("candidate_id", "repository__full_name")
    )
    assert 0 < len(rows) < 4 * len(page)
    # Each candidate's work strongest first (here the later work, with more commits), with the topics it shares.
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)
    for candidate in page:
        commits = [row[2] for row in rows if row[0] == candidate.pk]
        assert commits == sorted(commits, reverse=True)
    assert all(row[5] == TOPICS for row in rows)
