"""The candidate changelist's sidebar: inputs for the parameters of ``CandidateFilterSet``.

The filters here filter nothing themselves: ``candidate_search`` applies every shared parameter once (see
``changelist.CandidateChangeList``), so the admin, the API and the exports select the same candidates. Each sidebar
filter only shows its inputs and keeps its parameters out of Django's own lookups.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import QueryDict
from django.utils.html import format_html

from core.countries import country_name
from profiles.search.filtersets import CandidateFilterSet

SHARED_PARAMS = frozenset(CandidateFilterSet.base_filters)


class SharedParamsFilter(admin.ListFilter):
    """Sidebar input for parameters of ``CandidateFilterSet``."""

    parameters: tuple[str, ...] = ()

    def __init__(self, request, params, model, model_admin):
        super().__init__(request, params, model, model_admin)
        self.request = request
        for name in self.parameters:
            if name in params:
                self.used_parameters[name] = params.pop(name)

    def has_output(self) -> bool:
        return True

    def expected_parameters(self) -> list[str]:
        return list(self.parameters)

    def queryset(self, request, queryset):
        return queryset

    def value(self, name: str | None = None) -> str:
        values = self.used_parameters.get(name or self.parameters[0]) or [""]
        return values[-1]


class ChoicesFilter(SharedParamsFilter):
    """Links, one per value; ``options`` returns (value, label) pairs. A facet (``facet``: its name in
    ``profiles.workspace.FACETS``) shows beside each value how many candidates of the results have it, when the
    changelist knows (``CandidateChangeList.facet_counts``)."""

    facet = ""

    def options(self, request) -> list[tuple[str, str]]:
        raise NotImplementedError

    def choices(self, changelist):
        name = self.parameters[0]
        current = self.value()
        yield {"selected": not current, "query_string": changelist.get_query_string(remove=[name]), "display": "All"}
        options = self.options(self.request)
        if current and current not in dict(options):
            options = [(current, current), *options]
        counts = getattr(changelist, "facet_counts", None) if self.facet else None
        for value, label in options:
            count = counts.of(self.facet, value) if counts else None
            yield {
                "selected": current == value,
                "query_string": changelist.get_query_string({name: value}),
                "display": label if count is None else with_count(label, count, estimated=counts.estimated),
            }


def with_count(label: str, count: int, *, estimated: bool) -> str:
    return format_html(
        '{} <span class="facet-count" title="{}">{}{}</span>',
        label,
        "estimated candidates" if estimated else "candidates",
        "≈" if estimated else "",
        f"{count:,}",
    )


def country_label(code: str) -> str:
    """ "Germany (DE)": the name the parsers write (``core.countries``) with the code the filter sends."""
    name = country_name(code)
    return f"{name} ({code})" if name else code


class CountryFilter(ChoicesFilter):
    title = "country"
    parameters = ("country",)
    facet = "country"

    def options(self, request):
        return [(code, country_label(code)) for code in request.filter_choices.countries]


class BadgeFilter(ChoicesFilter):
    title = "badge"
    parameters = ("badge",)
    facet = "badge"

    def options(self, request):
        return [(badge, badge) for badge in request.filter_choices.badges]


class SpokenLanguageFilter(ChoicesFilter):
    title = "spoken language"
    parameters = ("language",)
    facet = "language"

    def options(self, request):
        return [(language, language) for language in request.filter_choices.languages]


class YearsCodingFilter(SharedParamsFilter):
    title = "years coding"
    parameters = ("min_years_coding", "max_years_coding")
    BANDS = [("0–2", 0, 2), ("3–5", 3, 5), ("6–10", 6, 10), ("11–20", 11, 20), ("more than 20", 21, None)]

    def choices(self, changelist):
        low, high = self.value("min_years_coding"), self.value("max_years_coding")
        yield {
            "selected": not low and not high,
            "query_string": changelist.get_query_string(remove=list(self.parameters)),
            "display": "All",
        }
        for label, band_low, band_high in self.BANDS:
            yield {
                "selected": (low, high) == (str(band_low), str(band_high or "")),
                "query_string": changelist.get_query_string(
                    {"min_years_coding": band_low, "max_years_coding": band_high}
                ),
                "display": label,
            }


class TextInputFilter(SharedParamsFilter):
    """A one-field GET form (school, repository): too many values for a list of links."""

    template = "admin/profiles/candidate/text_filter.html"
    placeholder = ""

    def choices(self, changelist):
        name = self.parameters[0]
        yield {
            "name": name,
            "value": self.value(),
            "placeholder": self.placeholder,
            "hidden": hidden_params(changelist, exclude={name}),
            "clear": changelist.get_query_string(remove=[name]) if self.value() else "",
        }


class SchoolFilter(TextInputFilter):
    title = "school"
    parameters = ("school",)
    placeholder = "exact name"


class RepositoryFilter(TextInputFilter):
    title = "repository"
    parameters = ("repository",)
    placeholder = "owner/name"


class SkillFilter(SharedParamsFilter):
    """A skill and a minimum score (two inputs), turned into the shared ``skill=slug:min`` parameter on submit
    (``with_skill_term``)."""

    title = "skill and minimum score"
    parameters = ("skill",)
    template = "admin/profiles/candidate/skill_filter.html"

    def choices(self, changelist):
        terms = self.used_parameters.get("skill") or []
        current = []
        for term in terms:
            rest = [t for t in terms if t != term]
            label, _, minimum = term.rpartition(":") if ":" in term else (term, "", "")
            current.append(
                {
                    "label": label,
                    "minimum": minimum,
                    "remove": changelist.get_query_string({"skill": rest or None}),
                }
            )
        yield {
            "current": current,
            "hidden": hidden_params(changelist, exclude=set()),
            "skills": self.request.filter_choices.skills,
        }


def with_skill_term(params: QueryDict) -> QueryDict:
    """The sidebar's two inputs (skill, minimum score) as one shared ``skill=slug:min`` parameter."""
    params = params.copy()
    slug = (params.pop("skill_slug", [""])[-1] or "").strip()
    minimum = (params.pop("skill_min", [""])[-1] or "").strip()
    params.pop("p", None)
    if slug:
        params.appendlist("skill", f"{slug}:{minimum}" if minimum else slug)
    return params


def hidden_params(changelist, *, exclude: set[str]) -> list[tuple[str, str]]:
    """The changelist's other parameters, as hidden inputs of a sidebar form, so that submitting it keeps them."""
    return [
        (name, value)
        for name, values in changelist.filter_params.items()
        if name not in exclude
        for value in (values if isinstance(values, list) else [values])
    ]


SIDEBAR_FILTERS = [
    SkillFilter,
    CountryFilter,
    YearsCodingFilter,
    BadgeFilter,
    SpokenLanguageFilter,
    SchoolFilter,
    RepositoryFilter,
]
SIDEBAR_PARAMS = frozenset(name for f in SIDEBAR_FILTERS for name in f.parameters)
