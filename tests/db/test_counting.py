"""Counting at scale: exact for small sets, PostgreSQL's estimates for large ones."""

import pytest
from django.db import connection

from db import counting
from profiles.models import Candidate
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db


def test_a_small_result_is_counted_exactly():
    CandidateFactory.create_batch(3, country_code="DE")
    CandidateFactory(country_code="FR")

    assert counting.queryset_count(Candidate.objects.filter(country_code="DE")) == (3, False)
    assert counting.queryset_count(Candidate.objects.all()) == (4, False)


def test_above_the_threshold_the_planners_estimate_stands_in(django_assert_num_queries):
    CandidateFactory.create_batch(5)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE profiles_candidate")

    with django_assert_num_queries(1):  # pg_class only: no COUNT(*)
        count, estimated = counting.queryset_count(Candidate.objects.all(), exact_below=2)
    filtered, filtered_estimated = counting.queryset_count(Candidate.objects.filter(country_code="DE"), exact_below=0)

    assert (count, estimated) == (5, True)
    assert filtered_estimated
    assert filtered >= 1


def test_common_values_count_scalars_and_array_elements():
    CandidateFactory.create_batch(2, country_code="DE", badges=["Rockstar", "Top School"])
    CandidateFactory(country_code="FR", badges=["Rockstar"])
    CandidateFactory(country_code="", badges=[])

    assert counting.common_values(Candidate, "country_code", limit=5) == [("DE", 2), ("FR", 1)]
    assert counting.common_values(Candidate, "badges", limit=5, elements=True) == [("Rockstar", 3), ("Top School", 2)]


def slow(queryset):
    """Each row costs 20 ms to filter: an exact count of a few rows that still takes a while."""
    from django.db.models import BooleanField
    from django.db.models.expressions import RawSQL

    return queryset.filter(RawSQL("pg_sleep(0.02) IS NOT NULL", [], output_field=BooleanField()))


def statement_timeout() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        return cursor.fetchone()[0]


def test_an_exact_count_that_overruns_its_budget_gives_way_to_the_estimate():
    CandidateFactory.create_batch(5)
    before = statement_timeout()

    count, estimated = counting.queryset_count(slow(Candidate.objects.all()), budget_ms=10)

    assert estimated
    assert count >= 0
    assert statement_timeout() == before  # the budget ended with its savepoint
    assert Candidate.objects.count() == 5  # and the transaction goes on


def test_an_exact_count_within_its_budget_is_exact_and_leaves_the_timeout_as_it_was():
    CandidateFactory.create_batch(2, country_code="DE")
    before = statement_timeout()

    assert counting.queryset_count(Candidate.objects.filter(country_code="DE"), budget_ms=5000) == (2, False)
    assert statement_timeout() == before


def test_a_plan_priced_above_the_limit_is_estimated_without_running_it(django_assert_num_queries):
    CandidateFactory.create_batch(3, country_code="DE")

    with django_assert_num_queries(1):  # EXPLAIN only
        count, estimated = counting.queryset_count(Candidate.objects.filter(country_code="DE"), max_cost=0)

    assert estimated
    assert count >= 1
