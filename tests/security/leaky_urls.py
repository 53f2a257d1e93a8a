"""The project's URLs plus two views that forgot their protection: the access walk must catch both."""

from django.http import JsonResponse
from django.urls import path

from talentdb.urls import urlpatterns as project_urlpatterns


def leak(request):
    return JsonResponse({"candidates": ["everyone"]})


urlpatterns = [
    path("api/v1/leak/", leak, name="leak"),
    path("admin-reports/", leak, name="admin-reports"),
    *project_urlpatterns,
]
