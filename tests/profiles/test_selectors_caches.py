"""What the selectors keep in the shared cache is seen, and forgotten, by every process."""

import pytest
from django.core.cache import cache

from profiles import selectors
from profiles.models import SkillAlias
from tests.factories import CandidateFactory, SkillFactory

pytestmark = pytest.mark.django_db


def test_the_sidebar_choices_come_from_the_shared_cache_until_an_import_forgets_them():
    CandidateFactory(country_code="DE")
    assert selectors.candidate_filter_choices().countries == ["DE"]
    CandidateFactory(country_code="FR")

    assert selectors.candidate_filter_choices().countries == ["DE"]  # cached, in Redis, for every process
    assert cache.get(selectors.FILTER_CHOICES_KEY).countries == ["DE"]
    selectors.candidate_filter_choices_forget()
    assert sorted(selectors.candidate_filter_choices().countries) == ["DE", "FR"]


def test_a_new_vocabulary_version_makes_every_process_read_the_vocabulary_again():
    first = selectors.skill_vocabulary()
    assert selectors.skill_vocabulary() is first  # the same version: this process's copy
    skill = SkillFactory(slug="zig", name="Zig")
    SkillAlias.objects.create(label="ziglang", skill=skill)

    selectors.skill_vocabulary_changed()  # what a seed or an edit of the vocabulary does

    fresh = selectors.skill_vocabulary()
    assert fresh is not first
    assert fresh.slug_of("ziglang") == "zig"
    assert "ziglang" in fresh.words


def test_a_process_that_finds_no_version_publishes_one_for_the_others():
    cache.delete(selectors.VOCABULARY_VERSION_KEY)

    selectors.skill_vocabulary()

    assert cache.get(selectors.VOCABULARY_VERSION_KEY)
