"""A site two clearly different people name is recorded as shared (``profiles.models.SharedIdentifier``), no one's
identity key: when it is the erased person's own, the record goes with them."""

import pytest

from privacy.access import subject_access_document
from privacy.services import candidate_erase
from profiles.models import Candidate, SharedIdentifier
from tests.ingestion.test_loaders_identity_safety import imported, resume

pytestmark = pytest.mark.django_db


def test_an_erasure_deletes_the_record_that_her_site_is_shared_and_the_access_request_lists_it(officer):
    [ada] = imported(("ada.json", resume("Ada Quill", "ada@quill.example", url="https://ada-quill.example")))
    imported(("ben.json", resume("Ben Ortiz", "ben@ortiz.example", url="https://ada-quill.example/")))
    SharedIdentifier.objects.create(kind="url", value="globex.example")  # someone else's, named by her nowhere
    assert SharedIdentifier.objects.filter(kind="url", value="ada-quill.example").exists()
    ada = Candidate.objects.get(pk=ada.candidate_id)

    document = subject_access_document(candidate_id=ada.pk)
    event = candidate_erase(candidate=ada, user=officer)

    assert [(row["kind"], row["value"]) for row in document["shared_identifiers"]] == [("url", "ada-quill.example")]
    assert list(SharedIdentifier.objects.values_list("value", flat=True)) == ["globex.example"]
    assert event.counts["shared_identifiers"] == 1
