"""The index's page equals the SQL ranking's, row for row: random criteria, switches, filters and pages over a random
pool (a fixed seed in the normal suite)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobs.criteria import Criteria
from jobs.ranking import RankOptions
from jobs.ranking.formula import resolve
from tests.searchindex.helpers import (
    COUNTRIES,
    ODD_COUNTRIES,
    SLUGS,
    WORDS,
    build_index,
    index_page,
    make_pool,
    sql_page,
)

pytestmark = pytest.mark.django_db

criteria_strategy = st.builds(
    Criteria,
    required=st.lists(st.tuples(st.sampled_from((*SLUGS, "cobol")), st.integers(0, 10)), max_size=4).map(tuple),
    preferred=st.lists(st.sampled_from((*SLUGS, "fortran")), max_size=3).map(tuple),
    excluded=st.lists(st.sampled_from(SLUGS), max_size=1).map(tuple),
    min_years_coding=st.sampled_from([None, 0, 2, 5, 10]),
    countries=st.lists(st.sampled_from([c for c in COUNTRIES if c]), max_size=2, unique=True).map(tuple),
    keywords=st.lists(st.sampled_from(WORDS), max_size=2).map(tuple),
)
options_strategy = st.builds(RankOptions, strict=st.booleans(), widen=st.booleans(), anywhere=st.booleans())
params_strategy = st.sampled_from(
    [None, {"country": "DE"}, {"min_years_coding": "3"}, {"country": "US", "min_years_coding": "5"}]
)


@settings(
    derandomize=True,  # the same examples on every run of the normal suite
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    criteria=criteria_strategy,
    options=options_strategy,
    params=params_strategy,
    offset=st.sampled_from([0, 0, 5, 17]),
    limit=st.sampled_from([1, 10, 25]),
)
def test_the_index_pages_equal_the_sql_ranking(pool_index, criteria, options, params, offset, limit):
    # Resolved once for both: the vocabulary's cache is shared, and both must rank the same skills.
    resolved = resolve(criteria, widen=options.widen)
    page = {"params": params, "offset": offset, "limit": limit, "resolved": resolved}
    expected = sql_page(criteria, options, **page)
    assert index_page(pool_index, criteria, options, **page) == expected


@pytest.fixture
def pool_index(db):
    make_pool(seed=11, countries=COUNTRIES + ODD_COUNTRIES)
    return build_index()
