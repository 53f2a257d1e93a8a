"""A document's phone number: loaded like the e-mail address, tidied, and never a way to recognise the person."""

import pytest

from ingestion.documents import Location
from ingestion.services import documents_load
from profiles.models import Candidate, CandidateIdentifier
from tests.ingestion.documents import make_document, with_github

pytestmark = pytest.mark.django_db


def test_a_document_with_a_phone_loads_it_tidied():
    [result] = documents_load(documents=[make_document(phone="  +234 801\t555 0142 ")])

    assert Candidate.objects.get(pk=result.candidate_id).phone == "+234 801 555 0142"


def test_a_phone_without_a_digit_is_left_empty():
    [result] = documents_load(documents=[make_document(phone="n/a")])

    assert Candidate.objects.get(pk=result.candidate_id).phone == ""


def test_a_newer_document_updates_the_phone():
    documents_load(documents=[with_github(make_document(phone="+234 801 555 0142"), "mira-o")])

    documents_load(documents=[with_github(make_document(phone="+234 809 555 0177"), "mira-o")])

    assert Candidate.objects.get().phone == "+234 809 555 0177"


def test_a_phone_is_no_identity_key():
    documents_load(documents=[make_document(name="Mira Okafor", phone="+234 801 555 0142")])
    documents_load(
        documents=[
            make_document(
                name="Tobi Adeyemi",
                phone="+234 801 555 0142",
                location=Location(city="Abuja", country="Nigeria", country_code="NG"),
            )
        ]
    )

    assert Candidate.objects.count() == 2
    assert not CandidateIdentifier.objects.filter(value__contains="555").exists()
