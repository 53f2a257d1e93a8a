"""A file that names an erased person by another spelling of her site or e-mail is refused too: the suppression keys
are compared as identity keys (``core.identity``), in the forms earlier versions stored as well."""

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


@pytest.fixture
def erased_before_the_canonical_keys(officer):
    """Erased when a suppression held the loader's form of each identifier alone (``https://tove.example.org``, before
    the URL and e-mail keys): the digests of the other forms are taken away again."""
    from core.identity import url_key
    from privacy.hashing import identifier_digest
    from privacy.models import Suppression

    tove = import_file(TOVE_FILE)
    candidate_erase(candidate=tove, user=officer)
    canonical = url_key("https://tove.example.org")
    newer = [canonical, f"http://{canonical}", f"https://www.{canonical}", f"http://www.{canonical}"]
    assert Suppression.objects.filter(digest__in=[identifier_digest("url", form) for form in newer]).delete()[0] == 4
    return timezone.localdate()


def test_an_old_suppression_is_widened_by_the_first_file_it_refuses(erased_before_the_canonical_keys):
    from privacy.hashing import identifier_digest
    from privacy.models import Suppression

    before = Suppression.objects.count()
    # The old record holds the site as the loader stored it then (https://...): the key's forms include that spelling.
    refused = _import(tove_changed(url="http://www.tove.example.org/", email="other@elsewhere.example", **ELSEWHERE))

    assert refused.error.startswith(f"This person asked to be erased on {erased_before_the_canonical_keys:%Y-%m-%d}")
    assert Suppression.objects.count() > before
    widened = Suppression.objects.get(digest=identifier_digest("url", "tove.example.org"))
    assert widened.erased_at.date() == erased_before_the_canonical_keys
    again = tove_changed(url="https://www.tove.example.org/?from=cv", email="someone@elsewhere.example", **ELSEWHERE)
    assert _import(again).status == SourceFile.Status.FAILED


def test_widening_adds_no_identifier_the_refused_file_brought_of_its_own(erased_before_the_canonical_keys):
    from privacy.hashing import identifier_digest
    from privacy.models import Suppression

    refused = _import(tove_changed(url="https://Tove-New.example.net/"))

    assert refused.status == SourceFile.Status.FAILED  # by her GitHub account and e-mail
    new_site = [identifier_digest("url", form) for form in ("https://tove-new.example.net", "tove-new.example.net")]
    assert not Suppression.objects.filter(digest__in=new_site).exists()


# --- Her name with her town written another way (a Prog.AI text file carries no identifier) -------------------------

ONLY_NAME_AND_TOWN = {"email": "", "url": "", "profiles": []}


@pytest.fixture
def erased_in_malmo(officer):
    source = _import(tove_changed(location={"city": "Malmö", "countryCode": "SE"}))
    candidate_erase(candidate=source.candidate, user=officer)


@pytest.mark.parametrize("city", ["Malmo", "MALMÖ", " Malmo ", "Malmö"])
def test_her_name_and_town_written_without_accents_or_with_other_spacing_is_refused(erased_in_malmo, city):
    source = _import(tove_changed(location={"city": city, "countryCode": "SE"}, **ONLY_NAME_AND_TOWN))

    assert source.status == SourceFile.Status.FAILED
    assert source.error.startswith("This person asked to be erased on")


def test_her_name_in_another_town_imports(erased_in_malmo):
    source = _import(tove_changed(location={"city": "Lund", "countryCode": "SE"}, **ONLY_NAME_AND_TOWN))

    assert source.status == SourceFile.Status.IMPORTED
