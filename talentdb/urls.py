from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView

from talentdb.views import RedocView, SwaggerView, healthz

urlpatterns = [
    # The site's root is the recruiting desk (the admin index): where the admin's "View site" link and a bare address
    # lead, rather than a 404.
    path("", RedirectView.as_view(pattern_name="admin:index"), name="home"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", RedocView.as_view(url_name="schema"), name="redoc"),
]
