"""Which saved searches and export queries an erasure takes as naming the person (issue 18): only the parameters
that can name someone (``q``'s words, ``repository``'s owner), compared whole, never a skill, a country or a part of a
word."""

import pytest

from exports.models import Export
from privacy.services import candidate_erase, query_names_them
from profiles.models import CandidateIdentifier, SavedSearch
from tests.factories import CandidateFactory

NEEDLES = ("Tove Lindqvist", "tove.lindqvist@example.org", "tovelq", "https://tove.example.org", "python")


@pytest.mark.parametrize(
    "query",
    [
        "q=Tove+Lindqvist",
        "q=%22tove+lindqvist%22+sre&country=SE",
        "q=TOVE++LINDQVIST",
        "q=tovelq&country=SE",
        "q=-tovelq",
        "q=(tovelq+or+go)",
        "q=tove.lindqvist%40example.org",
        "q=https%3A%2F%2Ftove.example.org",
        "repository=tovelq/runbooks",
        "repository=TOVELQ/runbooks&min_commits=3",
    ],
)
def test_a_query_naming_her_in_q_or_as_a_repository_owner_names_her(query):
    assert query_names_them(query, NEEDLES)


@pytest.mark.parametrize(
    "query",
    [
        "skill=python:8&country=DE",  # her account is "python": a skill search is not about her
        "any_skill=python,go&exclude_skill=python:2",
        "title=python+developer",
        "company=tovelq",
        "q=tovelqx",  # a part of a word is not her
        "q=tove",  # her first name alone
        "q=lindqvist+tove",  # the words of her name in another order
        "q=xtove.lindqvist%40example.org",
        "repository=someone/tovelq",  # a repository named like her account, owned by someone else
        "skill=go:5",
        "",
        "not a query %zz &&&",
    ],
)
def test_a_query_that_does_not_name_her_is_not_about_her(query):
    assert not query_names_them(query, NEEDLES)


def test_names_are_compared_without_accents_and_short_needles_name_nobody():
    assert query_names_them("q=Zoe+Angstrom", ("Zoë Ångström",))
    assert not query_names_them("q=go", ("Go",))  # a name or account of two letters is a skill as often
    assert not query_names_them("q=ann", ("ann",))


@pytest.mark.django_db
def test_erasing_someone_whose_account_is_a_skill_keeps_others_searches_for_that_skill(officer, recruiter):
    person = CandidateFactory(name="Pat Example", email="pat@example.org")
    CandidateIdentifier.objects.create(candidate=person, kind=CandidateIdentifier.Kind.GITHUB, value="python")
    kept = SavedSearch.objects.create(name="Python in DE", owner=recruiter, query="skill=python:8&country=DE")
    for_her = SavedSearch.objects.create(name="Pat", owner=recruiter, query="q=Pat+Example")
    export = Export.objects.create(owner=recruiter, format="csv", query="skill=python:8&country=DE", row_url="/c/{pk}")

    candidate_erase(candidate=person, user=officer)

    assert SavedSearch.objects.filter(pk=kept.pk).exists()
    assert not SavedSearch.objects.filter(pk=for_her.pk).exists()
    export.refresh_from_db()
    assert export.query == "skill=python:8&country=DE"
    assert export.status == Export.Status.QUEUED
