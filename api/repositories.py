"""``GET /repositories/``: the repositories candidates contributed to, with their contributor counts."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, serializers

from api.filters import SelectorFilterBackend
from api.pagination import KeysetPagination
from profiles.models import Repository
from profiles.search.filtersets import RepositoryFilterSet
from profiles.selectors import repository_search


class RepositorySerializer(serializers.ModelSerializer):
    contributor_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Repository
        fields = ["id", "full_name", "description", "topics", "topic_slugs", "contributor_count"]


@extend_schema_view(get=extend_schema(summary="Repositories with their contributor counts"))
class RepositoryListView(generics.ListAPIView):
    serializer_class = RepositorySerializer
    pagination_class = KeysetPagination
    filter_backends = [SelectorFilterBackend]
    filterset_class = RepositoryFilterSet
    search = staticmethod(repository_search)

    def get_queryset(self):
        return Repository.objects.all()
