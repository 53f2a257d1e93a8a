"""searchindex.columns: the columns a fresh install builds, before any candidate holds a skill."""

import pytest

from tests.factories import CandidateFactory
from tests.searchindex.helpers import build_index

pytestmark = pytest.mark.django_db


def test_an_empty_database_builds_empty_columns():
    columns = build_index()

    assert (len(columns), columns.skills) == (0, {})


def test_candidates_without_skills_build_columns_without_skill_columns():
    first, second = CandidateFactory(), CandidateFactory()

    columns = build_index()

    assert sorted(columns.ids.tolist()) == sorted([first.pk, second.pk])
    assert columns.skills == {}
