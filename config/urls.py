from django.contrib import admin
from django.urls import include, path

from apps.play import views as play_views
from config.api import api
from config.health import healthz

urlpatterns = [
    path("", play_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("apps.accounts.urls")),
    path("rooms/", include("apps.rooms.urls")),
    path("campaigns/", include("apps.campaigns.urls")),
    path("notifications/", include("apps.notifications.urls")),
    path("", include("apps.play.urls")),  # /rooms/<id>/launch, /games/<id>/
    path("admin/", admin.site.urls),
    path("api/", api.urls),
]

handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
