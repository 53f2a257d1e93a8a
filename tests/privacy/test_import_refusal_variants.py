"""A file that names an erased person by another spelling of her site or e-mail is refused too (issue 18): the
suppression keys are compared in the canonical forms of ``profiles.identity`` as well as in the loader's own."""

import pytest
from django.utils import timezone

from ingestion.models import SourceFile
from privacy.services import candidate_erase
from profiles.models import Candidate
from tests.ingestion.imports import import_all, import_file, receive
from tests.privacy.people import TOVE_FILE, tove_changed

pytestmark = pytest.mark.django_db

# Nothing else of hers: another name, town, e-mail and no accounts, so only the site or the e-mail can tell.
ELSEWHERE = {"name": "T. Lindqvist", "location": {"city": "Malmö", "countryCode": "SE"}, "profiles": []}


@pytest.fixture
def erased(officer):
    tove = import_file(TOVE_FILE)
    candidate_erase(candidate=tove, user=officer)
    return timezone.localdate()


def _import(data: bytes) -> SourceFile:
    batch = receive(("variant.json", data))
    import_all(batch)
    return SourceFile.objects.get(batch=batch)


@pytest.mark.parametrize(
    "url",
    [
        "http://tove.example.org/",
        "https://www.tove.example.org",
        "https://TOVE.example.org/?utm_source=cv#about",
        "tove.example.org",
    ],
)
def test_her_site_written_another_way_is_refused(erased, url):
    source = _import(tove_changed(url=url, email="someone@elsewhere.example", **ELSEWHERE))

    assert source.status == SourceFile.Status.FAILED
    assert source.error.startswith("This person asked to be erased on")
    assert not Candidate.objects.exists()


@pytest.mark.parametrize("email", ["mailto:tove.lindqvist@example.org", " Tove.Lindqvist@Example.ORG "])
def test_her_email_written_another_way_is_refused(erased, email):
    source = _import(tove_changed(url="", email=email, **ELSEWHERE))

    assert source.status == SourceFile.Status.FAILED
    assert source.error.startswith("This person asked to be erased on")


def test_another_site_on_the_same_host_imports(erased):
    source = _import(tove_changed(url="https://example.org/people/noor", email="noor@elsewhere.example", **ELSEWHERE))

    assert source.status == SourceFile.Status.IMPORTED
    assert Candidate.objects.count() == 1
