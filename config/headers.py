"""Security headers every page carries: the Content-Security-Policy and the Permissions-Policy.

The policy itself is in settings (CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY); this module only
adds what settings cannot know: the host a request came to, for the site's own websockets.
"""

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware, PolicyParts
from csp.utils import build_policy
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

# What a view's django-csp decorators set on its response: such a response gets its own policy.
_PER_RESPONSE = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)
HOSTS_KEPT = 64  # ALLOWED_HOSTS bounds the hosts; this bounds what a "*" lets in


class SiteCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, with connect-src widened to ws:/wss: of the request's own host.

    CSP 3 lets 'self' match same-host websockets, but not every browser does; naming the host
    keeps the live pages working without allowing sockets to anywhere else. The policies are
    built once per host (`_policies_for`).
    """

    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        self._host_policies: dict[str, tuple[str, str]] = {}

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

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        """django-csp's, with the policies built once per host instead of on every response:
        building them was a tenth of a trivial API request's time. A response whose view set
        its own policy, or a request that used a nonce, gets django-csp's own handling."""
        if getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, name) for name in _PER_RESPONSE
        ):
            return super().process_response(request, response)
        if response.status_code in (404, 500) and settings.DEBUG:
            return response  # django-csp leaves Django's debug pages alone
        enforced, report_only = self._policies_for(request, response)
        for header, policy, exempt, setting in (
            (HEADER, enforced, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
            (
                HEADER_REPORT_ONLY,
                report_only,
                "_csp_exempt_ro",
                "CONTENT_SECURITY_POLICY_REPORT_ONLY",
            ),
        ):
            excluded = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if (
                policy
                and header not in response
                and getattr(response, exempt, False) is False
                and not request.path_info.startswith(tuple(excluded))
            ):
                response[header] = policy
        # As django-csp does: a nonce asked for once the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response

    def _policies_for(self, request: HttpRequest, response: HttpResponseBase) -> tuple[str, str]:
        """The enforced and report-only policies for the request's host (no per-view parts)."""
        host = request.get_host()
        policies = self._host_policies.get(host)
        if policies is None:
            parts = self.get_policy_parts(request, response)
            parts_ro = self.get_policy_parts(request, response, report_only=True)
            policies = (
                build_policy(**asdict(parts)),
                build_policy(**asdict(parts_ro), report_only=True),
            )
            if len(self._host_policies) < HOSTS_KEPT:
                self._host_policies[host] = policies
        return policies


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
