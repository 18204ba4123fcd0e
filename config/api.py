"""The JSON API (`/api/`, OpenAPI at `/api/openapi.json`), usable by browsers and bots.

Browsers authenticate with their session (CSRF-checked); bots send `Authorization: Bearer <token>`
with a token from `POST /api/auth/token`. Each app contributes a router from its `api.py`.
"""

import logging
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import ValidationError
from ninja.security import HttpBearer, SessionAuth

from apps.accounts.api import router as accounts_router
from apps.accounts.services import token_authenticate
from apps.core.errors import Refusal
from apps.play.api import launch_router
from apps.play.api import router as play_router
from apps.rooms.api import router as rooms_router
from config.errors import DATABASE_UNAVAILABLE, SERVER_ERROR

logger = logging.getLogger(__name__)


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> object | None:
        user = token_authenticate(raw=token)
        if user is not None:
            request.user = user
        return user


class SessionCookie(SessionAuth):
    """The browser's session. CSRF is checked once someone is signed in: an anonymous write is
    401 (sign in first), never 403 "CSRF check failed"."""

    def __call__(self, request: HttpRequest) -> object | None:
        if not request.user.is_authenticated:
            return None
        return super().__call__(request)


api = NinjaAPI(
    title="Ashen Vault API",
    version="1",
    urls_namespace="api",
    auth=[BearerToken(), SessionCookie()],
)
api.add_router("/auth", accounts_router)
api.add_router("/rooms", rooms_router)
api.add_router("/rooms", launch_router)  # POST /api/rooms/{id}/launch lives in the play app
api.add_router("/games", play_router)


def _validation_message(errors: list[dict[str, Any]]) -> str:
    """`body.expected_version: Field required; ...` from ninja's validation errors."""
    parts = []
    for error in errors:
        loc = list(error.get("loc", ()))
        if loc[:1] == ["body"] and len(loc) > 2:
            del loc[1]  # the view's parameter name (`payload`) means nothing to the client
        where = ".".join(str(step) for step in loc)
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else error.get("msg", ""))
    return "Malformed request: " + "; ".join(parts)


@api.exception_handler(ValidationError)
def _malformed_request(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """A request that does not match the endpoint's schema is the client's error: 400."""
    errors = [{k: e[k] for k in ("loc", "msg", "type") if k in e} for e in exc.errors]
    body = {"detail": _validation_message(exc.errors), "errors": errors}
    return api.create_response(request, body, status=400)


@api.exception_handler(Refusal)
def _refused(request: HttpRequest, exc: Refusal) -> HttpResponse:
    """Every app's refusal (play, rooms, campaigns): its own status and message, one place."""
    return api.create_response(request, exc.body(), status=exc.status)


@api.exception_handler(RequestDataTooBig)
def _too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    return api.create_response(request, {"detail": "The request is too large."}, status=413)


@api.exception_handler(OperationalError)
@api.exception_handler(InterfaceError)
def _database_unavailable(request: HttpRequest, exc: Exception) -> HttpResponse:
    """The database is saturated (no pool connection in time) or unreachable: 503, retry."""
    logger.warning("database unavailable for %s: %s", request.path, exc)
    response = api.create_response(request, {"detail": DATABASE_UNAVAILABLE}, status=503)
    response["Retry-After"] = "5"
    return response


@api.exception_handler(Exception)
def _server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    logger.exception("server error on %s", request.path, exc_info=exc)
    return api.create_response(request, {"detail": SERVER_ERROR}, status=500)
