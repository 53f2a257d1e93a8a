"""Skills in the API: ``GET /skills/`` (the canonical skills with their aliases and candidate counts) and
``GET /skills/{slug}/related/`` (the skills that go with one, as the last refresh computed them).

Reading needs what the skill list needs (a login); an unknown slug is a 404. The related rows come from
``profiles.selectors.related_skills``; ``profiles.services.related_skills_refresh`` (Beat) writes them.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, serializers
from rest_framework.response import Response

from api.filters import SelectorFilterBackend
from api.pagination import KeysetPagination
from core.labels import label_key
from profiles.models import Skill
from profiles.search.filtersets import SkillFilterSet
from profiles.search.skills import resolve_skills
from profiles.selectors import related_skills, skill_search


class SkillSerializer(serializers.ModelSerializer):
    aliases = serializers.SerializerMethodField(help_text="Labels (lower-cased) that mean this skill.")
    candidate_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Skill
        fields = ["id", "slug", "name", "kind", "aliases", "candidate_count"]

    def get_aliases(self, skill: Skill) -> list[str]:
        return [alias.label for alias in skill.alias_rows]


@extend_schema_view(get=extend_schema(summary="Canonical skills with their aliases and candidate counts"))
class SkillListView(generics.ListAPIView):
    serializer_class = SkillSerializer
    pagination_class = KeysetPagination
    filter_backends = [SelectorFilterBackend]
    filterset_class = SkillFilterSet
    search = staticmethod(skill_search)

    def get_queryset(self):
        return Skill.objects.all()


MAX_LIMIT = 50


class RelatedSkillsParamsSerializer(serializers.Serializer):
    limit = serializers.IntegerField(min_value=1, max_value=MAX_LIMIT, default=10)

    def to_internal_value(self, data):
        unknown = sorted(set(data) - set(self.fields) - {"format"})  # format: DRF's, as on every endpoint
        if unknown:  # a misspelt parameter must not be silently ignored, as on the other lists
            raise serializers.ValidationError(
                {"non_field_errors": [f"Unknown parameter(s): {', '.join(unknown)}. Known parameters: limit."]}
            )
        return super().to_internal_value(data)


class SkillRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Skill
        fields = ["slug", "name", "kind"]


class RelatedSkillSerializer(serializers.Serializer):
    slug = serializers.CharField(source="related.slug")
    name = serializers.CharField(source="related.name")
    kind = serializers.ChoiceField(source="related.kind", choices=Skill.Kind.choices)
    lift = serializers.FloatField(help_text="How many times more often than chance a candidate has both.")
    support = serializers.IntegerField(help_text="Candidates counted who have both.")


class RelatedSkillsSerializer(serializers.Serializer):
    skill = SkillRefSerializer()
    computed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the rows were computed; null when none is stored for this skill."
    )
    results = RelatedSkillSerializer(many=True)


@extend_schema(
    summary="Skills that go with this one, the highest lift first",
    description="Computed from the candidates' skills (co-occurrence at a minimum score, with a minimum support), "
    "refreshed by Beat every RELATED_SKILLS_REFRESH_INTERVAL_SECONDS. `lift` = candidates with both × candidates "
    "counted / (candidates with the one × candidates with the other): above 1, more often than chance.",
    parameters=[
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": 10},
            description="At most this many related skills.",
        ),
    ],
    responses={200: RelatedSkillsSerializer, 404: OpenApiResponse(description="No skill has this slug.")},
)
class RelatedSkillsView(generics.GenericAPIView):
    serializer_class = RelatedSkillsSerializer
    queryset = Skill.objects.none()  # for the schema; rows come from the selector

    def get(self, request, slug: str):
        params = RelatedSkillsParamsSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        # The slug, or a label that leads to it as the skill filters read one (an alias: golang → go).
        skill = Skill.objects.filter(slug=slug).first()
        if skill is None and (resolved := resolve_skills({label_key(slug)})):
            skill = Skill.objects.filter(pk=next(iter(resolved.values()))[0]).first()
        if skill is None:
            raise Http404(f"No skill has the slug “{slug}”.")
        rows = related_skills(skill=skill, limit=params.validated_data["limit"])
        answer = {"skill": skill, "computed_at": max((r.computed_at for r in rows), default=None), "results": rows}
        return Response(RelatedSkillsSerializer(answer, context=self.get_serializer_context()).data)
