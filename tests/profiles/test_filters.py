"""profiles.filters.LeanFilterSet: cheap to create, yet every FilterSet keeps its own filters and state, and is what
django-filter's own ``FilterSet.__init__`` and ``get_form_class`` would build."""

import contextlib
import copy
from collections.abc import Iterator

import django_filters
import pytest
from django import forms
from django.http import QueryDict
from django_filters.filters import FilterMethod

from profiles.filters import (
    CandidateFilterSet,
    LeanFilterSet,
    RepositoryFilterSet,
    SkillFilterSet,
    resolve_skills,
)
from profiles.models import Candidate, SkillAlias
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


def test_forms_are_separate_though_their_class_is_built_once():
    first, second = filterset("country=DE"), filterset("country=nowhere-land")

    assert type(first.form) is type(second.form)
    assert first.form is not second.form
    assert first.is_valid()
    assert not second.is_valid()
    assert "country" in second.form.errors
    assert not first.form.errors
    assert first.form.fields["country"] is not second.form.fields["country"]
    # Each FilterSet class has a form class of its own.
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


@contextlib.contextmanager
def stock_filtersets() -> Iterator[None]:
    """Every FilterSet of profiles.filters as django-filter builds it: LeanFilterSet's two overrides taken away."""
    overrides = {name: LeanFilterSet.__dict__[name] for name in ("__init__", "get_form_class")}
    for name in overrides:
        delattr(LeanFilterSet, name)
    try:
        yield
    finally:
        for name, value in overrides.items():
            setattr(LeanFilterSet, name, value)


# What a filter computes and keeps when its form field is built: django-filter builds the form class of every
# FilterSet, LeanFilterSet that of the first one of each class (the form's fields are compared instead).
FORM_BUILDING_CACHES = frozenset({"_label", "_field"})


def filter_state(filter_: django_filters.Filter, owner, *, evaluated: bool) -> dict:
    """A filter's attributes, comparable between a lean copy and django-filter's deep copy."""
    state = {}
    for name, value in vars(filter_).items():
        if evaluated and name in FORM_BUILDING_CACHES:
            continue
        if name == "parent":
            value = value is owner
        elif isinstance(value, FilterMethod):
            value = ("FilterMethod of this filter", value.f is filter_)
        elif isinstance(value, forms.Field):
            value = (type(value), value.required, value.label, value.help_text)
        state[name] = value
    return state


def filterset_state(filterset, *, evaluated: bool = False) -> dict:
    """A FilterSet's attributes, its filters and form (once evaluated) compared by what they hold."""
    state = {}
    for name, value in vars(filterset).items():
        if name == "filters":
            value = {key: filter_state(filter_, filterset, evaluated=evaluated) for key, filter_ in value.items()}
        elif name == "_form":
            fields = [(key, type(field), field.label, field.required) for key, field in value.fields.items()]
            value = (type(value).__name__, fields, value.is_bound, dict(value.errors), value.cleaned_data)
        elif name in ("queryset", "_qs"):
            value = str(value.query)
        else:
            value = copy.deepcopy(value)  # as it is now: filter methods write state of their own
        state[name] = value
    return state


STOCK_COMPARISONS = [
    (CandidateFilterSet, ""),
    (CandidateFilterSet, "skill=python:9&skill=go:5&ordering=name"),
    (CandidateFilterSet, "any_skill=python,go:7&exclude_skill=c&country=DE&min_years_coding=3"),
    (CandidateFilterSet, "q=engineer&ordering=-rank&updated_since=2024-03-01"),
    (CandidateFilterSet, "topic=python&repository=octo/cat&min_commits=3&badge=top%20school"),
    (CandidateFilterSet, "country=nowhere-land&ordering=match"),  # two errors
    (CandidateFilterSet, "unknown=1"),
    (SkillFilterSet, "search=pyt&kind=topic"),
    (RepositoryFilterSet, "search=a&topic=python"),
    (RepositoryFilterSet, "search=a&search=b"),  # a single-valued filter given twice
]


@pytest.mark.parametrize(("filterset_class", "query"), STOCK_COMPARISONS)
def test_a_lean_filterset_is_what_django_filters_own_init_builds(filterset_class, query):
    """The guard of the pinned django-filter: an upgrade that sets up a FilterSet or its filters differently fails
    here, not in a request."""
    SkillFactory(slug="python")
    SkillFactory(slug="go")
    queryset = filterset_class._meta.model._default_manager.all()

    lean = filterset_class(data=QueryDict(query), queryset=queryset)
    with stock_filtersets():
        assert LeanFilterSet.__init__ is django_filters.FilterSet.__init__
        stock = filterset_class(data=QueryDict(query), queryset=queryset)
        created = filterset_state(stock)
        valid = stock.is_valid()
        stock.qs  # noqa: B018 - runs the filter methods and their state
        evaluated = filterset_state(stock, evaluated=True)
        stock_form_class = type(stock.form)

    assert filterset_state(lean) == created
    assert lean.is_valid() is valid
    lean.qs  # noqa: B018
    assert filterset_state(lean, evaluated=True) == evaluated
    assert list(type(lean.form).base_fields) == list(stock_form_class.base_fields)
    assert type(lean.form).__mro__[1:] == stock_form_class.__mro__[1:]
