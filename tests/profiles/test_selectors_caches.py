"""What the selectors keep in the shared cache is seen, and forgotten, by every process."""

import pytest
from django.core.cache import cache

from profiles import selectors
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db


def test_the_sidebar_choices_come_from_the_shared_cache_until_an_import_forgets_them():
    CandidateFactory(country_code="DE")
    assert selectors.candidate_filter_choices().countries == ["DE"]
    CandidateFactory(country_code="FR")

    assert selectors.candidate_filter_choices().countries == ["DE"]  # cached, in Redis, for every process
    assert cache.get(selectors.FILTER_CHOICES_KEY).countries == ["DE"]
    selectors.candidate_filter_choices_forget()
    assert sorted(selectors.candidate_filter_choices().countries) == ["DE", "FR"]
