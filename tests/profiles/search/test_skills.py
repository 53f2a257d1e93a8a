"""profiles.search.skills: one reading of a skill's score, in the SQL the ranking signals write and in the ORM
expression the candidate filters' ``match`` uses."""

import pytest
from django.db.models import IntegerField
from django.db.models.expressions import RawSQL

from profiles.models import Candidate
from profiles.search import candidates_refresh_search_columns
from profiles.search.skills import SkillScore, skill_score_sql
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db


def test_a_score_read_by_the_orm_and_by_the_ranking_sql_is_the_same_value():
    go, rust = SkillFactory(slug="go"), SkillFactory(slug="rust")
    holder, other = CandidateFactory(name="Holder"), CandidateFactory(name="Other")
    CandidateSkillFactory(candidate=holder, skill=go, score=7)
    CandidateSkillFactory(candidate=other, skill=rust, score=0)
    candidates_refresh_search_columns(candidate_ids=[holder.pk, other.pk])

    rows = Candidate.objects.filter(pk__in=[holder.pk, other.pk]).annotate(
        orm_go=SkillScore(go.pk),
        orm_rust=SkillScore(rust.pk),
        sql_go=RawSQL(skill_score_sql(go.pk), [], output_field=IntegerField()),  # noqa: S611 (an int)
        sql_rust=RawSQL(skill_score_sql(rust.pk), [], output_field=IntegerField()),  # noqa: S611
    )
    values = {row.name: (row.orm_go, row.sql_go, row.orm_rust, row.sql_rust) for row in rows}

    assert values == {"Holder": (7, 7, None, None), "Other": (None, None, 0, 0)}


def test_the_orm_expression_compiles_to_the_ranking_sql():
    sql = str(Candidate.objects.annotate(score=SkillScore(12)).values("score").query)
    assert skill_score_sql(12, scores='"profiles_candidate"."skill_scores"') in sql


def test_a_skill_id_is_formatted_in_as_an_integer_only():
    assert skill_score_sql(12) == "((profiles_candidate.skill_scores ->> '12')::integer)"
    with pytest.raises(ValueError, match="invalid literal"):
        skill_score_sql("12'; DROP TABLE x; --")
