"""GET /api/v1/jobs/{id}/matches/ and GET /api/v1/candidates/{id}/similar/: stored criteria ranked as
POST /jobs/match/ ranks a description's, in the same result shape (issue 16)."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from jobs import services
from profiles.search import candidates_refresh_search_columns
from tests.api.conftest import _client_for
from tests.api.test_job_match import DESCRIPTION, _candidate, _error
from tests.api.test_job_match import pool as pool  # the fixture, shared with the match endpoint
from tests.api.test_job_match import widened as widened
from tests.api.test_schema import schema as schema  # module-scoped: the schema is generated once
from tests.factories import ContributionFactory, RepositoryFactory, UserFactory

pytestmark = pytest.mark.django_db

RESULT_KEYS = {"id", "url", "name", "title", "company", "location", "match", "matched", "missing", "evidence"}


def _user(username: str, *, candidates: bool = True, jobs: tuple[str, ...] = ("view", "add")):
    user = UserFactory(username=username)
    perms = Permission.objects.filter(content_type__app_label="jobs", codename__in=[f"{a}_job" for a in jobs])
    user.user_permissions.add(*perms)
    if candidates:
        user.user_permissions.add(Permission.objects.get(codename="view_candidate", content_type__app_label="profiles"))
    return user


@pytest.fixture
def recruiter(db):
    return _user("recruiter")


@pytest.fixture
def recruiter_api(recruiter):
    return _client_for(recruiter)


@pytest.fixture
def job(recruiter, pool):
    # Titled as the description's first line: a shorter title would be read above it as the role, and the stored
    # keywords would differ from those of the description posted to jobs/match/ (which the tests compare with).
    return services.job_create(user=recruiter, title=DESCRIPTION.split("\n", 1)[0], description=DESCRIPTION).job


def matches(job, **query) -> str:
    url = reverse("api:job-matches", kwargs={"pk": job.pk})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def similar(candidate_id: int, **query) -> str:
    url = reverse("api:candidate-similar", kwargs={"pk": candidate_id})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def ids(body) -> list[int]:
    return [row["id"] for row in body["results"]]


# --- GET /jobs/{id}/matches/ -----------------------------------------------------------------------------------------


def test_a_job_ranks_its_stored_criteria_exactly_as_the_match_endpoint_ranks_its_description(recruiter_api, job, pool):
    response = recruiter_api.get(matches(job))

    assert response.status_code == 200, response.json()
    body = response.json()
    assert set(body) == {"job", "criteria", "results", "next", "warnings"}
    assert body["job"].endswith(reverse("api:job-detail", kwargs={"pk": job.pk}))
    assert body["criteria"] == recruiter_api.get(reverse("api:job-detail", kwargs={"pk": job.pk})).json()["criteria"]
    assert ids(body) == [pool["ada"].pk, pool["bo"].pk, pool["cy"].pk]
    assert all(set(row) == RESULT_KEYS for row in body["results"])
    ada = body["results"][0]
    assert ada["missing"] == []
    assert ada["matched"][0] == {"skill": "go", "score": 9, "required": True}
    assert ada["evidence"][0]["repository"] == "ada/service"
    assert body["results"][-1]["missing"] == ["kafka"]
    assert (body["next"], body["warnings"]) == (None, [])
    posted = recruiter_api.post(reverse("api:job-match"), {"description": DESCRIPTION}, format="json").json()
    assert body["results"] == posted["results"]


def test_the_stored_criteria_rank_not_the_description_once_edited(recruiter, recruiter_api, job, pool):
    services.job_update(job=job, user=recruiter, criteria={"required": [{"skill": "go", "min_score": 10}]})

    body = recruiter_api.get(matches(job)).json()

    assert body["criteria"]["required"] == [{"skill": "go", "min_score": 10}]
    assert ids(body) == [pool["cy"].pk, pool["ada"].pk, pool["bo"].pk], "only Cy's Go (10) reaches the new minimum"
    assert [row["missing"] for row in body["results"]] == [[], ["go"], ["go"]]


def test_strict_leaves_out_whoever_misses_a_required_skill_and_a_bad_value_is_a_400(recruiter_api, job, pool):
    assert ids(recruiter_api.get(matches(job, strict=1)).json()) == [pool["ada"].pk, pool["bo"].pk]
    assert ids(recruiter_api.get(matches(job, strict="true")).json()) == [pool["ada"].pk, pool["bo"].pk]
    assert "strict" in _error(recruiter_api.get(matches(job, strict="maybe")))["details"]


def test_candidate_filters_narrow_the_ranked_pool(recruiter_api, job, pool):
    eve = _candidate("Eve", {"go": 9, "postgresql": 9, "kafka": 9}, country="FR")
    _candidate("Fay", {"go": 9, "postgresql": 9, "kafka": 9}, country="FR", years=1)

    assert ids(recruiter_api.get(matches(job, country="FR", min_years_coding=5)).json()) == [eve.pk]
    assert ids(recruiter_api.get(matches(job, company="Nobody")).json()) == []


@pytest.mark.parametrize("query", [{"skill": "go"}, {"q": "kafka"}, {"ordering": "-match"}, {"nope": "1"}])
def test_ranking_or_unknown_filters_are_a_400(recruiter_api, job, query):
    _error(recruiter_api.get(matches(job, **query)))


def test_pages_follow_the_ranking_without_repeats_or_gaps(recruiter_api, job, pool):
    everyone = ids(recruiter_api.get(matches(job)).json())
    seen, url = [], matches(job, page_size=1)
    while url:
        body = recruiter_api.get(url).json()
        assert len(body["results"]) <= 1
        seen += ids(body)
        url = body["next"]

    assert seen == everyone
    assert len(seen) == 3
    _error(recruiter_api.get(matches(job, cursor="not-a-cursor")))


def test_a_job_without_skills_ranks_nobody_and_says_why(recruiter, recruiter_api, pool):
    job = services.job_create(user=recruiter, title="Reception", description="A friendly person for the phones.").job

    body = recruiter_api.get(matches(job)).json()

    assert (body["results"], body["next"]) == ([], None)
    assert any("No skill" in warning for warning in body["warnings"])


def test_only_a_job_you_may_read_answers(recruiter, job, pool):
    colleague = _client_for(_user("colleague"))
    superuser = _client_for(UserFactory(username="root", is_superuser=True))

    assert _error(colleague.get(matches(job)), 404)["code"] == "not_found"
    assert superuser.get(matches(job)).status_code == 200
    job.shared = True
    job.save(update_fields=["shared"])
    assert ids(colleague.get(matches(job)).json()) == [pool["ada"].pk, pool["bo"].pk, pool["cy"].pk]
    missing = reverse("api:job-matches", kwargs={"pk": job.pk + 1000})
    assert _error(colleague.get(missing), 404)["code"] == "not_found"


def test_matches_need_a_login_and_both_view_permissions(anonymous, recruiter, job):
    job.shared = True
    job.save(update_fields=["shared"])
    no_candidates = _client_for(_user("no-candidates", candidates=False))
    no_jobs = _client_for(_user("no-jobs", jobs=()))

    assert _error(anonymous.get(matches(job)), 401)["code"] == "not_authenticated"
    assert "profiles.view_candidate" in _error(no_candidates.get(matches(job)), 403)["message"]
    assert "jobs.view_job" in _error(no_jobs.get(matches(job)), 403)["message"]


# --- GET /candidates/{id}/similar/ -----------------------------------------------------------------------------------


@pytest.fixture
def peers(pool):
    """Gus's work is Go, PostgreSQL and Kafka; Hal is his twin, Ivy a weaker one, Jo knows Go alone."""
    gus = _candidate("Gus", {"go": 9, "postgresql": 9, "kafka": 8, "rust": 5}, commits=80)
    ContributionFactory(
        candidate=gus,
        repository=RepositoryFactory(full_name="gus/stream", topic_slugs=["kafka", "stream-processing"]),
        commits=200,
        active_months=12,
        is_current=True,
    )
    return {
        "gus": gus,
        "hal": _candidate("Hal", {"go": 9, "postgresql": 8, "kafka": 8, "rust": 6}, commits=100),
        "ivy": _candidate("Ivy", {"go": 8, "postgresql": 7, "kafka": 6}),
        "jo": _candidate("Jo", {"go": 10}),
        **pool,
    }


def test_similar_candidates_rank_the_twin_first_and_leave_the_candidate_out(recruiter_api, peers):
    response = recruiter_api.get(similar(peers["gus"].pk))

    assert response.status_code == 200, response.json()
    body = response.json()
    assert set(body) == {"candidate", "criteria", "results", "next"}
    assert body["candidate"].endswith(reverse("api:candidate-detail", kwargs={"pk": peers["gus"].pk}))
    assert body["criteria"] == {
        "required": [
            {"skill": "go", "min_score": 7},
            {"skill": "postgresql", "min_score": 7},
            {"skill": "kafka", "min_score": 6},
        ],
        "preferred": [{"skill": "rust"}],
        "excluded": [],
        "min_years_coding": None,
        "countries": [],
        "remote": None,
        "keywords": ["stream processing"],
        "ignored": [],
        "unrecognised": [],
    }
    ranked = ids(body)
    assert peers["gus"].pk not in ranked
    assert ranked[:2] == [peers["ada"].pk, peers["hal"].pk], "the two who have all three, with Rust and recent work"
    assert peers["di"].pk not in ranked, "none of Gus's skills"
    assert ranked.index(peers["ivy"].pk) < ranked.index(peers["jo"].pk)
    assert all(set(row) == RESULT_KEYS for row in body["results"])
    jo = next(row for row in body["results"] if row["id"] == peers["jo"].pk)
    assert jo["missing"] == ["postgresql", "kafka"]


def test_similar_accepts_strict_filters_and_pages(recruiter_api, peers):
    strict = ids(recruiter_api.get(similar(peers["gus"].pk, strict=1)).json())
    assert strict == [peers["ada"].pk, peers["hal"].pk, peers["ivy"].pk]
    assert ids(recruiter_api.get(similar(peers["gus"].pk, country="FR")).json()) == []

    everyone = ids(recruiter_api.get(similar(peers["gus"].pk)).json())
    seen, url = [], similar(peers["gus"].pk, page_size=2)
    while url:
        body = recruiter_api.get(url).json()
        seen += ids(body)
        url = body["next"]
    assert seen == everyone


def test_similar_to_a_missing_candidate_is_a_404_and_it_needs_the_view_permission(anonymous, api, recruiter_api, peers):
    assert _error(recruiter_api.get(similar(peers["gus"].pk + 10_000)), 404)["code"] == "not_found"
    assert _error(anonymous.get(similar(peers["gus"].pk)), 401)["code"] == "not_authenticated"
    assert "profiles.view_candidate" in _error(api.get(similar(peers["gus"].pk)), 403)["message"]
    assert _error(recruiter_api.get(similar(peers["gus"].pk, skill="go")))


# --- OpenAPI ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "component", "keys"),
    [
        ("/api/v1/jobs/{id}/matches/", "JobMatchesResponse", {"job", "criteria", "results", "next", "warnings"}),
        ("/api/v1/candidates/{id}/similar/", "SimilarCandidatesResponse", {"candidate", "criteria", "results", "next"}),
    ],
)
def test_both_endpoints_are_documented_with_the_filters_strict_and_the_match_result(schema, path, component, keys):
    get = schema["paths"][path]["get"]
    documented = {p["name"]: p for p in get["parameters"]}
    answer = schema["components"]["schemas"][component]

    assert {"id", "strict", "cursor", "page_size", "country", "location", "min_years_coding"} <= documented.keys()
    assert not {"skill", "any_skill", "q", "ordering"} & documented.keys(), "the criteria rank: refused here"
    assert all(p.get("description") for name, p in documented.items() if name != "id"), documented
    assert answer["properties"]["results"]["items"]["$ref"].endswith("/MatchResult")
    assert set(answer["properties"]) == keys
    assert "round(40 × required fit" in get["description"]


def test_a_page_costs_a_fixed_number_of_queries_whatever_its_size(
    recruiter_api, job, peers, django_assert_max_num_queries
):
    for n in range(6):
        _candidate(f"Extra{n}", {"go": 6, "kafka": 6, "postgresql": 6}, commits=10 + n)

    with django_assert_max_num_queries(9):
        assert len(recruiter_api.get(matches(job)).json()["results"]) == 13  # the pool of 14 less Di (no skill)
    with django_assert_max_num_queries(11):
        assert len(recruiter_api.get(similar(peers["gus"].pk)).json()["results"]) == 12  # less Gus


def test_widen_ranks_a_stored_jobs_related_skills_as_the_match_endpoint_does(recruiter_api, job, pool, widened):
    pool["bo"].summary = "A senior engineer."  # a keyword of the description's role line
    pool["bo"].save()
    candidates_refresh_search_columns(candidate_ids=[pool["bo"].pk])
    body = recruiter_api.get(matches(job, widen=1)).json()
    ranked = ids(body)

    assert ranked.index(widened["rust"].pk) < ranked.index(widened["zig"].pk) < ranked.index(widened["nothing"].pk)
    assert ranked[-1] == widened["zig only"].pk
    zig = body["results"][ranked.index(widened["zig"].pk)]
    assert zig["matched"][-1] == {"skill": "zig", "score": 8, "required": False, "related_to": "rust"}
    posted = recruiter_api.post(reverse("api:job-match") + "?widen=1", {"description": DESCRIPTION}, format="json")
    assert body["criteria"] == posted.json()["criteria"]
    assert body["results"] == posted.json()["results"]
    assert widened["zig only"].pk not in ids(recruiter_api.get(matches(job, widen=1, strict=1)).json())


def test_without_widen_a_jobs_matches_are_unchanged_and_a_bad_value_is_a_400(recruiter_api, job, pool, widened):
    from profiles.models import RelatedSkill

    default = recruiter_api.get(matches(job)).content
    off = [recruiter_api.get(matches(job, widen=value)).content for value in ("0", "false")]
    RelatedSkill.objects.all().delete()

    assert off == [default, default]
    assert recruiter_api.get(matches(job)).content == default
    assert "widen" in _error(recruiter_api.get(matches(job, widen="maybe")))["details"]


def test_widen_is_documented_on_both_job_endpoints_with_the_related_to_marker(schema):
    post = {p["name"]: p for p in schema["paths"]["/api/v1/jobs/match/"]["post"]["parameters"]}
    get = {p["name"]: p for p in schema["paths"]["/api/v1/jobs/{id}/matches/"]["get"]["parameters"]}
    matched = schema["components"]["schemas"]["MatchedSkill"]

    assert post["widen"] == get["widen"]
    assert sorted(post["widen"]["schema"]["enum"]) == ["0", "1", "false", "true"]
    assert "stands in for the skill it goes with at 0.5 of its credit" in post["widen"]["description"]
    assert "related_to" in matched["properties"]
    assert "related_to" not in matched["required"]


def test_each_match_links_to_its_candidates_detail(recruiter_api, job):
    body = recruiter_api.get(matches(job)).json()

    assert body["results"]
    for row in body["results"]:
        assert row["url"] == f"http://testserver{reverse('api:candidate-detail', kwargs={'pk': row['id']})}"
        assert recruiter_api.get(row["url"]).json()["id"] == row["id"]
