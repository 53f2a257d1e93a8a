import pytest

from tests.jobs.stored import make_skills


@pytest.fixture
def skills(db):
    return make_skills()
