"""This process's copy of the skill vocabulary: kept while its version in the shared cache stands, read again by every
process once a seed or an edit publishes a new one."""

import pytest
from django.core.cache import cache

from profiles import vocabulary_copy
from profiles.models import SkillAlias
from tests.factories import SkillFactory

pytestmark = pytest.mark.django_db


def test_a_new_vocabulary_version_makes_every_process_read_the_vocabulary_again():
    first = vocabulary_copy.skill_vocabulary()
    assert vocabulary_copy.skill_vocabulary() is first  # the same version: this process's copy
    skill = SkillFactory(slug="zig", name="Zig")
    SkillAlias.objects.create(label="ziglang", skill=skill)

    vocabulary_copy.skill_vocabulary_changed()  # what a seed or an edit of the vocabulary does

    fresh = vocabulary_copy.skill_vocabulary()
    assert fresh is not first
    assert fresh.slug_of("ziglang") == "zig"
    assert "ziglang" in fresh.words


def test_a_process_that_finds_no_version_publishes_one_for_the_others():
    cache.delete(vocabulary_copy.VOCABULARY_VERSION_KEY)

    vocabulary_copy.skill_vocabulary()

    assert cache.get(vocabulary_copy.VOCABULARY_VERSION_KEY)
