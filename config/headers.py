"""Security headers every page carries: the Content-Security-Policy and the Permissions-Policy.

The policy itself is in settings (CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY); this module only
adds what settings cannot know: the host a request came to, for the site's own websockets.
"""

from collections.abc import Callable

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


class SiteCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, with connect-src widened to ws:/wss: of the request's own host.

    CSP 3 lets 'self' match same-host websockets, but not every browser does; naming the host
    keeps the live pages working without allowing sockets to anywhere else.
    """

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        host = request.get_host()
        update = dict(parts.update or {})
        sockets = [f"ws://{host}", f"wss://{host}"]
        existing = update.get("connect-src") or []
        update["connect-src"] = [*existing, *sockets]
        parts.update = update
        return parts


class PermissionsPolicyMiddleware:
    """Sets Permissions-Policy from settings.PERMISSIONS_POLICY (feature -> allowed origins)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        policy: dict[str, list[str]] = settings.PERMISSIONS_POLICY
        self.header = ", ".join(
            f"{feature}=({' '.join(origins)})" for feature, origins in policy.items()
        )

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", self.header)
        return response
