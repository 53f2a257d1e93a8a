"""GET /api/v1/: the API root, a page of named links to the endpoints a consumer starts from (as DRF's DefaultRouter
root view lists its routes; this API has no router). It needs a login, as every endpoint does
(DEFAULT_PERMISSION_CLASSES)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

# Link name → URL name. The list endpoints only: a detail URL needs an id, which the lists' `url` fields give.
ENDPOINTS = {
    "candidates": "api:candidate-list",
    "candidates_export_csv": "api:candidate-export-csv",
    "candidates_export_jsonl": "api:candidate-export-jsonl",
    "skills": "api:skill-list",
    "repositories": "api:repository-list",
    "jobs": "api:job-list",
    "jobs_match": "api:job-match",
    "imports": "api:import-list",
    "exports": "api:export-list",
    "privacy_notices": "api:privacy-notice-list",
    "schema": "schema",
    "docs": "swagger-ui",
}


class ApiRootView(APIView):
    @extend_schema(
        summary="The API root: a link to each endpoint",
        description=(
            "Absolute URLs of the list endpoints, the exports, job matching (a POST), the OpenAPI schema and its "
            "Swagger UI. Detail URLs are in the lists' `url` fields."
        ),
        responses=inline_serializer(
            "ApiRoot", fields={name: serializers.URLField(read_only=True) for name in ENDPOINTS}
        ),
    )
    def get(self, request, *args, **kwargs):
        return Response({name: reverse(url_name, request=request) for name, url_name in ENDPOINTS.items()})
