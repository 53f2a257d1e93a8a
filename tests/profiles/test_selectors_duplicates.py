"""Possible duplicates: the same normalised name plus a shared company, repository or identifier."""

import pytest

from profiles.models import CandidateIdentifier
from profiles.selectors import candidate_duplicate_groups
from tests.factories import CandidateFactory, ContributionFactory, RepositoryFactory

pytestmark = pytest.mark.django_db


def groups() -> list[tuple[list[int], list[str]]]:
    return [(group.ids, group.reasons) for group in candidate_duplicate_groups().groups]


def test_same_name_ignoring_accents_case_and_spacing_plus_a_shared_company_is_proposed():
    first = CandidateFactory(name="José  Álvarez", company="Globex")
    second = CandidateFactory(name="jose alvarez", company="GLOBEX ")
    CandidateFactory(name="Jose Alvarez", company="Initech")  # same name, nothing shared

    assert groups() == [([first.pk, second.pk], ["company"])]


def test_a_shared_repository_links_candidates_of_the_same_name():
    repo = RepositoryFactory(full_name="kernel/linux")
    first = CandidateFactory(name="Lin Chen", company="A")
    second = CandidateFactory(name="Lin Chen", company="B")
    ContributionFactory(candidate=first, repository=repo)
    ContributionFactory(candidate=second, repository=repo)

    assert groups() == [([first.pk, second.pk], ["repository"])]


def test_a_github_username_and_a_github_profile_url_key_are_one_identifier():
    first = CandidateFactory(name="Sam Roe", company="A")
    second = CandidateFactory(name="Sam Roe", company="B")
    CandidateIdentifier.objects.create(candidate=first, kind="github", value="samroe")
    CandidateIdentifier.objects.create(candidate=second, kind="url", value="github.com/samroe")

    assert groups() == [([first.pk, second.pk], ["identifier"])]


def test_a_linkedin_slug_and_a_regional_linkedin_url_key_are_one_identifier():
    first = CandidateFactory(name="José García", company="A")
    second = CandidateFactory(name="Jose Garcia", company="B")
    CandidateIdentifier.objects.create(candidate=first, kind="linkedin", value="josé-garcía")
    CandidateIdentifier.objects.create(candidate=second, kind="url", value="es.linkedin.com/in/josé-garcía")

    assert groups() == [([first.pk, second.pk], ["identifier"])]


def test_different_names_sharing_a_company_are_not_duplicates():
    CandidateFactory(name="Ada Quill", company="Globex")
    CandidateFactory(name="Ben Quill", company="Globex")

    assert groups() == []


def test_three_candidates_linked_pairwise_form_one_group():
    repo = RepositoryFactory(full_name="x/y")
    a = CandidateFactory(name="Kim Park", company="Acme")
    b = CandidateFactory(name="Kim Park", company="Acme")
    c = CandidateFactory(name="Kim Park", company="Other")
    ContributionFactory(candidate=b, repository=repo)
    ContributionFactory(candidate=c, repository=repo)

    assert groups() == [([a.pk, b.pk, c.pk], ["company", "repository"])]


def test_names_are_read_a_page_at_a_time_in_name_order():
    pairs = {}
    for name in ["Ada Quill", "Ben Ortiz", "Cleo Park"]:
        pairs[name] = [CandidateFactory(name=name, company="Same").pk for _ in range(2)]

    first = candidate_duplicate_groups(names=2)
    last = candidate_duplicate_groups(after=first.next_after, names=2)

    assert [g.ids for g in first.groups] == [pairs["Ada Quill"], pairs["Ben Ortiz"]]
    assert first.next_after == "ben ortiz"
    assert ([g.ids for g in last.groups], last.next_after) == ([pairs["Cleo Park"]], None)


def test_the_name_key_index_serves_the_walk():
    from django.db import connection

    from profiles.selectors import DUPLICATE_NAMES_SQL

    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + DUPLICATE_NAMES_SQL, ["", 10])
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "candidate_name_key_idx" in plan
