"""What the reading of a job post left out, in the API: the ``ignored`` and ``unrecognised`` fields of a criteria
object (``jobs.criteria.Criteria.to_dict()``). Both are informative: a recruiter adds an ignored skill back through
the criteria overrides (``required`` or ``preferred``); an unrecognised term is no skill of the vocabulary yet."""

from __future__ import annotations

from rest_framework import serializers

from jobs.criteria import IGNORED_REASONS


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
