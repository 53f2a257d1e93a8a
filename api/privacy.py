"""``GET /api/v1/privacy/notices/``: the people not told yet that TalentDB holds their data, the most
urgent first, for whoever sends the notices from another tool. Needs ``privacy.view_sourcingrecord`` (the Privacy
officer group); ``?overdue=true`` keeps those past their due date. Marking notices as sent is the admin's action
(``privacy.notices.notices_mark_sent``)."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.reverse import reverse

from api.pagination import KeysetPagination
from privacy.models import SourcingRecord
from privacy.notices import notices_due

VIEW_SOURCING = "privacy.view_sourcingrecord"


class CanViewSourcing(BasePermission):
    message = f"This needs the permission {VIEW_SOURCING}."

    def has_permission(self, request, view) -> bool:
        return request.user.has_perm(VIEW_SOURCING)


class NoticeDueSerializer(serializers.Serializer):
    candidate_id = serializers.IntegerField()
    candidate_url = serializers.SerializerMethodField()
    name = serializers.CharField(source="candidate.name")
    email = serializers.CharField(source="candidate.email", help_text="Empty when the files gave none.")
    sourced_at = serializers.DateTimeField()
    lawful_basis = serializers.ChoiceField(choices=SourcingRecord.LawfulBasis.choices)
    notice_due_at = serializers.DateTimeField()
    overdue = serializers.SerializerMethodField()

    def get_candidate_url(self, record: SourcingRecord) -> str:
        return reverse("api:candidate-detail", kwargs={"pk": record.candidate_id}, request=self.context.get("request"))

    def get_overdue(self, record: SourcingRecord) -> bool:
        return record.notice_due_at < self.context["now"]


@extend_schema(
    summary="Privacy notices not sent yet, the most urgent first",
    parameters=[
        OpenApiParameter("overdue", OpenApiTypes.BOOL, description="true: only those past their due date."),
    ],
)
class NoticeListView(generics.ListAPIView):
    serializer_class = NoticeDueSerializer
    permission_classes = [IsAuthenticated, CanViewSourcing]
    pagination_class = KeysetPagination
    filter_backends = []

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "now": self.now}

    def get_queryset(self):
        self.now = timezone.now()
        # The keyset's last key must be named id: the record's primary key is its candidate's id.
        queryset = notices_due().annotate(id=F("candidate_id")).order_by("notice_due_at", "id")
        overdue = self.request.query_params.get("overdue")
        if overdue not in (None, "true", "false"):
            raise ValidationError({"overdue": ["true or false"]})
        if overdue == "true":
            queryset = queryset.filter(notice_due_at__lt=self.now)
        return queryset
