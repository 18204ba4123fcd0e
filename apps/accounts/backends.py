"""Authentication backends: django-axes' lockout check in front of Django's own."""

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LoginLockoutBackend(AxesStandaloneBackend):
    """Refuses a locked-out account or address (django-axes).

    An authentication without a request (a management command, the test client's `login`)
    cannot come from the web, so it is passed on to the next backend instead of refused.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
