"""The skills a request names and a candidate's score of them: one resolution of labels to skills, one reading of a
score (its SQL, and the ORM expression built on it), and the candidate list's ``match``.

* Skill and topic labels are alias-aware: a label is lower-cased, spaces become ``-``, and ``SkillAlias`` maps it to
  its canonical skill (``cprogramming-language`` and ``c-language`` are both C).
* A score is read from the candidate row, ``Candidate.skill_scores`` (``{skill_id: score}``), never from
  ``CandidateSkill``: ``skill_score_sql`` is that reading for SQL written by hand (the ranking signals), ``SkillScore``
  for the ORM (the filters' ``match``); both are the same SQL.
* ``match`` (0-100) = round(100 × mean over the requested skills of score / 10); a requested ``any_skill`` the
  candidate lacks counts as 0. Computed in SQL, in integers: (20 × Σ score + n) / (2n). However many terms, the sum
  is one flat expression of sibling scores: summed pairwise (``a + b + c`` is ``(a + b) + c``), the expression nested
  a level per term, and compiling it recursed past Python's limit at about 200 terms.
"""

from __future__ import annotations

from django.db.models import ExpressionWrapper, F, Func, IntegerField, QuerySet, Value
from django.db.models.functions import Coalesce

from core.labels import label_variants
from db.connections import read_connection
from profiles.models import SkillAlias
from profiles.search.terms import SkillTerm
from profiles.skill_resolver import resolver_for
from profiles.vocabulary_copy import skill_vocabulary

MATCH_FORMULA = (
    "match (0-100) = round(100 × mean over the requested skills (`skill` and `any_skill`) of score / 10); "
    "a requested `any_skill` the candidate lacks counts as 0."
)

# An alias wins over a same-named slug. Plain SQL: it runs on every filtered request, and compiling the ORM's UNION
# took several times longer than running it.
_RESOLVE_SKILLS_SQL = """
SELECT DISTINCT ON (label) label, skill_id, slug FROM (
    SELECT a.label, a.skill_id, s.slug, 0 AS preference
    FROM profiles_skillalias a JOIN profiles_skill s ON s.id = a.skill_id
    WHERE a.label = ANY(%(labels)s)
    UNION ALL
    SELECT s.slug, s.id, s.slug, 1 FROM profiles_skill s WHERE s.slug = ANY(%(labels)s)
) found
ORDER BY label, preference
"""


def resolve_skills(labels: set[str]) -> dict[str, tuple[int, str]]:
    """Label keys → canonical (skill id, slug) of the one skill each names, in one query; other labels are absent.

    Labels are read by the skill resolver, as imports and job posts read them (``profiles.skill_resolver``):
    `vue-3`, `usage-with-docker` and `svelt` lead to Vue, Docker and Svelte. A label that names several skills
    (`html-&-css`) or is no technology (`teamwork`) names no one skill here. The database's skills named by the
    label as written or in its equivalent forms (``core.labels.label_variants``) come first: the process's copy of
    the vocabulary may not know a skill an import created minutes ago."""
    if not labels:
        return {}
    resolver = resolver_for(skill_vocabulary())
    variants: dict[str, tuple[str, ...]] = {}
    for label in labels:
        result = resolver.resolve(label)
        if result.not_technology:
            continue
        # What the database knows as written or in an equivalent form first: its copy may be newer than the
        # process's vocabulary, whose looser rules (a phrase, a misspelling) then come next.
        forms = label_variants(label) or (label,)
        variants[label] = forms if len(result.slugs) > 1 else (*forms, *result.slugs)
    wanted = sorted({form for forms in variants.values() for form in forms})
    if not wanted:
        return {}
    with read_connection(SkillAlias).cursor() as cursor:
        cursor.execute(_RESOLVE_SKILLS_SQL, {"labels": wanted})
        found = {label: (skill_id, slug) for label, skill_id, slug in cursor.fetchall()}
    return {
        label: skill
        for label, forms in variants.items()
        if (skill := next((found[form] for form in forms if form in found), None)) is not None
    }


def skill_score_sql(skill_id: int, *, scores: str = "profiles_candidate.skill_scores") -> str:
    """A candidate's score of one skill in SQL, NULL when it lacks it: ``((skill_scores ->> 'id')::integer)``, read
    from ``scores`` (the column, as the statement names it). ``skill_id`` is formatted in as an integer.

    (Not ``KT("skill_scores__<id>")`` in the ORM: Django reads a numeric key as an array index.)"""
    return f"(({scores} ->> '{int(skill_id)}')::integer)"


class SkillScore(Func):
    """``skill_score_sql`` as an ORM expression, the column compiled as the query names it."""

    output_field = IntegerField()

    def __init__(self, skill_id: int):
        self.skill_id = int(skill_id)
        super().__init__(F("skill_scores"))

    def as_sql(self, compiler, connection, **extra_context):
        column, params = compiler.compile(self.get_source_expressions()[0])
        return skill_score_sql(self.skill_id, scores=column), params


class FlatSum(Func):
    """``(a + b + c …)``: one flat expression of sibling terms, however many (``functools.reduce(operator.add, …)``
    nests one level per term, and compiling that recursed past Python's limit)."""

    template = "(%(expressions)s)"
    arg_joiner = " + "
    output_field = IntegerField()


def match_expression(skill_ids: list[int | None]) -> ExpressionWrapper:
    """round(100 × mean(score / 10)) over the requested skills, in integer SQL.

    ``None`` stands for a requested skill nobody has, and a NULL score for a skill this candidate lacks: both count
    as 0. A skill requested k times weighs k times (``k * score``), written once.
    """
    weights: dict[int, int] = {}
    for pk in skill_ids:
        if pk is not None:
            weights[pk] = weights.get(pk, 0) + 1
    scores = [
        Coalesce(SkillScore(pk), 0) if weight == 1 else Value(weight) * Coalesce(SkillScore(pk), 0)
        for pk, weight in weights.items()
    ]
    total = FlatSum(*scores) if scores else Value(0)
    n = len(skill_ids)
    return ExpressionWrapper((20 * total + n) / (2 * n), output_field=IntegerField())


def annotate_match(queryset: QuerySet, terms: list[SkillTerm]) -> QuerySet:
    """Annotate ``match`` for these skills without filtering on them: what a detail shows."""
    skills = resolve_skills({term.label for term in terms})
    skill_ids = [skills[term.label][0] if term.label in skills else None for term in terms]
    return queryset.annotate(match=match_expression(skill_ids))
