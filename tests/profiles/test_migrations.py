"""Data migrations of the talent domain, run against the current models."""

import importlib

import pytest
from django.apps import apps

from profiles.identity import name_location_key
from profiles.models import CandidateIdentifier
from tests.factories import CandidateFactory

name_keys_migration = importlib.import_module("profiles.migrations.0010_name_location_keys_as_sql_computes_them")


@pytest.mark.django_db
def test_a_name_key_stored_in_the_old_form_gets_its_new_form_twin():
    strauss = CandidateFactory(name="Anna Strauß", city="Wien")
    plain = CandidateFactory(name="Anna Strauss", city="Wien")
    CandidateIdentifier.objects.create(candidate=strauss, kind="name", value="anna strauss|wien|AT")
    CandidateIdentifier.objects.create(candidate=plain, kind="name", value="anna strauss|wien|DE")

    name_keys_migration.add_new_form_keys(apps, None)

    assert set(strauss.identifiers.values_list("value", flat=True)) == {
        "anna strauss|wien|AT",
        name_location_key("Anna Strauß", "Wien", "AT"),
    }
    assert list(plain.identifiers.values_list("value", flat=True)) == ["anna strauss|wien|DE"]
