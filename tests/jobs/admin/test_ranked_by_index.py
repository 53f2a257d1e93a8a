"""The admin's matches page and its "Similar candidates" panel are ranked by the ranking index when it runs
(``X-Search-Backend: index``), with the same rows, in the same order, page after page, as the SQL backend."""

import pytest
from django.urls import reverse

from jobs import services
from profiles.models import Candidate
from tests.searchindex.helpers import make_pool
from tests.searchindex.serving import GO_POST, HEADER, INDEX_BACKEND, SQL_BACKEND
from tests.searchindex.serving import serving as serving  # the fixture

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")  # the replica router reads from every alias


@pytest.fixture
def job(admin_user):
    make_pool(seed=41, size=160)
    return services.job_create(
        user=admin_user,
        title="Backend Engineer (Go)",
        description=GO_POST,
        criteria={"required": [{"skill": "go", "min_score": 4}, {"skill": "postgresql", "min_score": 3}]},
    ).job


def matches_pages(client, settings, backend: str, job, query: str) -> tuple[list, set[str]]:
    """The rows of the first three pages under ``backend`` (id, match, missing; each page's link to the next after
    them) and the headers seen."""
    settings.SEARCH_BACKEND = backend
    rows, headers = [], set()
    for number in (1, 2, 3):
        response = client.get(reverse("admin:jobs_job_matches", args=[job.pk]) + f"?page={number}&{query}")
        assert response.status_code == 200
        headers.add(response.get(HEADER, ""))
        rows += [(row.candidate.pk, row.candidate.match, row.missing) for row in response.context["rows"]]
        rows.append(response.context["next_query"])
    return rows, headers


@pytest.mark.parametrize("query", ["", "widen=1", "country=DE"])
def test_the_matches_pages_are_ranked_by_the_index(admin_client, settings, job, serving, query):
    by_index, index_headers = matches_pages(admin_client, settings, INDEX_BACKEND, job, query)
    by_sql, sql_headers = matches_pages(admin_client, settings, SQL_BACKEND, job, query)
    assert index_headers == {"index"}
    assert sql_headers == {""}
    assert by_index == by_sql
    assert len(by_index) > (28 if "country" in query else 40)  # a second page was reached


def test_the_similar_panel_ranks_as_sql_does(admin_client, settings, job, serving):
    subject = Candidate.objects.filter(skills__score__gte=6).order_by("pk").first()
    url = reverse("admin:jobs_job_similar", args=[subject.pk])
    seen = {}
    for backend in (INDEX_BACKEND, SQL_BACKEND):
        settings.SEARCH_BACKEND = backend
        response = admin_client.get(url)
        assert response.status_code == 200
        seen[backend] = [(row.pk, row.match) for row in response.context["rows"]]
        if backend == INDEX_BACKEND:
            # Those meeting every requirement first: in SQL, whose index reads only them; the rest by the index.
            assert response[HEADER] in ("index", "sql; index=strict")
    assert seen[INDEX_BACKEND] == seen[SQL_BACKEND]
    assert subject.pk not in [pk for pk, _ in seen[INDEX_BACKEND]]
