"""A job's pipeline in the API: ``GET /jobs/{id}/pipeline/`` (every stage in order, each candidate with their events)
and ``POST`` (add a candidate, move them to a stage, note them). Only the job's owner changes it, with
``jobs.change_job``; reading is ``api.jobs.stored_jobs``' rule."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.reverse import reverse

from api.jobs.criteria import StrictSerializer
from api.jobs.stored_jobs import JobMixin
from jobs import services
from jobs.selectors import job_pipeline
from profiles.models import Candidate, ShortlistEntry, ShortlistEntryEvent


class _BlankAsNullChoiceField(serializers.ChoiceField):
    def to_representation(self, value):
        return value or None


class PipelineEventSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ShortlistEntryEvent.Kind.choices)
    author = serializers.CharField(source="author.get_username", allow_null=True, default=None)
    at = serializers.DateTimeField()
    from_stage = _BlankAsNullChoiceField(source="from_status", choices=ShortlistEntry.Status.choices, allow_null=True)
    to_stage = _BlankAsNullChoiceField(source="to_status", choices=ShortlistEntry.Status.choices, allow_null=True)
    note = serializers.CharField(allow_blank=True)


class PipelineCandidateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.SerializerMethodField()
    name = serializers.CharField()

    def get_url(self, candidate: Candidate) -> str:
        return reverse("api:candidate-detail", kwargs={"pk": candidate.pk}, request=self.context.get("request"))


class PipelineEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    candidate = PipelineCandidateSerializer()
    stage = serializers.ChoiceField(source="status", choices=ShortlistEntry.Status.choices)
    notes = serializers.CharField(allow_blank=True)
    added_at = serializers.DateTimeField()
    events = PipelineEventSerializer(many=True, help_text="Oldest first: who added, moved or noted, and when.")


class PipelineStageSerializer(serializers.Serializer):
    stage = serializers.ChoiceField(choices=ShortlistEntry.Status.choices)
    entries = PipelineEntrySerializer(many=True, help_text="Newest first.")


class PipelineSerializer(serializers.Serializer):
    job = serializers.URLField()
    stages = PipelineStageSerializer(many=True, help_text="Every stage in order, empty ones too.")


class PipelineWriteSerializer(StrictSerializer):
    candidate = serializers.IntegerField(help_text="The candidate's id.")
    stage = serializers.ChoiceField(choices=ShortlistEntry.Status.choices, required=False)
    note = serializers.CharField(max_length=10_000, required=False, help_text="Appended to the entry's notes.")

    def validate_candidate(self, value: int) -> Candidate:
        try:
            return Candidate.objects.get(pk=value)
        except Candidate.DoesNotExist as exc:
            raise serializers.ValidationError(f"No candidate with the id {value}.") from exc


@extend_schema_view(
    get=extend_schema(summary="A job's pipeline by stage, each candidate with their events"),
    post=extend_schema(
        summary="Add a candidate to the pipeline, move them to a stage, or note them",
        description="A candidate not in the pipeline is added (at `stage`, else sourced; 201); one in it is moved to "
        "`stage` and/or given `note` (200). Every change is recorded with you as its author. Only the job's owner "
        "changes its pipeline. Needs jobs.change_job.",
        request=PipelineWriteSerializer,
        responses={200: PipelineEntrySerializer, 201: PipelineEntrySerializer},
    ),
)
class JobPipelineView(JobMixin, generics.GenericAPIView):
    serializer_class = PipelineSerializer

    def get(self, request, *args, **kwargs):
        job = self.get_object()
        stages = [{"stage": stage, "entries": entries} for stage, entries in job_pipeline(job=job)]
        url = reverse("api:job-detail", kwargs={"pk": job.pk}, request=request)
        return Response(PipelineSerializer({"job": url, "stages": stages}, context=self.get_serializer_context()).data)

    def post(self, request, *args, **kwargs):
        job = self.get_object()
        form = PipelineWriteSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        entry, added = services.pipeline_add(
            job=job, candidate=data["candidate"], user=request.user, stage=data.get("stage"), note=data.get("note")
        )
        entry = next(e for _, entries in job_pipeline(job=job) for e in entries if e.pk == entry.pk)
        return Response(
            PipelineEntrySerializer(entry, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED if added else status.HTTP_200_OK,
        )
