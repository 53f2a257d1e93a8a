"""The query language of the candidate filters: the terms a parameter holds (``skill=python:8``,
``language=english:fluent``), the form fields and filters that parse them, and the strict form every FilterSet uses.

Every filter is strict: an unknown parameter or a value that does not parse is a validation error, never a silently
ignored filter. A request holds at most ``SEARCH_MAX_TERMS`` skill terms (``skill``, ``any_skill`` and
``exclude_skill`` together).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import django_filters as filters
from django import forms
from django.conf import settings
from drf_spectacular.utils import extend_schema_field

from core.countries import country_code
from core.labels import label_key
from core.languages import FLUENCY_WORDS, resolve_language
from profiles.models import SpokenLanguage

# Query parameters that belong to pagination and rendering, not to filtering: tolerated, never interpreted here.
PASSTHROUGH_PARAMS = frozenset({"cursor", "page_size", "format"})

_SCORE_RE = re.compile(r"^(?:10|[0-9])$")


@dataclass(frozen=True, slots=True)
class SkillTerm:
    """One requested skill: the label as given (normalised to a label key) and an optional minimum score."""

    label: str
    min_score: int | None = None


def parse_skill_term(raw: str) -> SkillTerm:
    """``slug`` or ``slug:min_score`` (score 0-10) → SkillTerm; ValidationError otherwise."""
    text = raw.strip()
    label, sep, score = text.rpartition(":")
    if not sep:
        label, score = text, ""
    key = label_key(label)
    if not key or (sep and not _SCORE_RE.match(score)):
        raise forms.ValidationError(
            "%(value)r is not slug or slug:min_score with a score 0-10", code="invalid", params={"value": raw}
        )
    return SkillTerm(key, int(score) if sep else None)


class SkillTermsField(forms.Field):
    """A repeatable parameter (``skill=a&skill=b:7``), optionally also comma-separated (``any_skill=a,b:7``)."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, split_commas: bool = False, **kwargs):
        self.split_commas = split_commas
        super().__init__(**kwargs)

    def to_python(self, value) -> list[SkillTerm]:
        raws = [value] if isinstance(value, str) else list(value or [])
        if self.split_commas:
            raws = [part for raw in raws for part in raw.split(",")]
        errors, terms = [], []
        for raw in raws:
            if not raw.strip() and self.split_commas:
                continue
            try:
                terms.append(parse_skill_term(raw))
            except forms.ValidationError as exc:
                errors.append(exc)
        if errors:
            raise forms.ValidationError(errors)
        return terms


class SkillTermsFilter(filters.Filter):
    """``skill=a&skill=b:7`` (repeatable) or ``any_skill=a,b:7`` (a comma list), documented as such in OpenAPI."""

    field_class = SkillTermsField

    def __init__(self, *, repeatable: bool, help_text: str, **kwargs):
        super().__init__(help_text=help_text, split_commas=not repeatable, **kwargs)
        schema = {"type": "array", "items": {"type": "string"}} if repeatable else {"type": "string"}
        extend_schema_field({**schema, "description": help_text})(self)


class IntegerFilter(filters.NumberFilter):
    field_class = forms.IntegerField


class CountryCodeField(forms.CharField):
    def clean(self, value) -> str:
        value = super().clean(value)
        if not value:
            return value
        code = country_code(value)
        if not code:
            raise forms.ValidationError("%(value)r is not a country name or ISO code", params={"value": value})
        return code


class CountryFilter(filters.CharFilter):
    field_class = CountryCodeField


class RepositoryNameField(forms.CharField):
    def clean(self, value) -> str:
        value = super().clean(value)
        if value and not re.fullmatch(r"[^/\s]+/[^/\s]+", value):
            raise forms.ValidationError("%(value)r is not owner/name", params={"value": value})
        return value


class RepositoryFilter(filters.CharFilter):
    field_class = RepositoryNameField


FLUENCY_SCALE = tuple(SpokenLanguage.Fluency.values)  # highest first: "at least a level" is a prefix of it


@dataclass(frozen=True, slots=True)
class LanguageTerm:
    """A requested spoken language: its ISO 639 code ("" when no data set knows the name), the text as given, and
    the lowest acceptable fluency ("" for any, or none given)."""

    code: str
    name: str
    text: str
    min_fluency: str = ""

    @property
    def fluencies(self) -> tuple[str, ...]:
        """The levels that meet ``min_fluency``: it and every level above it."""
        return FLUENCY_SCALE[: FLUENCY_SCALE.index(self.min_fluency) + 1]


def _fluency_of(word: str) -> str:
    """A level of ``FLUENCY_SCALE`` from its name (``professional_working``, any case) or a word of the parsers' table
    (``fluent``, ``professional``, ``native``, ``C1``); "" if neither. The whole word only: ``fluency_level`` also
    finds a level inside longer text ("not native"), which a filter should refuse rather than guess."""
    key = " ".join(word.replace("_", " ").split()).casefold()
    return FLUENCY_WORDS.get(key, "")


def parse_language_term(raw: str) -> LanguageTerm:
    """``language`` or ``language:level`` → LanguageTerm; ValidationError when either part is missing or the level is
    none of the scale."""
    text, sep, level_text = (" ".join(part.split()) for part in raw.partition(":"))
    level = _fluency_of(level_text) if sep else ""
    if not text or (sep and not level):
        raise forms.ValidationError(
            "%(value)r is not language or language:level. A level is one of %(levels)s (highest first), or a word "
            "for one such as fluent, professional or native.",
            code="invalid",
            params={"value": raw, "levels": ", ".join(FLUENCY_SCALE)},
        )
    resolved = resolve_language(text)
    code, name = resolved if resolved else ("", text)
    return LanguageTerm(code=code, name=name, text=text, min_fluency=level)


class LanguageTermField(forms.CharField):
    def clean(self, value) -> LanguageTerm | None:
        value = super().clean(value)
        return parse_language_term(value) if value else None


class LanguageFilter(filters.CharFilter):
    field_class = LanguageTermField


class UtcDateTimeField(filters.fields.IsoDateTimeField):
    """An ISO 8601 date or datetime, converted to UTC. Python accepts UTC offsets up to ±23:59, PostgreSQL only up to
    ±15:59: "2024-03-01T00:00+23:47" sent as written failed the query. A time that has no UTC equivalent (an offset
    carrying it before year 1) is a bad value."""

    def to_python(self, value):
        parsed = super().to_python(value)
        if parsed is None:
            return None
        try:
            return parsed.astimezone(dt.UTC)
        except OverflowError as exc:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from exc


class UtcDateTimeFilter(filters.IsoDateTimeFilter):
    field_class = UtcDateTimeField


class StrictFilterForm(forms.Form):
    """Rejects parameters no filter declares, and several values for a single-valued filter."""

    def clean(self):
        cleaned = super().clean()
        unknown = sorted(set(self.data) - set(self.fields) - PASSTHROUGH_PARAMS)
        if unknown:
            raise forms.ValidationError(
                "Unknown parameter(s): %(unknown)s. Known parameters: %(known)s.",
                code="unknown_parameter",
                params={"unknown": ", ".join(unknown), "known": ", ".join(sorted(self.fields))},
            )
        getlist = getattr(self.data, "getlist", None)
        for name, field in self.fields.items():
            if getlist and not isinstance(field.widget, forms.MultipleHiddenInput) and len(getlist(name)) > 1:
                self.add_error(name, forms.ValidationError("give one value", code="repeated"))
        return cleaned


SKILL_TERM_PARAMS = ("skill", "any_skill", "exclude_skill")


def check_skill_term_count(cleaned: dict) -> None:
    """ValidationError naming ``SEARCH_MAX_TERMS`` when the skill terms of one request are more than it allows."""
    count = sum(len(cleaned.get(name) or ()) for name in SKILL_TERM_PARAMS)
    limit = settings.SEARCH_MAX_TERMS
    if count > limit:
        raise forms.ValidationError(
            "Too many skill terms: %(count)d. A request may hold at most %(limit)d (SEARCH_MAX_TERMS), counting "
            "skill, any_skill and exclude_skill together.",
            code="too_many_terms",
            params={"count": count, "limit": limit},
        )


class MatchParamsForm(StrictFilterForm):
    """The parameters a candidate's detail accepts: the skills to compute ``match`` for."""

    skill = SkillTermsField(required=False)
    any_skill = SkillTermsField(required=False, split_commas=True)

    def clean(self):
        cleaned = super().clean()
        check_skill_term_count(cleaned)
        return cleaned
