from django.contrib import admin
from django.urls import include, path

from apps.notifications.push import views as push_views
from apps.play import views as play_views
from config.api import api
from config.health import healthz

urlpatterns = [
    path("", play_views.home, name="home"),
    # First: actions are posted here many times a second, and each pattern tried before the
    # one that matches costs every request.
    path("api/", api.urls),
    path("healthz", healthz, name="healthz"),
    # Web push: the service worker must be served from the root to control every page.
    path("sw.js", push_views.service_worker, name="push_worker"),
    path("manifest.webmanifest", push_views.manifest, name="push_manifest"),
    path("icons/icon.svg", push_views.icon_svg, name="push_icon_svg"),
    path("icons/icon-<int:size>.png", push_views.icon_png, name="push_icon_png"),
    path("accounts/", include("apps.accounts.urls")),
    path("rooms/", include("apps.rooms.urls")),
    path("campaigns/", include("apps.campaigns.urls")),
    path("notifications/", include("apps.notifications.urls")),
    path("", include("apps.play.urls")),  # /rooms/<id>/launch, /games/<id>/
    path("admin/", admin.site.urls),
]

handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
