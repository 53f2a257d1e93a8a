"""GET /api/v1/skills/{slug}/related/: the skills that go with one, from the last refresh."""

import pytest
from django.urls import reverse

from profiles.services import related_skills_refresh
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db


def _url(slug: str) -> str:
    return reverse("api:skill-related", kwargs={"slug": slug})


@pytest.fixture
def refreshed() -> dict:
    """a-b in 2 of 4 candidates, a-c in 1: n(a) = 3, n(b) = 2, n(c) = 2; lift a-b = 2·4/(3·2), a-c = 1·4/(3·2)."""
    skills = {key: SkillFactory(slug=f"rel-{key}", name=f"Rel {key.upper()}") for key in "abc"}
    for held in ["a b", "a b", "a c", "c"]:
        candidate = CandidateFactory()
        for key in held.split():
            CandidateSkillFactory(candidate=candidate, skill=skills[key], score=7)
    related_skills_refresh(min_score=3, min_support=1, min_lift=0.5, per_skill=10)
    return skills


def test_it_lists_a_skill_s_related_skills_with_lift_and_support(api, refreshed):
    body = api.get(_url("rel-a")).json()

    assert body["skill"] == {"slug": "rel-a", "name": "Rel A", "kind": "skill"}
    assert [(r["slug"], r["name"], r["kind"], r["support"], round(r["lift"], 4)) for r in body["results"]] == [
        ("rel-b", "Rel B", "skill", 2, round(8 / 6, 4)),
        ("rel-c", "Rel C", "skill", 1, round(4 / 6, 4)),
    ]
    assert body["computed_at"] is not None


def test_limit_caps_the_list_and_a_bad_limit_is_a_400_in_the_one_error_shape(api, refreshed):
    assert [r["slug"] for r in api.get(_url("rel-a"), {"limit": 1}).json()["results"]] == ["rel-b"]

    for params in ({"limit": 0}, {"limit": 51}, {"limit": "many"}, {"top": 3}):
        response = api.get(_url("rel-a"), params)
        assert response.status_code == 400, params
        assert set(response.json()["error"]) == {"code", "message", "details"}
    assert api.get(_url("rel-a"), {"top": 3}).json()["error"]["message"].startswith("Unknown parameter(s): top.")


def test_a_skill_with_nothing_related_yet_has_an_empty_list(api):
    SkillFactory(slug="rel-lonely")

    assert api.get(_url("rel-lonely")).json() == {
        "skill": {"slug": "rel-lonely", "name": "Rel Lonely", "kind": "skill"},
        "computed_at": None,
        "results": [],
    }


def test_an_unknown_slug_is_a_404_in_the_one_error_shape(api):
    response = api.get(_url("no-such-skill"))

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert "no-such-skill" in response.json()["error"]["message"]


def test_it_needs_a_login_as_the_skill_list_does(anonymous, refreshed):
    response = anonymous.get(_url("rel-a"))

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert anonymous.get(reverse("api:skill-list")).status_code == 401


def test_it_reads_the_same_queries_whatever_the_limit(api, refreshed, django_assert_num_queries):
    for limit in (1, 10):
        with django_assert_num_queries(3):  # token, skill, related rows with their skills
            api.get(_url("rel-a"), {"limit": limit})


def test_the_schema_documents_it(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()

    operation = schema["paths"]["/api/v1/skills/{slug}/related/"]["get"]
    assert {"200", "404"} <= set(operation["responses"])
    assert [p["name"] for p in operation["parameters"] if p["in"] == "query"] == ["limit"]


def test_an_alias_leads_to_its_skill_as_the_skill_filters_do(api, refreshed):
    from profiles.models import SkillAlias

    SkillAlias.objects.create(label="rel-alpha", skill=refreshed["a"])

    body = api.get(_url("rel-alpha")).json()

    assert body["skill"]["slug"] == "rel-a"
    assert [r["slug"] for r in body["results"]] == ["rel-b", "rel-c"]


def test_the_format_parameter_is_accepted_as_on_every_endpoint(api, refreshed):
    response = api.get(_url("rel-a"), {"format": "json"})

    assert response.status_code == 200
    assert response.json()["skill"]["slug"] == "rel-a"
