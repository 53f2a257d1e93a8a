"""``profiles.search.pages.ranked_rows`` under a backend other than SQL: the backend's keys are the page's order and its
``match``, PostgreSQL decides who is shown and reads what each row shows, in one statement without the formula."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from jobs.ranking.formula import RESULT_FIELDS
from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from profiles.search.backends.base import Page, RankedIds, RankRequest, SearchBackend, TextHits, TextRequest
from profiles.search.pages import ranked_rows
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db


class Claims(SearchBackend):
    """Answers every ranking with ``KEYS``: whatever it claims, as an index that computed the formula would."""

    name = "claims"
    KEYS: tuple = ()

    def rank(self, request: RankRequest, *, resolved=None) -> RankedIds:
        return RankedIds(tuple(pk for *_, pk in self.KEYS), self.KEYS, has_more=False, backend=self.name)

    def search_text(self, request: TextRequest) -> TextHits:
        raise NotImplementedError

    def index(self, candidate_ids: Iterable[int]) -> None:
        pass

    def remove(self, candidate_ids: Iterable[int]) -> None:
        pass


@pytest.fixture
def claims(settings):
    settings.SEARCH_BACKEND = f"{__name__}.Claims"
    go, sql = SkillFactory(slug="go"), SkillFactory(slug="postgresql")
    ada, bo, gone = (CandidateFactory(name=name) for name in ("Ada", "Bo", "Gone"))
    CandidateSkillFactory(candidate=ada, skill=go, score=8)
    CandidateSkillFactory(candidate=ada, skill=sql, score=6)
    CandidateSkillFactory(candidate=bo, skill=go, score=2)
    candidates_refresh_search_columns(candidate_ids=[ada.pk, bo.pk, gone.pk])
    Claims.KEYS = ((0, 91, ada.pk), (1, 40, gone.pk), (1, 37, bo.pk))
    gone_pk = gone.pk
    gone.delete()  # erased since the backend read it
    return ada.pk, bo.pk, gone_pk


def test_the_page_shows_the_backends_match_and_drops_a_row_the_database_lacks(claims):
    ada, bo, _ = claims
    request = RankRequest(required=(("go", 5), ("postgresql", 5)), page=Page(limit=3))
    with CaptureQueriesContext(connection) as captured:
        rows = ranked_rows(request, queryset=Candidate.objects.only(*RESULT_FIELDS))
    assert [(row.pk, row.name, row.match, row.misses_any, row.missing_count) for row in rows] == [
        (ada, "Ada", 91, 0, 0),
        (bo, "Bo", 37, 1, 2),  # missing counted from the row's own scores: go below 5, no postgresql
    ]
    reads = [query["sql"] for query in captured.captured_queries if "profiles_candidate" in query["sql"]]
    assert len(reads) == 1, reads
    assert "round(" not in reads[0].lower(), "the formula is the backend's work, not the page's"
