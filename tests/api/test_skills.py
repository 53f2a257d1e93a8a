"""GET /api/v1/skills/: canonical skills with their aliases and how many candidates have them."""

import pytest
from django.urls import reverse

from profiles.models import Skill
from tests.factories import CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db
URL = reverse("api:skill-list")


def test_it_lists_a_skill_with_its_aliases_and_candidate_count(api):
    c = Skill.objects.get(slug="c")
    CandidateSkillFactory(skill=c), CandidateSkillFactory(skill=c)

    [row] = api.get(URL, {"search": "cprogramming"}).json()["results"]

    assert (row["slug"], row["name"], row["kind"], row["candidate_count"]) == ("c", "C", "language", 2)
    assert {"c", "c-language", "cprogramming-language"} <= set(row["aliases"])


def test_search_finds_slugs_and_aliases_by_prefix(api):
    results = api.get(URL, {"search": "golang", "page_size": 500}).json()["results"]

    assert [r["slug"] for r in results] == ["go"]


def test_kind_filters_and_unused_skills_count_zero(api):
    SkillFactory(slug="zz-unused-topic", kind=Skill.Kind.TOPIC)

    results = api.get(URL, {"kind": "topic", "search": "zz-unused"}).json()["results"]

    assert [(r["slug"], r["candidate_count"], r["aliases"]) for r in results] == [("zz-unused-topic", 0, [])]


def test_it_is_ordered_by_slug_and_paged(api):
    page = api.get(URL, {"page_size": 3}).json()

    slugs = [r["slug"] for r in page["results"]]
    assert slugs == sorted(slugs)
    assert api.get(page["next"]).json()["results"][0]["slug"] > slugs[-1]


def test_unknown_parameters_and_bad_values_are_a_400(api):
    assert api.get(URL, {"q": "python"}).json()["error"]["message"].startswith("Unknown parameter(s): q.")
    assert api.get(URL, {"kind": "hobby"}).status_code == 400


def test_a_page_runs_the_same_queries_whatever_its_size(api, django_assert_num_queries):
    SkillFactory.create_batch(20)  # enough skills for a full page even without the seeded vocabulary
    for size in (1, 20):
        with django_assert_num_queries(3):  # token, skills with counts, aliases
            assert len(api.get(URL, {"page_size": size}).json()["results"]) == size
