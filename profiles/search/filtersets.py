"""The one candidate filter implementation: the API, the admin and the exports all run it.

Call it through ``profiles.selectors.candidate_search(params=...)``; this module only declares the filters and
turns them into SQL (``profiles.search.terms`` parses their values, ``profiles.search.skills`` resolves skills).

* Skill terms read the candidate row, not ``CandidateSkill``: ``Candidate.skill_tokens`` holds ``skill_id * 16 +
  score`` per skill under a GIN index, so ``python:8`` is ``skill_tokens && {python*16+8, …, python*16+10}`` and
  several terms intersect posting lists in one index scan. With a ``country`` filter the terms use the tokens scoped
  to that country (``profiles.search.columns.skill_tokens``), far shorter lists. ``any_skill`` is one overlap with
  every wanted token, ``exclude_skill`` its negation; ``match`` is ``profiles.search.skills.match_expression``.
* An unknown skill, topic or repository is not an error: it simply matches nobody.
* What the skill terms build stays flat however many there are: one filter of sibling conditions.
"""

from __future__ import annotations

import string

import django_filters as filters
from django import forms
from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.db.models.functions import Lower

from core.labels import label_key
from profiles.models import (
    Candidate,
    Contribution,
    Education,
    Position,
    Repository,
    Skill,
    SkillAlias,
    SpokenLanguage,
)
from profiles.search.columns import skill_tokens
from profiles.search.skills import MATCH_FORMULA, match_expression, resolve_skills
from profiles.search.terms import (
    FLUENCY_SCALE,
    CountryFilter,
    IntegerFilter,
    LanguageFilter,
    LanguageTerm,
    RepositoryFilter,
    SkillTerm,
    SkillTermsFilter,
    StrictFilterForm,
    UtcDateTimeFilter,
    check_skill_term_count,
)

# ordering value → the order_by keys (the id tiebreak makes every ordering total, as keyset pagination needs).
ORDERINGS: dict[str, tuple[str, str]] = {
    "match": ("match", "id"),
    "-match": ("-match", "-id"),
    "rank": ("rank", "id"),
    "-rank": ("-rank", "-id"),
    "name": ("name", "id"),
    "-name": ("-name", "-id"),
    "years_coding": ("years_coding", "id"),
    "-years_coding": ("-years_coding", "-id"),
    "updated_at": ("updated_at", "id"),
    "-updated_at": ("-updated_at", "-id"),
}


class CandidateFilterForm(StrictFilterForm):
    def clean(self):
        cleaned = super().clean()
        check_skill_term_count(cleaned)
        ordering = (cleaned.get("ordering") or "").lstrip("-")
        if ordering == "match" and not (cleaned.get("skill") or cleaned.get("any_skill")):
            self.add_error("ordering", forms.ValidationError("match needs a skill or any_skill filter", code="invalid"))
        if ordering == "rank" and not cleaned.get("q"):
            self.add_error("ordering", forms.ValidationError("rank needs a q filter", code="invalid"))
        return cleaned


def _has_words(queryset: QuerySet, fields: tuple[str, ...], value: str) -> QuerySet:
    """Rows whose fields hold every word of ``value`` (whole words, any case, no stemming).

    ``to_tsvector('simple', ...) @@ plainto_tsquery('simple', ...)``: served by the GIN indexes of migration
    profiles 0005, whose expressions are these same SearchVectors.
    """
    alias = "_".join(fields) + "_words"
    query = SearchQuery(value, config="simple", search_type="plain")
    return queryset.alias(**{alias: SearchVector(*fields, config="simple")}).filter(**{alias: query})


def _either(queryset: QuerySet, *ids: QuerySet) -> QuerySet:
    """The candidates whose id one of the ``ids`` queries gives: ``id IN (a UNION ALL b)``, each part read through its
    own index, so the cost follows the matches, as a filter on one indexed column does. ``Q(column) | Exists(...)``
    walks the candidates instead, testing both (a hashed subplan), many times slower for a company one of them worked
    at or a title word one has (README, "Candidate filters")."""
    first, *rest = (query.order_by() for query in ids)  # no ordering: it would join the candidates into each part
    return queryset.filter(pk__in=first.union(*rest, all=True))


def _case_variants(value: str) -> list[str]:
    """Badges and spoken languages are stored as files write them ("Top School", "English"): accept any case."""
    value = " ".join(value.split())
    return sorted({value, string.capwords(value), value.lower(), value.upper()})


class CandidateFilterSet(filters.FilterSet):
    """Every candidate filter of the API, the admin and the exports. All filters combine with AND."""

    skill = SkillTermsFilter(
        method="filter_skill",
        repeatable=True,
        help_text=(
            "Repeatable. `slug` or `slug:min_score` (score 0-10); every term must hold. Alias-aware: "
            "`skill=cprogramming-language:9` finds C at 9 or more, and an equivalent form finds its skill as imports "
            "map labels (`vue-3`, `angular-2+`, `express.js`). An unknown skill matches nobody. At most "
            "SEARCH_MAX_TERMS (50 unless configured) skill terms a request, counting `skill`, `any_skill` and "
            "`exclude_skill` together; more is a 400. " + MATCH_FORMULA
        ),
    )
    any_skill = SkillTermsFilter(
        method="filter_any_skill",
        repeatable=False,
        help_text="Comma-separated `slug` or `slug:min_score`: at least one must hold. Counts towards `match`.",
    )
    exclude_skill = SkillTermsFilter(
        method="filter_exclude_skill",
        repeatable=False,
        help_text="Comma-separated `slug` or `slug:min_score`: candidates with any of them are left out.",
    )
    q = filters.CharFilter(
        method="filter_q",
        help_text=(
            "Full-text search over name, headline, summary and contribution summaries, PostgreSQL websearch syntax "
            '(`"exact phrase"`, `or`, `-word`). Adds `rank`; ordered by it unless skills are requested.'
        ),
    )
    country = CountryFilter(
        method="filter_country", help_text="Country name or ISO 3166-1 code (`DE`, `DEU`, `Germany`)."
    )
    location = filters.CharFilter(
        method="filter_location", help_text="Words that must each appear in the city, region or country (whole words)."
    )
    company = filters.CharFilter(
        method="filter_company",
        help_text=(
            "A company worked at, now or before: the profile's company or any job's, case-insensitive exact name "
            "(`northwind labs`; `Northwind` alone matches neither)."
        ),
    )
    current_company = filters.CharFilter(
        method="filter_current_company",
        help_text=(
            "A company worked at now: the profile's company or a current (open-ended) job's, case-insensitive exact "
            "name. Ended jobs do not count."
        ),
    )
    title = filters.CharFilter(
        method="filter_title",
        help_text=(
            "Words that must each appear in the profile's job title or in the title of one job, current or past "
            "(whole words, any order)."
        ),
    )
    school = filters.CharFilter(method="filter_school", help_text="A school attended, case-insensitive exact name.")
    degree = filters.CharFilter(
        method="filter_degree", help_text="Words that must each appear in one degree (whole words)."
    )
    badge = filters.CharFilter(method="filter_badge", help_text="A badge, any case (`Rockstar`, `top school`).")
    language = LanguageFilter(
        method="filter_language",
        help_text=(
            "A spoken language: an ISO 639 code or a name in English or another language, any case (`fr`, `French`, "
            "`Français`, `Inglés`), optionally with a fluency level it must at least reach: `language:level` "
            "(`english:professional_working`). Levels, highest first: " + ", ".join(FLUENCY_SCALE) + "; words the "
            "importer reads for them are accepted too (`english:fluent` is full_professional, `english:professional` "
            "professional_working, `english:native`). A language listed without a level meets no level. An unknown "
            "level is a 400. A name that no language data knows matches the name as written. Without a level, the "
            "profile's list of spoken language names (entered by hand, or imported before languages had levels) "
            "matches too."
        ),
    )
    repository = RepositoryFilter(
        method="filter_repository", help_text="Contributed to this repository (`owner/name`, exact)."
    )
    topic = filters.CharFilter(
        method="filter_topic", help_text="Contributed to a repository with this topic (alias-aware, like skills)."
    )
    min_years_coding = IntegerFilter(
        field_name="years_coding", lookup_expr="gte", min_value=0, max_value=100, help_text="Years coding, at least."
    )
    max_years_coding = IntegerFilter(
        field_name="years_coding", lookup_expr="lte", min_value=0, max_value=100, help_text="Years coding, at most."
    )
    min_years_employed = IntegerFilter(
        field_name="years_employed",
        lookup_expr="gte",
        min_value=0,
        max_value=100,
        help_text=(
            'Years employed, at least: the figure the file declares (Prog.AI\'s "N years of employment"); without '
            "one, the months of the dated jobs, a month worked in two overlapping jobs counted once, in whole years."
        ),
    )
    min_commits = IntegerFilter(
        method="filter_min_commits",
        min_value=0,
        help_text="At least this many commits to one repository (to `repository`, when that is given too).",
    )
    updated_since = UtcDateTimeFilter(
        field_name="updated_at", lookup_expr="gte", help_text="Updated at or after this ISO 8601 date or datetime."
    )
    ordering = filters.ChoiceFilter(
        method="filter_ordering",
        choices=[(key, key) for key in ORDERINGS],
        help_text=(
            "Sort order; `-` for descending. Default: `-match` with skill filters, else `-rank` with `q`, else "
            "`-updated_at`. `match` needs `skill`/`any_skill`, `rank` needs `q`. Ties are broken by id."
        ),
    )

    class Meta:
        model = Candidate
        fields: list[str] = []
        form = CandidateFilterForm

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._match_skill_ids: list[int | None] = []  # the skills `match` averages over (None: known to nobody)
        self._skills: dict[str, tuple[int, str]] | None = None
        self._matches_nobody = False

    # --- Helpers -----------------------------------------------------------------------------------------------

    def _skill(self, label: str) -> tuple[int, str] | None:
        """The canonical (id, slug) of a requested label; all requested labels are resolved in one query."""
        if self._skills is None:
            data = self.form.cleaned_data
            terms = [*(data.get("skill") or []), *(data.get("any_skill") or []), *(data.get("exclude_skill") or [])]
            labels = {term.label for term in terms}
            if data.get("topic"):
                labels.add(label_key(data["topic"]))
            self._skills = resolve_skills(labels)
        return self._skills.get(label)

    def _skill_id(self, label: str) -> int | None:
        skill = self._skill(label)
        return skill[0] if skill else None

    def _tokens(self, terms: list[SkillTerm], *, country_code: str = "") -> list[int]:
        """The skill tokens any of these terms accepts (unknown skills have none), scoped to a country if given."""
        tokens = (
            token
            for term in terms
            if (skill_id := self._skill_id(term.label)) is not None
            for token in skill_tokens(skill_id, term.min_score, country_code=country_code)
        )
        return list(dict.fromkeys(tokens))  # each once: terms may repeat or overlap (python and python:5)

    def _country(self) -> str:
        """The requested country: skill terms use the tokens scoped to it."""
        return self.form.cleaned_data.get("country") or ""

    def _country_in_skill_tokens(self) -> bool:
        """Whether a known ``skill`` / ``any_skill`` term reads tokens scoped to the requested country."""
        data = self.form.cleaned_data
        terms = [*(data.get("skill") or []), *(data.get("any_skill") or [])]
        return bool(self._country()) and any(self._skill_id(term.label) is not None for term in terms)

    # --- Filters -----------------------------------------------------------------------------------------------

    def filter_skill(self, queryset: QuerySet, name: str, terms: list[SkillTerm]) -> QuerySet:
        conditions: dict[tuple[int, ...], Q] = {}  # a term given twice is one condition (and counts twice in match)
        for term in terms:
            skill_id = self._skill_id(term.label)
            self._match_skill_ids.append(skill_id)
            if skill_id is None:
                self._matches_nobody = True
                continue
            tokens = skill_tokens(skill_id, term.min_score, country_code=self._country())
            conditions.setdefault(tuple(tokens), Q(skill_tokens__overlap=tokens))
        # One filter of sibling conditions: a filter call per term copied the growing query each time.
        return queryset.filter(*conditions.values()) if conditions else queryset

    def filter_any_skill(self, queryset: QuerySet, name: str, terms: list[SkillTerm]) -> QuerySet:
        if not terms:
            return queryset
        self._match_skill_ids.extend(self._skill_id(term.label) for term in terms)
        tokens = self._tokens(terms, country_code=self._country())
        if not tokens:
            self._matches_nobody = True
            return queryset
        return queryset.filter(skill_tokens__overlap=tokens)

    def filter_exclude_skill(self, queryset: QuerySet, name: str, terms: list[SkillTerm]) -> QuerySet:
        tokens = self._tokens(terms)
        return queryset.exclude(skill_tokens__overlap=tokens) if tokens else queryset

    def filter_country(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        if self._country_in_skill_tokens():
            # The skill terms' tokens hold only candidates of this country. A second condition on country_code would
            # tempt the planner into AND-ing a bitmap of a quarter of the table with the short skill lists.
            return queryset
        return queryset.filter(country_code=value)

    def filter_q(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        query = SearchQuery(value, search_type="websearch", config="english")
        return queryset.filter(search_vector=query).annotate(rank=SearchRank(F("search_vector"), query))

    def filter_location(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return _has_words(queryset, ("city", "region", "country"), value)

    def _company(self, queryset: QuerySet, value: str, *, current_only: bool) -> QuerySet:
        """The profile's own company (it is the current job, and a recruiter may have edited it) or a job's, by
        ``Lower(company)`` as candidate_company_lower_idx and position_company_lower_idx index it."""
        key = " ".join(value.split()).lower()
        profiles = Candidate.objects.alias(company_lower=Lower("company")).filter(company_lower=key)
        jobs = Position.objects.alias(company_lower=Lower("company")).filter(company_lower=key)
        if current_only:
            jobs = jobs.filter(is_current=True)
        return _either(queryset, profiles.values("pk"), jobs.values("candidate_id"))

    def filter_company(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return self._company(queryset, value, current_only=False)

    def filter_current_company(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return self._company(queryset, value, current_only=True)

    def filter_title(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        # Every word in one title: the profile's (a recruiter may have edited it) or one job's, each table's words
        # under its GIN index (candidate_title_words_gin, position_title_words_gin).
        profiles = _has_words(Candidate.objects.all(), ("title",), value)
        jobs = _has_words(Position.objects.all(), ("title",), value)
        return _either(queryset, profiles.values("pk"), jobs.values("candidate_id"))

    def filter_school(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        schools = Education.objects.alias(school_lower=Lower("school")).filter(
            candidate=OuterRef("pk"), school_lower=" ".join(value.split()).lower()
        )
        return queryset.filter(Exists(schools))

    def filter_degree(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(
            Exists(_has_words(Education.objects.filter(candidate=OuterRef("pk")), ("degree",), value))
        )

    def filter_badge(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(badges__overlap=_case_variants(value))

    def filter_language(self, queryset: QuerySet, name: str, term: LanguageTerm | None) -> QuerySet:
        if term is None:
            return queryset
        if term.code:
            languages = SpokenLanguage.objects.filter(code=term.code)  # spokenlanguage_code_idx (code, fluency)
        else:  # a name no language data knows, as the loader kept it (no index: few rows are such)
            languages = SpokenLanguage.objects.alias(name_lower=Lower("name")).filter(name_lower=term.name.lower())
        if term.min_fluency:
            # Only the rows can meet a level: the names list has none.
            languages = languages.filter(fluency__in=term.fluencies)
            return queryset.filter(Exists(languages.filter(candidate=OuterRef("pk"))))
        # Also the profiles whose only record is the names list (entered by hand, or imported before the rows): the
        # name as given, its English name and its code (an old import stored `"language": "fr"` as "fr"). An OR, not
        # _either: most searches name a language most candidates speak, and a page of them is found walking the
        # candidates, where fetching and sorting every speaker of English took several times longer.
        names = {*_case_variants(term.text), *_case_variants(term.name)}
        if term.code:
            names.update(_case_variants(term.code))
        return queryset.filter(
            Exists(languages.filter(candidate=OuterRef("pk"))) | Q(spoken_languages__overlap=sorted(names))
        )

    def filter_repository(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        contributions = Contribution.objects.filter(candidate=OuterRef("pk"), repository__full_name=value)
        if self.form.cleaned_data.get("min_commits") is not None:
            contributions = contributions.filter(commits__gte=self.form.cleaned_data["min_commits"])
        return queryset.filter(Exists(contributions))

    def filter_topic(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        skill = self._skill(label_key(value))
        if skill is None:
            self._matches_nobody = True
            return queryset
        # Repository.topic_slugs holds canonical slugs: `topic_slugs @> ARRAY[slug]`, served by its GIN index.
        repositories = Repository.objects.filter(topic_slugs__contains=[skill[1]])
        contributions = Contribution.objects.filter(candidate=OuterRef("pk"), repository__in=repositories)
        return queryset.filter(Exists(contributions))

    def filter_min_commits(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        if self.form.cleaned_data.get("repository"):
            return queryset  # applied together with the repository, in filter_repository
        return queryset.filter(Exists(Contribution.objects.filter(candidate=OuterRef("pk"), commits__gte=value)))

    def filter_ordering(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset  # applied last, in filter_queryset, once match and rank exist

    # --- Ranking and ordering ----------------------------------------------------------------------------------

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        queryset = super().filter_queryset(queryset)
        data = self.form.cleaned_data
        if self._match_skill_ids:
            queryset = queryset.annotate(match=match_expression(self._match_skill_ids))
        if self._matches_nobody:
            queryset = queryset.none()
        ordering = data.get("ordering") or (
            "-match" if self._match_skill_ids else "-rank" if data.get("q") else "-updated_at"
        )
        return queryset.order_by(*ORDERINGS[ordering])


class SkillFilterSet(filters.FilterSet):
    """Filters of the canonical skill list."""

    kind = filters.ChoiceFilter(field_name="kind", choices=Skill.Kind.choices, help_text="Skill kind.")
    search = filters.CharFilter(
        method="filter_search", help_text="Slugs and aliases starting with this text (`pyt` finds python, python3)."
    )

    class Meta:
        model = Skill
        fields: list[str] = []
        form = StrictFilterForm

    def filter_search(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        prefix = label_key(value)
        aliases = SkillAlias.objects.filter(skill=OuterRef("pk"), label__startswith=prefix)
        return queryset.filter(Q(slug__startswith=prefix) | Exists(aliases))


class RepositoryFilterSet(filters.FilterSet):
    """Filters of the repository list."""

    search = filters.CharFilter(
        field_name="full_name", lookup_expr="istartswith", help_text="`owner/name` starting with this text."
    )
    topic = filters.CharFilter(method="filter_topic", help_text="Has this topic (alias-aware, like skills).")

    class Meta:
        model = Repository
        fields: list[str] = []
        form = StrictFilterForm

    def filter_topic(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        skill = resolve_skills({label_key(value)}).get(label_key(value))
        if skill is None:
            return queryset.none()
        return queryset.filter(topic_slugs__contains=[skill[1]])
