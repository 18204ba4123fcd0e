from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from config.api import api
from config.health import healthz

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("apps.accounts.urls")),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
]
