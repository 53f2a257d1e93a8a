"""searchindex.columns: the columns a fresh install builds, before any candidate holds a skill."""

import pytest

from tests.factories import CandidateFactory
from tests.searchindex.helpers import build_index

pytestmark = pytest.mark.django_db


def test_an_empty_database_builds_empty_columns():
    columns = build_index()

    assert (len(columns), columns.skills) == (0, {})


def test_candidates_without_skills_build_columns_without_skill_columns():
    first, second = CandidateFactory(), CandidateFactory()

    columns = build_index()

    assert sorted(columns.ids.tolist()) == sorted([first.pk, second.pk])
    assert columns.skills == {}


def test_a_skills_scores_on_every_row_are_laid_out_once_and_again_after_a_change(monkeypatch):
    from django.db import connection

    from profiles.models import Candidate, Skill
    from searchindex import columns as index_columns
    from tests.factories import CandidateSkillFactory

    python = Skill.objects.create(slug="python-dense", name="Python (dense)")
    held = CandidateSkillFactory(skill=python, score=7).candidate
    columns = build_index()

    first = columns.dense_scores(python.pk)
    assert columns.dense_scores(python.pk) is first  # the same array for the next request
    assert first[columns.row(held.pk)] == 7
    assert not first.flags.writeable  # a request cannot change what the next one reads

    Candidate.objects.filter(pk=held.pk).update(skill_scores={str(python.pk): 9})  # what the columns read
    index_columns.apply_candidates(columns, connection.connection, [held.pk])
    again = columns.dense_scores(python.pk)
    assert again is not first
    assert again[columns.row(held.pk)] == 9

    monkeypatch.setattr(index_columns, "DENSE_KEPT", 2)
    others = [Skill.objects.create(slug=f"dense-skill-{n}", name=f"Dense skill {n}").pk for n in range(3)]
    for pk in others:
        columns.dense_scores(pk)
    assert columns.dense_scores(python.pk) is not again  # only the last two asked for are kept


def test_a_place_is_a_code_of_two_letters_in_any_case_as_the_sql_pool_reads_it():
    german = CandidateFactory(country_code="DE")
    CandidateFactory(country_code="SS")
    CandidateFactory(country_code="FR")
    columns = build_index()

    def here(codes: list[str]) -> set[int]:
        return set(columns.ids[columns.in_place(codes)].tolist())

    assert here(["de"]) == here(["DE"]) == {german.pk}
    # Like profiles.search.columns.skill_tokens: a code no candidate's tokens are scoped to keeps nobody ("ß" is no
    # "SS", whatever its capital letters).
    assert here(["D", "ß", "DEU", "D1", ""]) == set()
