"""Facet counts of a search, bounded whatever its size, and the lists a candidate may be added to."""

import pytest
from django.core.cache import cache

from jobs import services as job_services
from profiles import workspace
from profiles.models import Candidate, Shortlist
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def three():
    CandidateFactory(country_code="FR", badges=["Rockstar"], spoken_languages=["French", "English"])
    CandidateFactory(country_code="FR", badges=[], spoken_languages=["French"])
    CandidateFactory(country_code="DE", badges=["Rockstar"], spoken_languages=[])
    cache.clear()


def test_a_small_search_is_counted_by_each_facet(three):
    counts = workspace.facet_counts(queryset=Candidate.objects.filter(country_code="FR"))

    assert counts.by_facet == {"country": {"FR": 2}, "badge": {"Rockstar": 1}, "language": {"French": 2, "English": 1}}
    assert not counts.estimated


def test_the_whole_database_is_counted_once_and_cached(three, django_assert_num_queries):
    first = workspace.facet_counts(queryset=None)
    with django_assert_num_queries(0):
        again = workspace.facet_counts(queryset=None)

    assert first == again
    assert first.of("country", "FR") == 2
    assert first.of("badge", "Rockstar") == 2


def test_a_search_larger_than_the_cap_has_no_counts(three, monkeypatch):
    monkeypatch.setattr(workspace, "FACET_EXACT_ROWS", 2)

    assert workspace.facet_counts(queryset=Candidate.objects.all()).by_facet == {}
    assert workspace.facet_counts(queryset=Candidate.objects.filter(country_code="DE")).of("country", "DE") == 1


def test_a_search_that_finds_nobody_counts_nothing(three):
    assert workspace.facet_counts(queryset=Candidate.objects.none()).of("country", "FR") is None


def test_jobs_pipelines_and_shortlists_are_offered_apart():
    owner, other = UserFactory(), UserFactory()
    mine = Shortlist.objects.create(owner=owner, name="Backend")
    Shortlist.objects.create(owner=other, name="Theirs")
    job = job_services.job_create(user=owner, title="Go engineer", description="Requirements: Go.").job
    job_services.job_create(user=other, title="Not mine", description="Requirements: Rust.")

    assert list(workspace.shortlists_to_add_to(user=owner)) == [mine]
    assert list(workspace.pipelines_to_add_to(user=owner)) == [job.pipeline]
