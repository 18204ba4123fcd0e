"""HTTP through Django, websockets through Channels (same-origin, session-authenticated).

`/healthz` is answered before Django's middleware: a sync middleware runs on the requests'
thread, where during a database outage it queued behind requests waiting for the pool
(config/health.py). Every websocket passes the per-user cap of config/sockets.py. Every other
request's body passes the size limit of config/limits.py before Django sees it, and Django's WSGI
handler answers it on one of the process's `REQUEST_RUNNING` request threads, handed over once
(config/request_threads.py).
"""

import os
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_app = get_wsgi_application()

# Imported after Django is set up: consumers touch models.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from config.collector import collector_tune_for_serving  # noqa: E402
from config.health import HEALTH_PATH, asgi_healthz  # noqa: E402
from config.limits import BodyLimit  # noqa: E402
from config.request_threads import DjangoInThreads  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.sockets import SocketCap  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": BodyLimit(
            DjangoInThreads(django_app, threads=settings.REQUEST_RUNNING),
            settings.REQUEST_MAX_BYTES,
        ),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(SocketCap(URLRouter(websocket_urlpatterns)))
        ),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and scope.get("path") == HEALTH_PATH:
        await asgi_healthz(scope, receive, send)
        return
    await router(scope, receive, send)


# Last, once the process holds what it keeps for life: the URLconf (and with it every view)
# loaded now rather than by the first request, then frozen with the rest.
get_resolver().url_patterns  # noqa: B018  (loads them)
collector_tune_for_serving()
