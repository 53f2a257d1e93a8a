from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.http import require_GET
from drf_spectacular.views import SpectacularSwaggerView
from rest_framework.renderers import JSONRenderer


@require_GET
def healthz(request):
    """Liveness for load balancers and docker compose: the database and Redis answer. Reveals nothing else."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    cache.get("healthz")
    return JsonResponse({"status": "ok"})


class SwaggerView(SpectacularSwaggerView):
    """Swagger UI whose errors (401, 403) are JSON in the API's error shape, whatever the client asked for.

    The HTML renderer would render an error page through the template context processors, which look at
    ``request.user`` again and re-raise the authentication error as a server error.
    """

    def handle_exception(self, exc):
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)
