"""The JSON API (`/api/`, OpenAPI at `/api/openapi.json`), usable by browsers and bots.

Browsers authenticate with their session (CSRF-checked); bots send `Authorization: Bearer <token>`
with a token from `POST /api/auth/token`. Each app contributes a router from its `api.py`.
"""

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import ValidationError
from ninja.security import HttpBearer, django_auth

from apps.accounts.api import router as accounts_router
from apps.play.api import launch_router
from apps.play.api import router as play_router
from apps.rooms.api import router as rooms_router


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> object | None:
        from apps.accounts.services import token_authenticate

        user = token_authenticate(raw=token)
        if user is not None:
            request.user = user
        return user


api = NinjaAPI(
    title="Ashen Vault API",
    version="1",
    urls_namespace="api",
    auth=[BearerToken(), django_auth],
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
