"""The JSON API (`/api/`, OpenAPI at `/api/openapi.json`), usable by browsers and bots.

Browsers authenticate with their session (CSRF-checked); bots send `Authorization: Bearer <token>`
with a token from `POST /api/auth/token`. Each app contributes a router from its `api.py`.
"""

from django.http import HttpRequest
from ninja import NinjaAPI
from ninja.security import HttpBearer, django_auth

from apps.accounts.api import router as accounts_router
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
api.add_router("/games", play_router)
