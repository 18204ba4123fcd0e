"""Authentication backends: the lockout checks (apps/accounts/lockout.py) before Django's own."""

from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from django.http import HttpRequest

from apps.accounts.lockout import account_slowdown


class LoginLockoutBackend(AxesStandaloneBackend):
    """Refuses a locked-out address (django-axes), and a try at a slowed account from an address
    that must wait (its password is then neither checked nor counted).

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
        super().authenticate(request, username, password, **kwargs)  # a locked address: raises
        wait = account_slowdown(request, username)
        if wait:
            # axes' flag: the failure is not recorded, and its middleware answers with
            # config.errors.login_locked_out, which tells how long to wait.
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.login_wait_seconds = wait  # type: ignore[attr-defined]
            raise AxesBackendPermissionDenied("this account is slowed for this address")
        return None
