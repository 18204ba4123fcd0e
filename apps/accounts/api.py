from django.contrib.auth import authenticate
from django.http import HttpRequest
from ninja import Router, Schema
from ninja.errors import HttpError

from apps.accounts.limits import client_address, rate_limit_exceeded
from apps.accounts.lockout import login_succeeded
from apps.accounts.models import User
from apps.accounts.services import token_issue

router = Router(tags=["auth"])


class Credentials(Schema):
    username: str
    password: str


class TokenOut(Schema):
    token: str


class ErrorOut(Schema):
    detail: str


@router.post("/token", response={200: TokenOut, 401: ErrorOut, 429: ErrorOut}, auth=None)
def issue_token(request: HttpRequest, credentials: Credentials) -> TokenOut:
    """Trade a username and password for a personal API token (sent as `Bearer <token>`).

    Rate-limited per address (RATE_LIMITS["token_issue"]); wrong passwords count as on the login
    page (apps/accounts/lockout.py: the address locked, the account slowed): 429 then.
    """
    if rate_limit_exceeded(group="token_issue", key=f"ip:{client_address(request)}"):
        raise HttpError(429, "Too many tokens asked for from your address: try again later.")
    user = authenticate(request, username=credentials.username, password=credentials.password)
    if not isinstance(user, User) or not user.is_active:
        raise HttpError(401, "Wrong username or password.")
    login_succeeded(request=request, username=user.get_username())  # as a page login does
    return TokenOut(token=token_issue(user=user, name="api"))


class MeOut(Schema):
    username: str


@router.get("/me", response=MeOut)
def me(request: HttpRequest) -> MeOut:
    """Who the token (or session) belongs to: a bot's cheapest check that its token works."""
    return MeOut(username=request.user.get_username())
