from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.exceptions import NotAuthenticated
from rest_framework.renderers import JSONRenderer

from searchindex.client import health as search_index_health


@require_GET
def healthz(request):
    """Liveness for load balancers and docker compose: the database and Redis answer. Reveals nothing else but the
    ranking index's state and age (it never fails the check: without the index, requests rank in SQL)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    cache.get("healthz")
    return JsonResponse({"status": "ok", "search_index": search_index_health()})


class DocsPageMixin:
    """An API docs page, for people in a browser: a visitor who has not logged in is sent to the admin's login page,
    which brings them back; any other error (a bad token, 403) is JSON in the API's error shape.

    The HTML renderer would render an error page through the template context processors, which look at
    ``request.user`` again and re-raise the authentication error as a server error.
    """

    def handle_exception(self, exc):
        if isinstance(exc, NotAuthenticated) and self.request.method in ("GET", "HEAD"):
            return redirect_to_login(self.request.get_full_path(), reverse("admin:login"))
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)


class SwaggerView(DocsPageMixin, SpectacularSwaggerSplitView):
    """Swagger UI. The split view serves its start-up script as a script file (``?script``) rather than inline, so
    the Content-Security-Policy needs no exception for it."""


class RedocView(DocsPageMixin, SpectacularRedocView):
    """Redoc, without the web fonts its stock template loads from a public font service."""

    template_name = "api_docs/redoc.html"
