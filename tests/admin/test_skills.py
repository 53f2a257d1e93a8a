"""Editing the vocabulary in the admin reaches every process's copy of it."""

import pytest
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.urls import reverse

from profiles.models import Skill, SkillAlias
from profiles.vocabulary_copy import VOCABULARY_VERSION_KEY, skill_vocabulary
from tests.factories import CandidateSkillFactory, SkillFactory

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


# Issue 14: a curator merges a skill an import created into the right one, from the skills' changelist.


def _merge_post(client, sources, **extra):
    data = {"action": "merge_skills", "_selected_action": [s.pk for s in sources], "index": "0", **extra}
    return client.post(reverse("admin:profiles_skill_changelist"), data)


def test_merging_a_skill_asks_which_skill_it_is_first(admin_client):
    created = SkillFactory(slug="amazon-web-services-y", name="amazon web services y")
    CandidateSkillFactory(skill=created, score=6)

    response = _merge_post(admin_client, [created])

    assert response.status_code == 200
    assert b'name="target"' in response.content
    assert b"amazon-web-services-y" in response.content
    assert Skill.objects.filter(pk=created.pk).exists()


def test_merging_a_skill_into_another_moves_its_candidates_and_makes_it_an_alias(
    admin_client, django_capture_on_commit_callbacks
):
    created = SkillFactory(slug="amazon-web-services-y", name="amazon web services y")
    candidate = CandidateSkillFactory(skill=created, score=6).candidate
    aws = Skill.objects.get(slug="aws")

    with django_capture_on_commit_callbacks(execute=True):
        response = _merge_post(admin_client, [created], target="aws", apply="1")

    assert response.status_code == 302
    assert not Skill.objects.filter(pk=created.pk).exists()
    assert list(candidate.skills.values_list("skill", "score")) == [(aws.pk, 6)]
    assert SkillAlias.objects.get(label="amazon-web-services-y").skill == aws
    assert skill_vocabulary().slug_of("amazon-web-services-y") == "aws"


@pytest.mark.parametrize("target", ["no-such-skill", "amazon-web-services-y"])
def test_a_merge_into_an_unknown_skill_or_itself_is_refused_on_the_page(admin_client, target):
    created = SkillFactory(slug="amazon-web-services-y", name="amazon web services y")

    response = _merge_post(admin_client, [created], target=target, apply="1")

    assert response.status_code == 200
    assert b"errornote" in response.content
    assert Skill.objects.filter(pk=created.pk).exists()


def test_only_users_who_may_change_skills_may_merge_them(client, django_user_model):
    created = SkillFactory(slug="amazon-web-services-y", name="amazon web services y")
    user = django_user_model.objects.create_user("vera", password="x", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_skill"))
    client.force_login(user)

    response = _merge_post(client, [created], target="aws", apply="1")

    assert Skill.objects.filter(pk=created.pk).exists()
    assert b"merge_skills" not in client.get(reverse("admin:profiles_skill_changelist")).content
    assert response.status_code in (200, 302)
