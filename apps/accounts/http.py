"""The request a view behind `login_required` receives: its user is signed in."""

from django.http import HttpRequest

from apps.accounts.models import User


class AuthenticatedHttpRequest(HttpRequest):
    """Annotate a `login_required` view's request with this instead of casting `request.user`."""

    user: User
