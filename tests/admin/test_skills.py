"""Editing the vocabulary in the admin reaches every process's copy of it."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from profiles.models import SkillAlias
from profiles.selectors import VOCABULARY_VERSION_KEY, skill_vocabulary
from tests.factories import SkillFactory

pytestmark = pytest.mark.django_db


def test_an_alias_added_in_the_admin_is_in_the_vocabulary_at_once(admin_client, django_capture_on_commit_callbacks):
    zig = SkillFactory(slug="zig", name="Zig")
    assert skill_vocabulary().slug_of("ziglang") is None  # this process holds a copy
    version = cache.get(VOCABULARY_VERSION_KEY)

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            reverse("admin:profiles_skillalias_add"), {"label": "ziglang", "skill": zig.pk, "_save": "Save"}
        )

    assert response.status_code == 302
    assert SkillAlias.objects.filter(label="ziglang", skill=zig).exists()
    assert cache.get(VOCABULARY_VERSION_KEY) != version
    assert skill_vocabulary().slug_of("ziglang") == "zig"
