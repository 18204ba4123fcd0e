"""The pages of web push: the service worker, the manifest and icons, subscribing a browser."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.notifications.push import icons
from apps.notifications.push.subscriptions import (
    SubscriptionRefused,
    push_subscription_remove,
    push_subscription_save,
)

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "sw.js"


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/sw.js served from the site's root, so that its scope is the whole site."""
    response = HttpResponse(
        SERVICE_WORKER.read_bytes(), content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the site can be installed (and, on an iPhone, must be for push)."""
    data = {
        "name": "Ashen Vault",
        "short_name": "Ashen Vault",
        "description": "Dungeon board games played by web, one turn at a time.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#1b1714",
        "theme_color": "#1b1714",
        "icons": [
            {"src": reverse("push_icon_svg"), "sizes": "any", "type": "image/svg+xml"},
            *(
                {
                    "src": reverse("push_icon_png", args=[size]),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "any maskable",
                }
                for size in icons.SIZES
            ),
        ],
    }
    return HttpResponse(json.dumps(data), content_type="application/manifest+json")


@require_GET
@cache_control(max_age=86400)
def icon_svg(request: HttpRequest) -> HttpResponse:
    return HttpResponse(icons.ICON_SVG, content_type="image/svg+xml")


@require_GET
@cache_control(max_age=86400)
def icon_png(request: HttpRequest, size: int) -> HttpResponse:
    if size not in icons.SIZES:
        raise Http404("No icon of that size.")
    return HttpResponse(icons.icon_png(size), content_type="image/png")


@login_required
@require_POST
def subscribe(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A browser's push subscription (`PushSubscription.toJSON()`, as JSON) for the user."""
    try:
        body = json.loads(request.body or b"{}")
        saved = push_subscription_save(
            user=request.user, data=body, user_agent=request.headers.get("User-Agent", "")
        )
    except (ValueError, SubscriptionRefused) as exc:
        return JsonResponse({"detail": str(exc) or "Not a push subscription."}, status=400)
    return JsonResponse({"id": saved.pk, "label": saved.label}, status=201)


@login_required
@require_POST
def unsubscribe(request: AuthenticatedHttpRequest, subscription_id: int) -> HttpResponse:
    """Forget one of the user's browsers (404 for anyone else's)."""
    if not push_subscription_remove(user=request.user, subscription_id=subscription_id):
        raise Http404("No such browser.")
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"removed": subscription_id})
    messages.success(request, "That browser gets no more notifications.")
    return redirect(reverse("profile") + "#push-devices")
