"""The text fed to a candidate's search vector is capped (issue 15, hole 3): PostgreSQL refuses a tsvector over 1 MB,
and a summary of 150,000 random words makes one of 1.5 MB."""

import random
import string

import pytest
from django.contrib.postgres.search import SearchQuery

from ingestion.services import documents_load
from profiles import search
from profiles.models import Candidate
from tests.ingestion.documents import make_document

pytestmark = pytest.mark.django_db


def _found(word: str) -> bool:
    return Candidate.objects.filter(search_vector=SearchQuery(word, config="english")).exists()


def test_a_summary_of_150000_random_words_edited_by_hand_gets_a_search_vector_of_its_first_characters():
    rnd = random.Random(3)
    words = ["".join(rnd.choices(string.ascii_lowercase, k=rnd.randint(3, 10))) for _ in range(150_000)]
    summary = " ".join(["zqfirstword", *words, "zqlastword"])
    [result] = documents_load(documents=[make_document()])
    Candidate.objects.filter(pk=result.candidate_id).update(summary=summary)  # as the admin's edit stores it

    search.candidates_refresh_search_columns(candidate_ids=[result.candidate_id])

    assert len(summary) > 1_000_000
    assert _found("zqfirstword")
    assert not _found("zqlastword")  # past the first SEARCH_TEXT_MAX_CHARS characters
    assert _found("scheduler")  # the other parts are searched as before (a contribution's summary)
    assert search.SEARCH_TEXT_MAX_CHARS == 50_000
