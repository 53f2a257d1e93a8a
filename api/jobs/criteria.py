"""What a job asks for, in the API: the criteria overrides a request sends (strict: an unknown key is refused, and
text only is read where text is read) and the criteria an answer shows, with what the reading of the post left out.

``ignored`` and ``unrecognised`` (``jobs.criteria.Criteria.to_dict()``) are informative: a recruiter adds an ignored
skill back through the overrides (``required`` or ``preferred``); an unrecognised term is no skill of the vocabulary
yet."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.countries import country_code
from jobs.criteria import DEFAULT_MIN_SCORE, IGNORED_REASONS

MAX_LIST_ITEMS = 100  # per criteria list; the selector also caps the skills at SEARCH_MAX_TERMS


class StrictSerializer(serializers.Serializer):
    """Refuses keys it does not declare: a misspelt override must not be silently ignored."""

    def to_internal_value(self, data):
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, dict) else []
        if unknown:
            raise serializers.ValidationError(
                {
                    "non_field_errors": [
                        f"Unknown field(s): {', '.join(unknown)}. Known: {', '.join(sorted(self.fields))}."
                    ]
                }
            )
        return super().to_internal_value(data)


class RequiredSkillSerializer(StrictSerializer):
    skill = serializers.CharField(max_length=200, help_text="A skill's slug or alias.")
    min_score = serializers.IntegerField(min_value=0, max_value=10, default=DEFAULT_MIN_SCORE)


class PreferredSkillSerializer(StrictSerializer):
    skill = serializers.CharField(max_length=200, help_text="A skill's slug or alias.")


class CountryField(serializers.CharField):
    def to_internal_value(self, data) -> str:
        code = country_code(super().to_internal_value(data))
        if not code:
            raise serializers.ValidationError(f"{data!r} is not a country name or ISO code.")
        return code


class CriteriaOverridesSerializer(StrictSerializer):
    """Each field given replaces what the description gave; the others stay as extracted."""

    required = RequiredSkillSerializer(many=True, required=False, max_length=MAX_LIST_ITEMS)
    preferred = PreferredSkillSerializer(many=True, required=False, max_length=MAX_LIST_ITEMS)
    excluded = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False, max_length=MAX_LIST_ITEMS
    )
    min_years_coding = serializers.IntegerField(min_value=0, max_value=80, allow_null=True, required=False)
    countries = serializers.ListField(
        child=CountryField(max_length=80), required=False, max_length=MAX_LIST_ITEMS, help_text="Names or ISO codes."
    )
    remote = serializers.BooleanField(
        allow_null=True, required=False, help_text="true: fully remote; false: on-site or hybrid; null: not stated."
    )
    keywords = serializers.ListField(
        child=serializers.CharField(max_length=100), required=False, max_length=MAX_LIST_ITEMS
    )


_JSON_KINDS = {bool: "a boolean", int: "a number", float: "a number", list: "an array", dict: "an object"}


def _string_or_refused(data):
    """``data`` when it is a string; else a ValidationError saying what came instead, so that no service is handed
    a number, a list or an object where it reads text (DRF's CharField turns numbers into strings)."""
    if not isinstance(data, str):
        raise serializers.ValidationError(
            f"This field must be text (a JSON string), not {_JSON_KINDS.get(type(data), type(data).__name__)}.",
            code="invalid",
        )
    return data


class StrictCharField(serializers.CharField):
    """A CharField that takes strings only: ``5`` is refused, not read as ``"5"``."""

    def to_internal_value(self, data):
        return super().to_internal_value(_string_or_refused(data))


class DescriptionField(serializers.Field):
    """The text as sent, if it is a string: the extractor judges it (empty, too long, binary, control characters) and
    says why."""

    def to_internal_value(self, data):
        return _string_or_refused(data)


extend_schema_field({"type": "string"})(DescriptionField)


class IgnoredMentionSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="The mention as the description wrote it.")
    skill = serializers.CharField(help_text="The skill's slug it names: what to add back.")
    reason = serializers.ChoiceField(
        choices=IGNORED_REASONS,
        help_text="negated (\u201cwe don't use X\u201d), migrated-off (\u201cmoving off X\u201d), substitute "
        "(\u201cX or a similar tool\u201d), only-mentioned (named, never asked for), not-a-skill (a common word or "
        "a generic one: \u201chigh EQ\u201d, \u201cframework\u201d).",
    )


def ignored_field() -> IgnoredMentionSerializer:
    return IgnoredMentionSerializer(many=True, help_text="Skills named in the description but left out, and why.")


def unrecognised_field() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(),
        help_text="Technology-looking terms of the requirement lines that the skill vocabulary does not hold.",
    )


class _RequiredOut(serializers.Serializer):
    skill = serializers.CharField()
    min_score = serializers.IntegerField(min_value=0, max_value=10)


class _PreferredOut(serializers.Serializer):
    skill = serializers.CharField()


class CriteriaSerializer(serializers.Serializer):
    required = _RequiredOut(many=True)
    preferred = _PreferredOut(many=True)
    excluded = serializers.ListField(child=serializers.CharField())
    min_years_coding = serializers.IntegerField(allow_null=True)
    countries = serializers.ListField(child=serializers.CharField(), help_text="ISO 3166-1 alpha-2.")
    remote = serializers.BooleanField(
        allow_null=True, help_text="true: fully remote; false: on-site or hybrid; null: not stated."
    )
    keywords = serializers.ListField(child=serializers.CharField())
    ignored = ignored_field()
    unrecognised = unrecognised_field()
