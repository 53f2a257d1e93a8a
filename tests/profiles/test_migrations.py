"""Data migrations of the talent domain, run against the current models."""

import importlib

import pytest
from django.apps import apps

from core.identity import name_location_key
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


identifiers_migration = importlib.import_module("profiles.migrations.0021_identifiers_normalised")
employer_sites_migration = importlib.import_module("profiles.migrations.0022_employer_sites_no_identity_keys")


@pytest.mark.django_db
def test_stored_identifiers_are_normalised_and_spellings_of_one_key_are_listed_not_merged():
    from profiles.models import PossibleDuplicate

    jose = CandidateFactory(name="José García")
    other = CandidateFactory(name="Jose Garcia")
    plain = CandidateFactory(name="Ana Ruiz")
    rows = [
        (jose, "linkedin", "jos%C3%A9-garc%C3%ADa"),
        (jose, "url", "https://www.site.example/"),
        (jose, "email", "MAILTO:Jose@Example.org."),
        (other, "linkedin", "josé-garcía"),  # the same slug, written plainly, held by another candidate
        (plain, "url", "site.example"),  # today's form of jose's site, held by a third
        (plain, "github", "ana\u200bruiz"),
        (plain, "url", "mailto:ana@example.org"),  # no site at all
    ]
    for candidate, kind, value in rows:
        CandidateIdentifier.objects.create(candidate=candidate, kind=kind, value=value)

    identifiers_migration.normalise_identifiers(apps, None)

    assert set(CandidateIdentifier.objects.exclude(kind="name").values_list("candidate_id", "kind", "value")) == {
        (jose.pk, "email", "jose@example.org"),
        (other.pk, "linkedin", "josé-garcía"),
        (plain.pk, "url", "site.example"),
        (plain.pk, "github", "anaruiz"),
    }
    assert set(PossibleDuplicate.objects.values_list("first_id", "second_id", "reason", "kind", "value")) == {
        (other.pk, jose.pk, "spelling", "linkedin", "josé-garcía"),
        (plain.pk, jose.pk, "spelling", "url", "site.example"),
    }
    identifiers_migration.normalise_identifiers(apps, None)  # again: nothing more changes
    assert PossibleDuplicate.objects.count() == 2

    identifiers_migration.url_keys_with_their_scheme(apps, None)
    assert list(CandidateIdentifier.objects.filter(kind="url").values_list("value", flat=True)) == [
        "https://site.example"
    ]
    assert not PossibleDuplicate.objects.exists()


@pytest.mark.django_db
def test_a_site_that_is_the_candidates_employers_is_no_longer_a_key():
    from tests.factories import PositionFactory

    ada = CandidateFactory(name="Ada Quill", company="Globex")
    PositionFactory(candidate=ada, company="Initech", url="https://www.initech.example/about")
    for value in ("initech.example", "globex.example", "ada.example", "github.com/adaq"):
        CandidateIdentifier.objects.create(candidate=ada, kind="url", value=value)

    employer_sites_migration.drop_employer_sites(apps, None)

    assert set(ada.identifiers.filter(kind="url").values_list("value", flat=True)) == {"ada.example", "github.com/adaq"}


merged_people_migration = importlib.import_module("profiles.migrations.0024_merged_people_listed_for_review")


@pytest.mark.django_db
def test_candidates_whose_files_or_history_name_two_people_are_listed_and_left_as_they_are():
    import json

    from profiles.models import Candidate, IdentityReview
    from tests.factories import SourceFileFactory

    def resume(name: str) -> bytes:
        return json.dumps({"basics": {"name": name, "summary": str(next(numbers))}}).encode()

    numbers = iter(range(100))

    merged = CandidateFactory(name="Ben Ortiz", title="CTO")  # Ada's file first, then Ben's over it
    SourceFileFactory(candidate=merged, content=resume("Ada Quill"))
    SourceFileFactory(candidate=merged, content=resume("Ben Ortiz"))
    renamed = CandidateFactory(name="Ada Quill")  # one person, her name written two ways
    SourceFileFactory(candidate=renamed, content=resume("Ada Quill"))
    SourceFileFactory(candidate=renamed, content=b"Ada M. Quill\nEngineer at Globex\n")
    edited = CandidateFactory(name="Cleo Park")
    edited.name = "Dev Rao"
    edited.save()  # a history record of each name
    unread = CandidateFactory(name="Eve Lund")  # files read neither way are passed over, not taken for other names
    SourceFileFactory(candidate=unread, content="Eve Lund\nEngineer\n".encode("utf-16"))
    SourceFileFactory(candidate=unread, content=b"{" + b'"a":[' * 3000 + b"]" * 3000 + b"}")
    SourceFileFactory(candidate=unread, content=resume("Eve Lund"))

    merged_people_migration.list_merged_people(apps, _SchemaEditor())

    listed = dict(IdentityReview.objects.values_list("candidate_id", "names"))
    assert listed == {merged.pk: ["Ada Quill", "Ben Ortiz"], edited.pk: ["Cleo Park", "Dev Rao"]}
    assert Candidate.objects.get(pk=merged.pk).title == "CTO"  # nothing changed

    merged_people_migration.empty_the_list(apps, None)
    assert not IdentityReview.objects.exists()


class _SchemaEditor:
    from django.db import connection
