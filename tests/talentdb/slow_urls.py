"""A page and an API endpoint whose one statement outlasts the statement timeout (tests/talentdb/test_middleware.py)."""

from django.db import connection, transaction
from django.http import HttpResponse
from django.urls import include, path
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView


def _slow_statement() -> None:
    # In a savepoint: the error rolls it back (and the SET with it), and the test's transaction goes on.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = '50ms'")
        cursor.execute("SELECT pg_sleep(2)")


def slow_page(request):
    _slow_statement()
    return HttpResponse("finished")


class SlowEndpoint(APIView):
    permission_classes = [AllowAny]

    def get(self, request):
        _slow_statement()
        return Response({"finished": True})


urlpatterns = [
    path("admin/slow/", slow_page),
    path("api/v1/slow/", SlowEndpoint.as_view()),
    path("", include("talentdb.urls")),
]
