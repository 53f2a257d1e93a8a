"""The skill's change page shows the related skills ("also consider"), with lift and support, read-only."""

import pytest
from django.urls import reverse

from profiles.services import related_skills_refresh
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def skills() -> dict:
    skills = {key: SkillFactory(slug=f"adm-{key}", name=f"Adm {key.upper()}") for key in "abc"}
    for held in ["a b", "a b", "a c", "c"]:
        candidate = CandidateFactory()
        for key in held.split():
            CandidateSkillFactory(candidate=candidate, skill=skills[key], score=7)
    related_skills_refresh(min_score=3, min_support=2, min_lift=1.0, per_skill=10)  # a-b only: 2·4/(3·2) = 1.33
    return skills


def test_the_skill_page_lists_its_related_skills_with_lift_and_support(admin_client, skills):
    response = admin_client.get(reverse("admin:profiles_skill_change", args=[skills["a"].pk]))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Also consider" in page
    assert reverse("admin:profiles_skill_change", args=[skills["b"].pk]) in page
    assert "Adm B" in page
    assert "<td>1.33</td><td>2</td>" in page
    assert "Adm C" not in page  # a-c is in one candidate, below the minimum support


def test_a_skill_without_related_skills_says_so(admin_client, skills):
    response = admin_client.get(reverse("admin:profiles_skill_change", args=[skills["c"].pk]))

    assert "None yet" in response.content.decode()


def test_the_suggestions_are_not_a_form_field(admin_client, skills):
    url = reverse("admin:profiles_skill_change", args=[skills["a"].pk])

    response = admin_client.post(
        url,
        {
            "slug": "adm-a",
            "name": "Adm A renamed",
            "kind": "skill",
            "aliases-TOTAL_FORMS": "0",
            "aliases-INITIAL_FORMS": "0",
            "_save": "Save",
        },
    )

    assert response.status_code == 302
    skills["a"].refresh_from_db()
    assert skills["a"].name == "Adm A renamed"
    assert skills["a"].related_skills.count() == 1
