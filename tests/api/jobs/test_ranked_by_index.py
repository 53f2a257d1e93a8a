"""The ranked endpoints (``POST jobs/match/``, ``GET jobs/{id}/matches/``, ``GET candidates/{id}/similar/``) are
answered by the ranking index when it runs (``X-Search-Backend: index``), page after page by their ``next`` links,
with the same rows, values and links as the SQL backend; and by SQL, saying why, when it is stopped."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from jobs import services
from privacy.services import candidate_erase
from profiles.models import Candidate, Skill
from profiles.search import candidates_refresh_search_columns
from tests.api.conftest import _client_for
from tests.factories import CandidateFactory, CandidateSkillFactory, UserFactory
from tests.searchindex.helpers import make_pool
from tests.searchindex.helpers_server import wait_until
from tests.searchindex.serving import GO_POST, HEADER, INDEX_BACKEND, SQL_BACKEND
from tests.searchindex.serving import serving as serving  # the fixture

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")  # the replica router reads from every alias

CRITERIA = {
    "required": [{"skill": "go", "min_score": 4}, {"skill": "postgresql", "min_score": 3}],
    "preferred": [{"skill": "kafka"}, {"skill": "rust"}],
    "countries": [],
    "keywords": ["backend"],
}


@pytest.fixture
def recruiter():
    user = UserFactory(username="recruiter")
    user.user_permissions.add(
        Permission.objects.get(codename="view_candidate", content_type__app_label="profiles"),
        *Permission.objects.filter(content_type__app_label="jobs", codename__in=["view_job", "add_job"]),
    )
    return user


@pytest.fixture
def pool():
    make_pool(seed=31, size=160)


def walk(client, settings, backend: str, url: str, *, body=None) -> tuple[list[dict], list[str | None], set[str]]:
    """Every page from ``url`` by its ``next`` links under ``backend``: the rows, the links and the headers seen."""
    settings.SEARCH_BACKEND = backend
    rows, links, headers = [], [], set()
    while url:
        response = client.post(url, body, format="json") if body is not None else client.get(url)
        assert response.status_code == 200, response.content
        headers.add(response.get(HEADER, ""))
        rows += response.json()["results"]
        url = response.json()["next"]
        links.append(url)
    return rows, links, headers


def the_same_by_index_and_sql(client, settings, url: str, *, body=None) -> list[dict]:
    by_index, index_links, index_headers = walk(client, settings, INDEX_BACKEND, url, body=body)
    by_sql, sql_links, sql_headers = walk(client, settings, SQL_BACKEND, url, body=body)
    assert index_headers == {"index"}
    assert sql_headers == {""}  # the SQL backend ranks without a word: it is the reference
    assert by_index == by_sql  # row for row: ids, matches, matched and missing skills, evidence
    assert index_links == sql_links  # the same cursors
    return by_index


@pytest.mark.parametrize("query", ["page_size=7", "page_size=9&widen=1", "page_size=11&country=DE"])
def test_a_pasted_description_is_ranked_by_the_index_page_after_page(pool, serving, recruiter, settings, query):
    url = reverse("api:job-match") + "?" + query
    rows = the_same_by_index_and_sql(
        _client_for(recruiter), settings, url, body={"description": GO_POST, "criteria": CRITERIA}
    )
    assert len(rows) > 14  # several pages were followed


def test_a_stored_jobs_matches_are_ranked_by_the_index(pool, serving, recruiter, settings):
    job = services.job_create(user=recruiter, title="Backend Engineer (Go)", description=GO_POST).job
    url = reverse("api:job-matches", kwargs={"pk": job.pk}) + "?page_size=13&anywhere=1"
    assert len(the_same_by_index_and_sql(_client_for(recruiter), settings, url)) > 13


def test_similar_candidates_are_ranked_by_the_index_without_the_candidate(pool, serving, recruiter, settings):
    subject = Candidate.objects.filter(skills__score__gte=6).order_by("pk").first()
    url = reverse("api:candidate-similar", kwargs={"pk": subject.pk}) + "?page_size=8"
    rows = the_same_by_index_and_sql(_client_for(recruiter), settings, url)
    assert len(rows) > 8
    assert subject.pk not in [row["id"] for row in rows]


def test_a_stopped_index_hands_the_page_to_sql_and_says_so(pool, recruiter, settings, tmp_path):
    settings.SEARCH_INDEX_SOCKET = tmp_path / "no-index.sock"  # nothing listens there
    url = reverse("api:job-match") + "?page_size=5"
    body = {"description": GO_POST, "criteria": CRITERIA}
    client = _client_for(recruiter)
    stopped, _, headers = walk(client, settings, INDEX_BACKEND, url, body=body)
    assert headers == {"sql; index=stopped"}
    assert stopped == walk(client, settings, SQL_BACKEND, url, body=body)[0]


def test_changes_reach_the_api_while_the_index_serves_and_an_erased_person_is_gone_at_once(
    pool, serving, recruiter, settings
):
    settings.SEARCH_BACKEND = INDEX_BACKEND
    client = _client_for(recruiter)
    url = reverse("api:job-match") + "?page_size=5"
    body = {"description": GO_POST, "criteria": CRITERIA}

    def answered() -> tuple[str, list[int]]:
        response = client.post(url, body, format="json")
        return response["X-Search-Backend"], [row["id"] for row in response.json()["results"]]

    def first_page() -> list[int]:
        """The first page as the index answers it: on a busy machine a poll may come late, and the client then hands
        the request to SQL for a while (its reason in the header), which would prove nothing here."""
        last = {}

        def by_index() -> bool:
            last["backend"], last["ids"] = answered()
            return last["backend"] == "index"

        wait_until(by_index)
        return last["ids"]

    # An erasure: off the page at once, though the index has not heard of it yet.
    top = first_page()[0]
    candidate_erase(candidate=Candidate.objects.get(pk=top), user=UserFactory())
    assert top not in first_page()

    # An edit: a newcomer holding every skill at 10 tops the page the index answers, which the client takes only
    # within the lag bound of the index's fresh_at (SQL would rank the newcomer at once and prove nothing).
    newcomer = CandidateFactory(name="Nora Newcomer", title="backend", summary="backend")
    for slug in ("go", "postgresql", "kafka", "rust"):
        CandidateSkillFactory(candidate=newcomer, skill=Skill.objects.get(slug=slug), score=10)
    candidates_refresh_search_columns(candidate_ids=[newcomer.pk])

    def newcomer_tops_the_index_page() -> bool:
        backend, ids = answered()
        return backend == "index" and ids[:1] == [newcomer.pk]

    wait_until(newcomer_tops_the_index_page)
    by_index = first_page()
    settings.SEARCH_BACKEND = SQL_BACKEND
    assert by_index == [row["id"] for row in client.post(url, body, format="json").json()["results"]]
