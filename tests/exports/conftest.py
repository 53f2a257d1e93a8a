"""Export jobs' files go to a folder of the test's own."""

import pytest


@pytest.fixture(autouse=True)
def export_storage(settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "exports": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "exports")},
        },
    }
    return tmp_path / "exports"
