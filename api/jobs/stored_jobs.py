"""Stored jobs in the API: ``GET|POST /jobs/`` and ``GET|PATCH /jobs/{id}/`` (a job's pipeline is
``api.jobs.pipeline``).

A job is created from a pasted description (its criteria extracted, then editable) and read in the criteria shape of
``POST /jobs/match/`` (``api.jobs.criteria``). Reading needs ``jobs.view_job``, creating ``jobs.add_job``, changing a
job or its pipeline ``jobs.change_job``; on top of those, only a job's owner (or a superuser) changes it and
colleagues read the jobs shared with them (``jobs.selectors.jobs_for``); another's private job is a 404. Views only
call the services and selectors."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.reverse import reverse

from api.jobs.criteria import (
    CriteriaOverridesSerializer,
    CriteriaSerializer,
    DescriptionField,
    StrictCharField,
    StrictSerializer,
    ignored_field,
    unrecognised_field,
)
from api.pagination import KeysetPagination
from jobs import services
from jobs.models import Job
from jobs.selectors import job_criteria, job_for, jobs_for

VIEW_JOB, ADD_JOB, CHANGE_JOB = "jobs.view_job", "jobs.add_job", "jobs.change_job"


class JobPermission(BasePermission):
    """Reading needs jobs.view_job; a view's ``write_permission`` names what its writes need."""

    def has_permission(self, request, view) -> bool:
        needed = VIEW_JOB if request.method in SAFE_METHODS else view.write_permission
        self.message = f"This needs the permission {needed}."
        return request.user.has_perm(needed)


JOB_PERMISSIONS = [IsAuthenticated, JobPermission]


class JobCriteriaSerializer(CriteriaSerializer):
    ignored = ignored_field()
    unrecognised = unrecognised_field()


class JobSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()
    title = serializers.CharField()
    description = serializers.CharField()
    status = serializers.ChoiceField(choices=Job.Status.choices)
    owner = serializers.CharField(source="owner.get_username")
    shared = serializers.BooleanField()
    criteria = serializers.SerializerMethodField()
    pipeline_url = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_url(self, job: Job) -> str:
        return reverse("api:job-detail", kwargs={"pk": job.pk}, request=self.context.get("request"))

    def get_pipeline_url(self, job: Job) -> str:
        return reverse("api:job-pipeline", kwargs={"pk": job.pk}, request=self.context.get("request"))

    @extend_schema_field(JobCriteriaSerializer)
    def get_criteria(self, job: Job) -> dict:
        return job_criteria(job).to_dict()


class JobCreatedSerializer(JobSerializer):
    warnings = serializers.ListField(
        child=serializers.CharField(), help_text="What was not understood: no skill found, a skill left out."
    )


class JobCreateSerializer(StrictSerializer):
    title = StrictCharField(max_length=200)
    description = DescriptionField(
        help_text="The job description as pasted (plain text), at most JOB_DESCRIPTION_MAX_CHARS (100,000) characters."
    )
    status = serializers.ChoiceField(choices=Job.Status.choices, default=Job.Status.OPEN)
    shared = serializers.BooleanField(default=False, help_text="Every colleague may read it; only you change it.")
    criteria = CriteriaOverridesSerializer(required=False)


class JobUpdateSerializer(StrictSerializer):
    title = StrictCharField(max_length=200, required=False)
    description = DescriptionField(required=False, help_text="Kept as edited; the criteria are not read again.")
    status = serializers.ChoiceField(choices=Job.Status.choices, required=False)
    shared = serializers.BooleanField(required=False)
    criteria = CriteriaOverridesSerializer(required=False, help_text="Each field given replaces the stored one.")


class JobMixin:
    permission_classes = JOB_PERMISSIONS
    queryset = Job.objects.none()  # for the schema; rows come from the selectors
    write_permission = CHANGE_JOB

    def get_object(self) -> Job:
        try:
            return job_for(user=self.request.user, job_id=self.kwargs["pk"])
        except Job.DoesNotExist as exc:
            raise Http404("No job with this id that you may see.") from exc


def _job_answer(view, job: Job, *, warnings=None, code=status.HTTP_200_OK) -> Response:
    job = job_for(user=view.request.user, job_id=job.pk)  # with its criteria rows, as read
    context = view.get_serializer_context()
    if warnings is None:
        return Response(JobSerializer(job, context=context).data, status=code)
    return Response({**JobSerializer(job, context=context).data, "warnings": list(warnings)}, status=code)


@extend_schema_view(
    get=extend_schema(summary="Jobs: yours and those shared with you, newest first"),
    post=extend_schema(
        summary="Create a job from a description",
        description="Its criteria are extracted from `description` (as `POST /jobs/match/` does), then `criteria` "
        "replaces each field it gives; they are stored, editable with PATCH. The job gets its pipeline, a shortlist "
        "of yours named after it. A description in which no skill is found still makes a job, with a warning. Needs "
        "jobs.add_job.",
        request=JobCreateSerializer,
        responses={201: JobCreatedSerializer},
    ),
)
class JobListView(JobMixin, generics.ListAPIView):
    serializer_class = JobSerializer
    pagination_class = KeysetPagination
    filter_backends: list = []
    write_permission = ADD_JOB

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Job.objects.none()
        return jobs_for(user=self.request.user)

    def post(self, request, *args, **kwargs):
        form = JobCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        saved = services.job_create(user=request.user, **form.validated_data)
        response = _job_answer(self, saved.job, warnings=saved.warnings, code=status.HTTP_201_CREATED)
        response["Location"] = response.data["url"]
        return response


@extend_schema_view(
    get=extend_schema(summary="One job with its criteria"),
    patch=extend_schema(
        summary="Change a job: its fields and criteria",
        description="Only its owner changes a job (a colleague reading a shared one gets a 403). Needs "
        "jobs.change_job.",
        request=JobUpdateSerializer,
        responses={200: JobSerializer},
    ),
)
class JobDetailView(JobMixin, generics.RetrieveAPIView):
    serializer_class = JobSerializer

    def patch(self, request, *args, **kwargs):
        job = self.get_object()
        form = JobUpdateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        services.job_update(job=job, user=request.user, **form.validated_data)
        return _job_answer(self, job)
