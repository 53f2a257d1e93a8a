"""Export jobs' files go to a folder of the test's own."""

import pytest


@pytest.fixture(autouse=True)
def export_storage(export_storage):
    """The suite's ``export_storage`` (tests/conftest.py), for every test here."""
    return export_storage
