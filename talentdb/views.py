from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def healthz(request):
    """Liveness for load balancers and docker compose: the database and Redis answer. Reveals nothing else."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    cache.get("healthz")
    return JsonResponse({"status": "ok"})
