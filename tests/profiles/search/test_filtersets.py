"""profiles.search.filtersets: FilterSets alive side by side each keep their own filters, form and state."""

import pytest
from django.http import QueryDict

from profiles.models import Candidate, SkillAlias
from profiles.search import candidates_refresh_search_columns
from profiles.search.filtersets import CandidateFilterSet, RepositoryFilterSet
from profiles.search.skills import resolve_skills
from profiles.selectors import candidate_detail, candidate_search
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db


def with_skill(slug: str, score: int) -> Candidate:
    candidate = CandidateFactory()
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug=slug), score=score)
    return candidate


def filterset(query: str) -> CandidateFilterSet:
    return CandidateFilterSet(data=QueryDict(query), queryset=Candidate.objects.all())


def test_filtersets_alive_together_each_filter_with_their_own_parameters_and_state():
    pythonista, gopher = with_skill("python", 9), with_skill("go", 8)
    first, second = filterset("skill=python:9"), filterset("skill=go:5&ordering=name")

    # Interleaved: the second is evaluated before the first, as two requests of one thread pool might be.
    assert second.is_valid()
    assert first.is_valid()
    second_found, first_found = list(second.qs), list(first.qs)

    assert first_found == [pythonista]
    assert second_found == [gopher]
    assert first._match_skill_ids != second._match_skill_ids  # the `match` state each filter method wrote
    assert first.filters["skill"] is not second.filters["skill"]
    assert first.filters["skill"].parent is first
    assert second.filters["skill"].parent is second


def test_the_declared_filters_are_never_bound_to_a_request():
    filterset("skill=python").qs  # noqa: B018 - evaluating binds the copies

    assert all(not hasattr(base, "parent") for base in CandidateFilterSet.base_filters.values())


def test_each_filterset_has_a_form_of_its_own():
    first, second = filterset("country=DE"), filterset("country=nowhere-land")

    assert first.form is not second.form
    assert first.is_valid()
    assert not second.is_valid()
    assert "country" in second.form.errors
    assert not first.form.errors
    assert first.form.fields["country"] is not second.form.fields["country"]
    # Each FilterSet class has the fields of its own filters.
    repositories = RepositoryFilterSet(data=QueryDict("search=a"))
    assert set(repositories.form.fields) == {"search", "topic"}


def test_labels_resolve_through_aliases_first_then_slugs():
    javascript, js = SkillFactory(slug="javascript"), SkillFactory(slug="js-only-slug")
    SkillAlias.objects.update_or_create(label="js-only-slug", defaults={"skill": javascript})
    golang = SkillFactory(slug="golang-test")

    found = resolve_skills({"js-only-slug", "golang-test", "no-such-skill-anywhere"})

    # An alias beats a skill whose slug is the same label; a bare slug resolves to itself; unknown labels are absent.
    assert found == {"js-only-slug": (javascript.pk, "javascript"), "golang-test": (golang.pk, "golang-test")}
    assert js.pk not in {skill_id for skill_id, _ in found.values()}
    assert resolve_skills(set()) == {}


def test_filters_and_match_build_without_recursion_far_past_the_cap(settings):
    """Issue 15, hole 6: ``match`` summed its scores as a left-nested tree of ``+``, a level per term, and compiling
    it recursed past Python's limit at about 200 terms. Built flat, thousands of terms compile and run."""
    settings.SEARCH_MAX_TERMS = 10_000
    gopher = with_skill("go", 8)
    CandidateSkillFactory(candidate=gopher, skill=SkillFactory(slug="python"), score=6)
    rustacean = with_skill("rust", 9)
    CandidateSkillFactory(candidate=rustacean, skill=SkillFactory(slug="go"), score=9)
    candidates_refresh_search_columns(candidate_ids=[gopher.pk, rustacean.pk])
    params = QueryDict(mutable=True)
    params.setlist("skill", ["go"] * 2000)
    params["any_skill"] = ",".join(["python", "python:1"] * 1000)
    params["exclude_skill"] = ",".join(["rust:9"] * 2000)

    found = [(candidate.pk, candidate.match) for candidate in candidate_search(params=params)]
    detail = candidate_detail(candidate_id=gopher.pk, params={"skill": ["go"] * 3000, "any_skill": "python"})

    assert found == [(gopher.pk, 70)]  # the mean of 2000 eights and 2000 sixes
    assert detail.match == 80  # 3000 eights and one six: 79.9


@pytest.mark.parametrize(
    ("label", "slug"),
    [("vue-3", "vue"), ("angular-2+", "angular"), ("express.js", "express"), ("python-3.12", "python")],
)
def test_a_skill_term_in_an_equivalent_form_finds_the_skill(label, slug):
    """Issue 14: `skill=` resolves as the importer maps labels (core.labels.label_variants): `Vue 3` is Vue."""
    SkillAlias.objects.filter(label=label).delete()
    wanted = with_skill(slug, 8)

    assert resolve_skills({label}) == {label: (wanted.skills.get().skill_id, slug)}
    assert list(filterset(f"skill={label}:7").qs) == [wanted]


def test_a_label_known_as_written_is_not_reinterpreted():
    """A label that is an alias as written keeps its skill, though a shorter form of it names another."""
    glued, plain = SkillFactory(slug="quokka-framework"), SkillFactory(slug="quokka")
    SkillAlias.objects.create(label="quokka.js", skill=glued)

    assert resolve_skills({"quokka.js", "quokka-2"}) == {
        "quokka.js": (glued.pk, "quokka-framework"),
        "quokka-2": (plain.pk, "quokka"),
    }


def test_labels_resolve_as_imports_read_them():
    """The admin's filters read a label with the skill resolver (profiles.skill_resolver), as imports do: a phrase
    that names one skill, a misspelling, a spelled-out name lead to the skill; a soft skill names none."""
    found = resolve_skills({"usage-with-docker", "svelt", "laravel-5.*", "teamwork", "html-&-css"})

    assert {label: slug for label, (_, slug) in found.items()} == {
        "usage-with-docker": "docker",
        "svelt": "svelte",
        "laravel-5.*": "laravel",
    }
