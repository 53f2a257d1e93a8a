"""Options of the test suite as a whole.

``--run-reliability`` lives here rather than in ``tests/reliability/conftest.py``: pytest reads command-line options
only from the conftest files of the paths it starts from and their parents, and ``make reliability`` starts from
``tests``. Tests marked ``reliability`` (minutes, real processes) are skipped unless the option is given.
"""

import pytest

from tests.fixtures import CORPUS_DIR, VOCAB_DIR


def pytest_addoption(parser):
    parser.addoption(
        "--run-reliability",
        action="store_true",
        default=False,
        help="run the slow fault-injection and load tests marked 'reliability' (make reliability)",
    )


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-reliability"):
        return
    skip = pytest.mark.skip(reason="slow reliability test: run with --run-reliability (make reliability)")
    for item in items:
        if item.get_closest_marker("reliability"):
            item.add_marker(skip)


@pytest.fixture(
    scope="module",
    params=[VOCAB_DIR, pytest.param(CORPUS_DIR / "vocab", marks=pytest.mark.corpus)],
    ids=["fixture-vocabulary", "corpus-vocabulary"],
)
def full_vocabulary(request) -> frozenset[str]:
    """A GitHub/Linguist vocabulary as label keys: the tests' small one (tests/fixtures/vocab), and the corpus's
    whole one."""
    from ingestion.vocabulary import vocabulary_from_files

    vocab = vocabulary_from_files(request.param)
    assert vocab, request.param
    return vocab


@pytest.fixture
def export_storage(settings, tmp_path):
    """Export jobs' files in a folder of the test's own; returns it."""
    settings.STORAGES = {
        **settings.STORAGES,
        "exports": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "exports")},
        },
    }
    return tmp_path / "exports"


@pytest.fixture(autouse=True)
def search_backend_sql(settings):
    """The SQL reference ranks unless a test names another backend (``settings.SEARCH_BACKEND``): the product's
    default, this host's ranking index, would answer from whatever database a developer's ``make run`` serves."""
    settings.SEARCH_BACKEND = "profiles.search.backends.sql.SqlBackend"
