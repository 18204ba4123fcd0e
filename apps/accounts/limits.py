"""Rate limits: one reusable limiter on django-ratelimit's counters, shared by every process
through the default cache (Redis when REDIS_URL is set).

    if rate_limit_exceeded(group="chat", key=f"user:{user.pk}"):
        raise ...  # answer 429 / a form error

Rates are `settings.RATE_LIMITS[group]` ("10/h", "30/m"...), changeable from the environment
(docs/operations.md, "Limits"). A cache that fails or hangs (bounded by REDIS_TIMEOUT) lets the
request through: a rate limit must never take the site down with Redis. Logins and tokens are
also protected per account and per address by django-axes (settings.AXES_*).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import get_usage

logger = logging.getLogger(__name__)


def rate_limit_exceeded(*, group: str, key: str, rate: str | None = None) -> bool:
    """Count one use of `group` by `key` (e.g. "user:12", "ip:10.0.0.1"); True once over."""
    rate = rate or settings.RATE_LIMITS[group]
    try:
        usage = get_usage(
            None, group=group, key=lambda _group, _request: key, rate=rate, increment=True
        )
    except Exception as exc:  # the cache is down or hung: let the request through
        logger.warning("rate limit %s unavailable: %s", group, type(exc).__name__)
        return False
    return bool(usage and usage["should_limit"])


def client_address(request: HttpRequest) -> str:
    """The client's address as the web server saw it (behind a proxy: see --proxy-headers)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")
