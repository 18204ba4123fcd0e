"""Error answers outside the API's own handlers: JSON `{"detail"}` under /api/, pages elsewhere.

- `not_found` / `server_error`: Django's handler404 / handler500 (config/urls.py).
- `DatabaseUnavailableMiddleware`: a view that could not get a database connection (the pool is
  saturated, PostgreSQL is down) answers 503 with Retry-After instead of a 500.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

logger = logging.getLogger(__name__)

DATABASE_UNAVAILABLE = "The site is busy or its database is unreachable: try again in a moment."
SERVER_ERROR = "Something went wrong on our side; it has been logged."
RETRY_AFTER_SECONDS = "5"


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return JsonResponse({"detail": SERVER_ERROR}, status=500)
    return defaults.server_error(request)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        response: HttpResponse = JsonResponse({"detail": DATABASE_UNAVAILABLE}, status=503)
    else:
        response = HttpResponse(DATABASE_UNAVAILABLE, status=503, content_type="text/plain")
    response["Retry-After"] = RETRY_AFTER_SECONDS
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError | InterfaceError):
            logger.warning("database unavailable for %s: %s", request.path, exception)
            return database_unavailable(request)
        return None


class BadHostOnce(logging.Filter):
    """A request with a `Host` not in ALLOWED_HOSTS is logged once, in one line: Django logs it
    (with its traceback) at every middleware that asks for the host again, and a scanner's
    probes buried the log in tracebacks. The line keeps the host and the path."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if request is not None:
            seen = getattr(request, "_bad_host_record", None)
            if seen is not None and seen is not record:  # (this filter may be set up twice)
                return False
            if seen is None:
                request._bad_host_record = record
                record.msg = f"{record.getMessage()} (path {getattr(request, 'path', '?')!r})"
                record.args = ()
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


LOCKED_OUT = (
    "Too many failed logins from your address: try again in a few minutes "
    "(or reset your password by email)."
)
SLOWED = (
    "This account has had many wrong passwords lately: wait {seconds} seconds before trying it "
    "again from here, or reset your password by email."
)


def login_locked_out(
    request: HttpRequest, credentials: object = None, **kwargs: object
) -> HttpResponse:
    """django-axes' answer to a login it refused (apps/accounts/lockout.py): 429, saying
    whether the address is locked out or the account slowed (then with `Retry-After`)."""
    wait = getattr(request, "login_wait_seconds", None)
    message = SLOWED.format(seconds=wait) if wait else LOCKED_OUT
    response: HttpResponse
    if is_api(request):
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = HttpResponse(message, status=429, content_type="text/plain")
    if wait:
        response["Retry-After"] = str(wait)
    return response
